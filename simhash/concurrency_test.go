package simhash

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/soak"
	"github.com/seed-9ef9c1df/neardup/internal/synth"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// TestConcurrentMatchesSequential adds a stream from 4 goroutines, records
// the order in which the Adds took the lock, and checks every fingerprint
// and every Containers answer against a Detector that added the same
// documents one by one in that order (the online table makes the
// fingerprints depend on it).
func TestConcurrentMatchesSequential(t *testing.T) {
	n := 400
	if raceEnabled {
		n = 120
	}
	docs := synth.Docs(n, synth.Config{Seed: 5})
	frozen := textproc.NewIDF(false)
	frozen.Freeze()
	for name, build := range map[string]func() (*Detector, error){
		"Online": func() (*Detector, error) { return New(Config{}) },
		"Lite":   func() (*Detector, error) { return New(Config{Weights: WeightTF, SkipTop: -1}) },
		"Frozen": func() (*Detector, error) { return NewWithIDF(Config{}, frozen) },
	} {
		t.Run(name, func(t *testing.T) {
			d, err := build()
			require.NoError(t, err)
			var order []string // appended under d.mu
			d.onCommit = func(id string) { order = append(order, id) }
			byID := map[string]detector.Doc{}
			for _, doc := range docs {
				byID[doc.ID] = doc
			}
			var next atomic.Int64
			var wg sync.WaitGroup
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						i := int(next.Add(1)) - 1
						if i >= len(docs) {
							return
						}
						_, err := d.Add(docs[i])
						assert.NoError(t, err)
					}
				}()
			}
			wg.Wait()
			require.Len(t, order, len(docs))
			seq, err := build()
			require.NoError(t, err)
			for _, id := range order {
				_, err := seq.Add(byID[id])
				require.NoError(t, err)
			}
			for _, doc := range docs {
				fa, oka, err := d.Fingerprint(doc.ID)
				require.NoError(t, err)
				fb, okb, err := seq.Fingerprint(doc.ID)
				require.NoError(t, err)
				require.Equal(t, okb, oka, doc.ID)
				require.Equal(t, fb, fa, doc.ID)
				ca, err := d.Containers(doc.ID)
				require.NoError(t, err)
				cb, err := seq.Containers(doc.ID)
				require.NoError(t, err)
				require.Equal(t, cb, ca, doc.ID)
			}
		})
	}
}

// TestAddAnalysesOutsideLock holds an Add just after its analysis and
// checks that Containers, Len and another Add complete meanwhile: the text
// is analysed without the Detector's lock.
func TestAddAnalysesOutsideLock(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	docs := synth.Docs(3, synth.Config{Seed: 1})
	_, err = d.Add(docs[0])
	require.NoError(t, err)
	entered, release := make(chan struct{}), make(chan struct{})
	var first atomic.Bool
	testHookAnalysed = func() {
		if first.CompareAndSwap(false, true) {
			close(entered)
			<-release
		}
	}
	defer func() { testHookAnalysed = nil }()
	done := make(chan error)
	go func() {
		_, err := d.Add(docs[1])
		done <- err
	}()
	<-entered
	others := make(chan error)
	go func() {
		_, err := d.Containers(docs[0].ID)
		if err == nil {
			_, err = d.Add(docs[2])
		}
		d.Len()
		others <- err
	}()
	select {
	case err := <-others:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("Containers and Add waited for another Add's analysis")
	}
	close(release)
	require.NoError(t, <-done)
	assert.Equal(t, 3, d.Len())
}

// TestReadersDoNotWaitForTurn holds an Add of a Detector with its own
// table while it has counted its document (its turn), and checks that
// Containers and Len complete meanwhile.
func TestReadersDoNotWaitForTurn(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	docs := synth.Docs(2, synth.Config{Seed: 1})
	_, err = d.Add(docs[0])
	require.NoError(t, err)
	entered, release := make(chan struct{}), make(chan struct{})
	var first atomic.Bool
	testHookInTurn = func() {
		if first.CompareAndSwap(false, true) {
			close(entered)
			<-release
		}
	}
	defer func() { testHookInTurn = nil }()
	done := make(chan error)
	go func() {
		_, err := d.Add(docs[1])
		done <- err
	}()
	<-entered
	others := make(chan error)
	go func() {
		_, err := d.Containers(docs[0].ID)
		d.Len()
		d.IDF()
		others <- err
	}()
	select {
	case err := <-others:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("Containers waited for an Add's turn")
	}
	close(release)
	require.NoError(t, <-done)
	assert.Equal(t, 2, d.Len())
}

// TestScratchShrinks signs a document of 300k distinct tokens, then an
// ordinary one: the Signer's buffers and vocabulary return to the size the
// ordinary document needs.
func TestScratchShrinks(t *testing.T) {
	s, err := NewSigner(Config{}, textproc.NewIDF(true))
	require.NoError(t, err)
	normal := synth.Docs(1, synth.Config{Seed: 2})[0].Text
	s.Sign(normal)
	small := s.scratchBytes()
	s.Sign(hostileText("a", 300_000))
	s.Sign(normal)
	assert.Less(t, s.scratchBytes(), small+1<<20, "buffers after the outlier (before: %d bytes)", small)
	assert.Less(t, s.an.VocabularySize(), 10_000, "the outlier's vocabulary is forgotten")
}

// TestVocabularyBounded streams documents with three fresh tokens each
// through a window: the Signers' vocabularies and the online table stay
// bounded by the live documents, not by everything seen.
func TestVocabularyBounded(t *testing.T) {
	defer func(f int) { vocabFloor = f }(vocabFloor)
	vocabFloor = 2000
	d, err := New(Config{})
	require.NoError(t, err)
	adds := 20_000
	if raceEnabled {
		adds = 6_000
	}
	_, err = soak.Run(d, soak.Config{Adds: adds, Window: 300, Every: adds, Pool: 50})
	require.NoError(t, err)
	for _, s := range d.pool.Idle() {
		assert.Less(t, s.an.VocabularySize(), 3*adds/2, "a Signer's vocabulary follows the recurring terms")
		assert.Less(t, s.an.VocabularySize(), 20_000)
	}
	assert.Less(t, d.turns.Table().Live(), 300*400, "the table counts the live documents only")
	assert.Equal(t, int64(300), d.IDF().N())
}

// TestHostileMemoryReturned adds three documents of 150k distinct tokens
// and removes them: the live heap returns to within a few MB of where it
// was.
func TestHostileMemoryReturned(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	for _, doc := range synth.Docs(200, synth.Config{Seed: 9}) {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	before := soak.LiveHeap()
	for i := range 3 {
		id := "hostile" + strconv.Itoa(i)
		_, err := d.Add(detector.Doc{ID: id, Text: hostileText(strconv.Itoa(i), 150_000)})
		require.NoError(t, err)
		require.NoError(t, d.Remove(id))
	}
	after := soak.LiveHeap()
	assert.Less(t, int64(after)-int64(before), int64(6<<20), "live heap %d → %d bytes", before, after)
	ms, err := d.Add(synth.Docs(1, synth.Config{Seed: 9})[0])
	require.ErrorIs(t, err, detector.ErrDuplicateID)
	assert.Empty(t, ms)
}

// TestLiveIDF checks that the online table counts the live documents: a
// removed document's terms leave it.
func TestLiveIDF(t *testing.T) {
	d, err := New(Config{Language: "en"})
	require.NoError(t, err)
	for i, text := range []string{"alpha beta gamma", "alpha delta", "epsilon zeta"} {
		_, err := d.Add(detector.Doc{ID: strconv.Itoa(i), Text: text})
		require.NoError(t, err)
	}
	assert.Equal(t, int64(3), d.IDF().N())
	assert.Equal(t, int64(2), d.IDF().DF("alpha"))
	require.NoError(t, d.Remove("0"))
	assert.Equal(t, int64(2), d.IDF().N())
	assert.Equal(t, int64(1), d.IDF().DF("alpha"))
	assert.Zero(t, d.IDF().DF("gamma"), "the removed document's own term leaves the table")
}

// TestIndexInStep adds and removes at random and checks that the index
// holds exactly the live documents with a fingerprint, the invariant that
// lets Remove take an entry out without checking.
func TestIndexInStep(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	docs := synth.Docs(300, synth.Config{Seed: 4})
	r := rand.New(rand.NewPCG(1, 2))
	live := map[string]bool{}
	for range 2000 {
		doc := docs[r.IntN(len(docs))]
		if live[doc.ID] {
			require.NoError(t, d.Remove(doc.ID))
			delete(live, doc.ID)
		} else {
			_, err := d.Add(doc)
			require.NoError(t, err)
			live[doc.ID] = true
		}
		n := 0
		for idx := range d.has {
			if d.has[idx] {
				n++
			}
		}
		require.Equal(t, n, d.index.Len())
	}
}
