package simhash

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
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
	docs := dataset.SynthDocs(n, dataset.SynthConfig{Seed: 5})
	frozen := textproc.NewIDF(false)
	frozen.Freeze()
	for name, build := range map[string]func() (*Detector, error){
		"Online": func() (*Detector, error) { return New(Config{}) },
		"Lite":   func() (*Detector, error) { return New(Config{Weights: WeightTF, SkipTop: -1}) },
		"Frozen": func() (*Detector, error) { return NewWithIDF(Config{}, frozen) },
	} {
		t.Run(name, func(t *testing.T) {
			testkit.ConcurrentMatchesSequential(t, docs, testkit.Sequential[*Detector]{
				Build:  build,
				Record: func(d *Detector, commit func(string)) { d.onCommit = commit },
				Same: func(t *testing.T, a, b *Detector, id string) {
					fa, oka, err := a.Fingerprint(id)
					require.NoError(t, err)
					fb, okb, err := b.Fingerprint(id)
					require.NoError(t, err)
					require.Equal(t, okb, oka, id)
					require.Equal(t, fb, fa, id)
				},
			})
		})
	}
}

// TestAddAnalysesOutsideLock holds an Add just after its analysis and
// checks that Containers, Len and another Add complete meanwhile: the text
// is analysed without the Detector's lock.
func TestAddAnalysesOutsideLock(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	testkit.AnalysesOutsideLock(t, d, &testHookAnalysed)
}

// TestReadersDoNotWaitForTurn holds an Add of a Detector with its own
// table while it has counted its document (its turn), and checks that
// Containers and Len complete meanwhile.
func TestReadersDoNotWaitForTurn(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	testkit.ReadersDoNotWaitForTurn(t, d, &testHookInTurn, d.IDF)
}

// TestScratchShrinks signs a document of 300k distinct tokens, then an
// ordinary one: the Signer's buffers and vocabulary return to the size the
// ordinary document needs.
func TestScratchShrinks(t *testing.T) {
	s, err := NewSigner(Config{}, textproc.NewIDF(true))
	require.NoError(t, err)
	normal := dataset.SynthDocs(1, dataset.SynthConfig{Seed: 2})[0].Text
	s.Sign(normal)
	small := s.scratchBytes()
	s.Sign(testkit.HostileText("a", 300_000))
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
	_, err = testkit.Soak(d, testkit.SoakConfig{Adds: adds, Window: 300, Every: adds, Pool: 50})
	require.NoError(t, err)
	for _, s := range d.pool.Idle() {
		assert.Less(t, s.an.VocabularySize(), 3*adds/2, "a Signer's vocabulary follows the recurring terms")
		assert.Less(t, s.an.VocabularySize(), 20_000)
	}
	assert.Less(t, d.table().Live(), 300*400, "the table counts the live documents only")
	assert.Equal(t, int64(300), d.IDF().N())
}

// TestHostileMemoryReturned adds three documents of 150k distinct tokens
// and removes them: the live heap returns to within a few MB of where it
// was.
func TestHostileMemoryReturned(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	testkit.HostileMemoryReturned(t, d)
	ms, err := d.Add(dataset.SynthDocs(1, dataset.SynthConfig{Seed: 9})[0])
	require.ErrorIs(t, err, detector.ErrDuplicateID)
	assert.Empty(t, ms)
}

// TestLiveIDF checks that the online table counts the live documents: a
// removed document's terms leave it.
func TestLiveIDF(t *testing.T) {
	d, err := New(Config{Language: "en"})
	require.NoError(t, err)
	testkit.LiveIDF(t, d, d.IDF)
}

// TestIndexInStep adds and removes at random and checks that the index
// holds exactly one entry per group of live copies with a fingerprint (one
// per distinct fingerprint and digest), the invariant that lets Remove take
// an entry out without checking.
func TestIndexInStep(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	docs := dataset.SynthDocs(300, dataset.SynthConfig{Seed: 4})
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
		type key struct {
			fp  uint64
			dig hashtab.Digest
		}
		groups := map[key]bool{}
		for id := range live {
			require.NoError(t, d.e.Group("test", id, func(f *sig) {
				if f != nil && f.has {
					groups[key{f.fp, f.dig}] = true
				}
			}))
		}
		inspect(d, func(ix *index, _ *ownIndex, _ int) { require.Equal(t, len(groups), ix.ham.Len()) })
	}
}

// TestConcurrentAddRemoveTable adds and removes documents from 4
// goroutines at once and requires the online table to count the live
// documents exactly (testkit.ConcurrentAddRemoveIDF).
func TestConcurrentAddRemoveTable(t *testing.T) {
	n := 400
	if raceEnabled {
		n = 160
	}
	testkit.ConcurrentAddRemoveIDF(t, n, func() (*Detector, error) { return New(Config{}) },
		func(d *Detector) *textproc.IDF { return d.IDF() })
}

// scratchBytes returns the bytes held by the Signer's per-token and
// per-term buffers (not the analyzer's), for tests.
func (s *Signer) scratchBytes() int {
	v := &s.vocab
	return 8*cap(s.th) + cap(s.st) + 8*cap(s.tidf) + 4*cap(s.uniq) + 16*cap(s.terms) +
		24*cap(s.feats) + 12*s.seen.Slots() + 4*cap(s.skip) + cap(s.chars) + 4*cap(s.owner) + 4*cap(s.next) +
		8*cap(s.dfs) + 8*cap(v.hash) + cap(v.hashed) + 8*cap(v.w) + cap(v.wset) + cap(v.isStop) +
		v.seen.Bytes() + v.cells.Bytes()
}
