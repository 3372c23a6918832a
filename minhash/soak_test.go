package minhash

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

// TestSoak streams 100,000 documents (3 tokens of their own each) through
// each mode in a window of 10,000 and requires the live heap to stay flat:
// growth from the first sample to the largest of the later half below
// 8 MB. It runs only with NEARDUP_LONG (NEARDUP_LONG=1000000 streams a
// million); the samples are logged.
func TestSoak(t *testing.T) {
	dataset.SkipSoak(t)
	adds := dataset.LongCount(100_000)
	for _, cfg := range []Config{{}, {Mode: Weighted}, {Mode: Containment}} {
		t.Run(fmt.Sprint(cfg.Mode), func(t *testing.T) {
			d, err := New(cfg)
			require.NoError(t, err)
			samples, err := testkit.Soak(d, testkit.SoakConfig{Adds: adds, Window: 10_000, Every: max(adds/10, 1)})
			require.NoError(t, err)
			var b strings.Builder
			for _, s := range samples {
				fmt.Fprintf(&b, " %dk:%.1fMB", s.Adds/1000, float64(s.HeapBytes)/1e6)
			}
			t.Logf("Mode %d live heap:%s", cfg.Mode, b.String())
			assert.Less(t, testkit.Growth(samples), uint64(8<<20), "heap grows")
		})
	}
}

// TestOutlierMemory adds a document of 300,000 distinct words and removes
// it: the live heap must come back to within 4 MB of what it was, in
// every mode (signing scratch, statistics, index).
func TestOutlierMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("heap figures under -race are not the program's")
	}
	var big strings.Builder
	for i := range 300_000 {
		fmt.Fprintf(&big, "w%d ", i)
	}
	for _, cfg := range []Config{{}, {Mode: Weighted}, {Mode: Containment}} {
		t.Run(fmt.Sprint(cfg.Mode), func(t *testing.T) {
			d, err := New(cfg)
			require.NoError(t, err)
			_, err = d.Add(detector.Doc{ID: "a", Text: "a small first document of a few words"})
			require.NoError(t, err)
			before := testkit.LiveHeap()
			_, err = d.Add(detector.Doc{ID: "big", Text: big.String()})
			require.NoError(t, err)
			during := testkit.LiveHeap()
			require.NoError(t, d.Remove("big"))
			// One ordinary Add after it: scratch an outlier grew is dropped
			// after use.
			_, err = d.Add(detector.Doc{ID: "b", Text: "another small document of a few words"})
			require.NoError(t, err)
			after := testkit.LiveHeap()
			t.Logf("live heap: before %.1f MB, with the outlier %.1f MB, after Remove %.1f MB",
				float64(before)/1e6, float64(during)/1e6, float64(after)/1e6)
			assert.Less(t, int64(after)-int64(before), int64(4<<20))
			require.NoError(t, d.Close())
		})
	}
}
