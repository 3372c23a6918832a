package codet_test

import (
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// TestSameNewIDAtOnce has 4 goroutines add the same new ID at once, each
// with another text: exactly one must succeed, the others must get
// ErrDuplicateID, and the winner must be fully indexed: an exact copy of
// its text added afterwards finds it, and none of the losers' texts is in
// the index.
func TestSameNewIDAtOnce(t *testing.T) {
	trials := 200
	if raceEnabled {
		trials = 40
	}
	texts := dataset.SynthDocs(5, dataset.SynthConfig{Seed: 21, VariantRate: 1e-9})
	for _, cfg := range []codet.Config{{Language: "en"}, {Language: "en", IDF: codet.IDFOnline}} {
		for trial := range trials {
			d := mustNew(t, cfg)
			_, err := d.Add(texts[4])
			require.NoError(t, err)
			errs := make([]error, 4)
			var start, wg sync.WaitGroup
			start.Add(1)
			for g := range 4 {
				wg.Go(func() {
					start.Wait()
					_, errs[g] = d.Add(detector.Doc{ID: "x", Text: texts[g].Text})
				})
			}
			start.Done()
			wg.Wait()
			winner := -1
			for g, err := range errs {
				if err == nil {
					require.Equal(t, -1, winner, "trial %d: two Adds of one ID succeeded", trial)
					winner = g
					continue
				}
				require.ErrorIs(t, err, detector.ErrDuplicateID, "trial %d", trial)
			}
			require.NotEqual(t, -1, winner, "trial %d: no Add succeeded", trial)
			for g := range 4 {
				ms, err := d.Add(detector.Doc{ID: "copy" + strconv.Itoa(g), Text: texts[g].Text})
				require.NoError(t, err)
				if g == winner {
					require.Contains(t, ids(ms), "x", "trial %d: the winner is not found by its exact copy", trial)
				} else {
					require.NotContains(t, ids(ms), "x", "trial %d: a loser's text is indexed", trial)
				}
			}
			assert.Equal(t, 6, d.Stats().Docs)
			require.NoError(t, d.Close())
		}
	}
}
