package tweezer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// hostileText returns a text of n sentences, each naming a person no other
// sentence names: n distinct NE shingles.
func hostileText(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "Dün Ahmet Qx%dz açıklama yaptı. ", i)
	}
	return b.String()
}

// keepAlive holds the hostile text across the heap samples, so that only
// the index's share of the heap is compared.
var keepAlive string

// TestRemoveGivesMemoryBack adds a text with 50,000 distinct entities and
// removes it: the live heap must come back to within 1 MB of what it was
// before (without the map rebuild in Remove it stays 2.6 MB above).
func TestRemoveGivesMemoryBack(t *testing.T) {
	if testing.Short() {
		t.Skip("signs a 2 MB text")
	}
	keepAlive = hostileText(50000)
	for _, mode := range []Mode{Overlap, Exact} {
		d, err := New(Config{Language: "tr", Mode: mode, MaxTextBytes: 8 << 20})
		require.NoError(t, err)
		_, err = d.Add(detector.Doc{ID: "a", Text: fig41})
		require.NoError(t, err)
		before := testkit.LiveHeap()
		_, err = d.Add(detector.Doc{ID: "big", Text: keepAlive})
		require.NoError(t, err)
		with := testkit.LiveHeap()
		require.NoError(t, d.Remove("big"))
		after := testkit.LiveHeap()
		t.Logf("%v: live heap %d B before, %d with the text, %d after Remove", mode, before, with, after)
		assert.Less(t, int64(after)-int64(before), int64(1<<20), "%v: heap kept after Remove", mode)
		// The index still works.
		ms, err := d.Add(detector.Doc{ID: "b", Text: fig41})
		require.NoError(t, err)
		assert.Equal(t, []detector.Match{{ID: "a", Score: 1}}, ms)
		require.NoError(t, d.Close())
	}
}

// TestSoak streams documents with three tokens no other document has
// through a window of 1,000 live documents and logs the live heap: it must
// stay flat (NEARDUP_LONG=1 runs 100,000 Adds, NEARDUP_LONG=1000000 a
// million).
func TestSoak(t *testing.T) {
	dataset.SkipSoak(t)
	adds := dataset.LongCount(100_000)
	d, err := New(Config{Language: "en"})
	require.NoError(t, err)
	samples, err := testkit.Soak(d, testkit.SoakConfig{Adds: adds, Window: 1000, Every: max(adds/10, 1)})
	require.NoError(t, err)
	for _, s := range samples {
		t.Logf("after %8d Adds: live heap %6.2f MB", s.Adds, float64(s.HeapBytes)/(1<<20))
	}
	g := testkit.Growth(samples)
	t.Logf("growth %.2f MB", float64(g)/(1<<20))
	assert.Less(t, g, uint64(2<<20), "live heap growth over the soak")
}

// TestScratchShrinksAfterOutlier signs a text of 300,000 short blocks,
// then a short text: the scratch grown for the outlier must not stay live.
// The Signer keeps no scratch of its own (the recogniser's state is per
// call); the content filters it pools go with the pool at the next
// collections.
func TestScratchShrinksAfterOutlier(t *testing.T) {
	s, err := NewSigner(Config{Language: "tr", MaxTextBytes: 8 << 20})
	require.NoError(t, err)
	s.Sign(fig41)
	before := testkit.LiveHeap()
	s.Sign(strings.Repeat("Ankara\n\n", 300000))
	s.Sign(fig41)
	after := testkit.LiveHeap()
	t.Logf("live heap %d B before the outlier, %d after", before, after)
	assert.Less(t, int64(after)-int64(before), int64(1<<20), "scratch kept after the outlier")
}
