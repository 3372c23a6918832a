package imatch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/idftab"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// TestConcurrentMatchesSequential adds a stream from 4 goroutines, records
// the order in which the Adds took the lock, and checks every signature and
// every Containers answer against a Detector that added the same documents
// one by one in that order (the online table makes the signatures depend
// on it).
func TestConcurrentMatchesSequential(t *testing.T) {
	n := 400
	if raceEnabled {
		n = 120
	}
	docs := dataset.SynthDocs(n, dataset.SynthConfig{Seed: 5})
	frozen := textproc.NewIDF(false)
	frozen.Freeze()
	for name, build := range map[string]func() (*Detector, error){
		"Online":         func() (*Detector, error) { return New(Config{}) },
		"OnlineLexicons": func() (*Detector, error) { return New(Config{Selection: SelectBand, Lexicons: 3}) },
		"Frozen":         func() (*Detector, error) { return NewWithIDF(Config{}, frozen) },
	} {
		t.Run(name, func(t *testing.T) {
			testkit.ConcurrentMatchesSequential(t, docs, testkit.Sequential[*Detector]{
				Build: build,
				Record: func(d *Detector, commit func(string)) {
					d.e.SetTrace(func(remove bool, id string) {
						if !remove {
							commit(id)
						}
					})
				},
				Same: func(t *testing.T, a, b *Detector, id string) {
					ka, err := a.Signature(id)
					require.NoError(t, err)
					kb, err := b.Signature(id)
					require.NoError(t, err)
					require.Equal(t, kb, ka, id)
				},
			})
		})
	}
}

// ownTable returns the online table of a Detector of New.
func ownTable(d *Detector) *idftab.Table {
	var t *idftab.Table
	d.e.Inspect(func(ix engine.Index[features], _ int) { t = ix.(*ownIndex).table })
	return t
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
	idf := textproc.NewIDF(false)
	idf.Freeze()
	s, err := NewSigner(Config{Lexicons: 2}, idf)
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
	for _, s := range d.alg.pool.Idle() {
		assert.Less(t, s.an.VocabularySize(), 20_000, "a Signer's vocabulary follows the recurring terms")
	}
	assert.Less(t, ownTable(d).Live(), 300*400, "the table counts the live documents only")
	assert.Equal(t, int64(300), d.IDF().N())
}

// TestHostileMemoryReturned adds three documents of 150k distinct tokens
// and removes them: the live heap returns to within a few MB of where it
// was.
func TestHostileMemoryReturned(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	testkit.HostileMemoryReturned(t, d)
}

// TestLiveIDF checks that the online table counts the live documents: a
// removed document's terms leave it.
func TestLiveIDF(t *testing.T) {
	d, err := New(Config{Language: "en"})
	require.NoError(t, err)
	testkit.LiveIDF(t, d, d.IDF)
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

// TestCountOnReplacedTable resolves a document's terms in one online
// table and counts it in another, as an Add does when a ReadFrom replaces
// the index between its Resolve and its turn: the count lands in the
// table of the turn, whatever cells the Signer cached.
func TestCountOnReplacedTable(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	before := d.alg.NewIndex().(*ownIndex)
	after := d.alg.NewIndex().(*ownIndex)
	f := d.alg.Features("alpha beta gamma delta epsilon zeta eta theta")
	before.Resolve(&f, &engine.Groups[features]{})
	after.Count(&f)
	after.Complete(&f)
	d.alg.Release(&f)
	idf := after.table.IDF()
	assert.Equal(t, int64(1), idf.N())
	for _, term := range []string{"alpha", "theta"} {
		assert.Equal(t, int64(1), idf.DF(term), term)
	}
	assert.Zero(t, before.table.IDF().N())
	assert.Zero(t, before.table.Live(), "nothing is counted in the table the terms were resolved in")
}

// scratchBytes returns the bytes held by the Signer's per-term buffers
// (not the analyzer's), for tests.
func (s *Signer) scratchBytes() int {
	v := &s.vocab
	return 4*cap(s.uniq) + 16*cap(s.terms) + 32*cap(s.all) + 32*cap(s.sel) + cap(s.buf) + 8*cap(s.ownDF) +
		v.seen.Bytes() + 8*cap(v.dfCache) + 8*cap(v.hcache) + cap(v.hset) + v.cells.Bytes()
}
