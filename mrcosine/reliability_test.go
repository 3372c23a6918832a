package mrcosine

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// TestAddChecksFirst: an Add that must fail fails before the text is
// analysed (the signature scratch is untouched), and an Add after Close
// returns ErrClosed.
func TestAddChecksFirst(t *testing.T) {
	d, err := New(Config{MaxTextBytes: 100})
	require.NoError(t, err)
	_, err = d.Add(detector.Doc{ID: "big", Text: strings.Repeat("x", 101)})
	assert.ErrorIs(t, err, detector.ErrTooLarge)
	_, err = d.Add(detector.Doc{Text: "no id"})
	assert.ErrorIs(t, err, detector.ErrEmptyID)
	_, err = d.Add(detector.Doc{ID: "a", Text: "Oil prices rose."})
	require.NoError(t, err)
	_, err = d.Add(detector.Doc{ID: "a", Text: "Oil prices rose."})
	assert.ErrorIs(t, err, detector.ErrDuplicateID)
	require.NoError(t, d.Close())
	_, err = d.Add(detector.Doc{ID: "b", Text: "Oil prices rose."})
	assert.ErrorIs(t, err, detector.ErrClosed)
	// Analysing 2 MB allocates megabytes (the folded text and the content
	// filter's blocks of an outlier are not kept): the rejected Add must not.
	big := strings.Repeat("Oil prices rose sharply after the pipeline closed. ", 40000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 5 {
		_, err = d.Add(detector.Doc{ID: "c", Text: big})
		assert.ErrorIs(t, err, detector.ErrClosed)
	}
	runtime.ReadMemStats(&after)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<10), "an Add after Close does no analysis")
	e, err := New(Config{})
	require.NoError(t, err)
	runtime.ReadMemStats(&before)
	_, err = e.Add(detector.Doc{ID: "c", Text: big})
	require.NoError(t, err)
	runtime.ReadMemStats(&after)
	assert.Greater(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "the measure sees an analysis")
}

// TestRemoveShrinks fills a detector, empties it, and checks the bucket
// table gave its slots back.
func TestRemoveShrinks(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	docs := dataset.SynthDocs(3000, dataset.SynthConfig{Seed: 9})
	for i, doc := range docs {
		_, err := d.Add(detector.Doc{ID: doc.ID, Text: testkit.Unique(doc.Text, i)})
		require.NoError(t, err)
	}
	full, lists := d.ix().buckets.slots(), d.ix().buckets.lists()
	for _, doc := range docs {
		require.NoError(t, d.Remove(doc.ID))
	}
	assert.Zero(t, d.ix().buckets.keys())
	assert.LessOrEqual(t, d.ix().buckets.slots(), 16*d.Config().Bands, "the band maps shrink (from %d slots)", full)
	assert.LessOrEqual(t, d.ix().buckets.lists(), 64, "emptied lists are forgotten (from %d)", lists)
	assert.Greater(t, full, 4096)
}

// TestScratchShrinks signs an outlier text of a million distinct trigrams:
// the signature scratch it grew is dropped, not kept for later texts.
func TestScratchShrinks(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	ref := Default()
	var b strings.Builder
	for i := range 300_000 {
		fmt.Fprintf(&b, "w%x ", i*7919)
	}
	ref.Signature(b.String())
	for range 4 { // whatever the pool hands out now is small
		sc, _ := ref.scratch.Get()
		assert.LessOrEqual(t, len(sc.c.slots), maxKeptSlots)
		assert.LessOrEqual(t, cap(sc.c.text), maxKeptText)
		defer ref.scratch.Put(sc)
	}
	ref.Signature("an ordinary text keeps its scratch")
	sc, _ := ref.scratch.Get()
	assert.NotZero(t, len(sc.c.slots), "ordinary scratch is kept")
	ref.scratch.Put(sc)
}
