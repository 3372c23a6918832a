package codet_test

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/synth"
)

// nearCopy returns text with k of its words replaced by words no other
// text has: a near-copy, "a few words changed".
func nearCopy(r *rand.Rand, text string, k, i int) string {
	w := strings.Fields(text)
	for j := range k {
		w[r.IntN(len(w))] = "zv" + strconv.Itoa(i) + "x" + strconv.Itoa(j)
	}
	return strings.Join(w, " ")
}

// TestNearCopyFlood adds 2,000 stories, then 5,000 near-copies of one of
// them (three words changed each), and requires every block of 500 copies
// to find an earlier member of the family (the story or a copy) for at
// least 90% of its copies, at a cost per Add (visitor entries scored) that
// does not grow with the number of copies. A node whose visitor list
// passed NodeLimit used to be deactivated for good, so that after a few
// hundred copies every node of the story was silent and no copy was
// found any more.
func TestNearCopyFlood(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("near-copy flood: 2 × 7,000 Adds on one goroutine (skipped with -short and -race)")
	}
	for _, c := range []struct {
		name string
		cfg  codet.Config
	}{
		{"default", codet.Config{Language: "en"}},
		{"CollapseNear", codet.Config{Language: "en", Collapse: codet.CollapseNear}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := mustNew(t, c.cfg)
			stories := synth.Docs(2000, synth.Config{Seed: 5, VariantRate: 1e-9})
			for _, s := range stories {
				_, err := d.Add(s)
				require.NoError(t, err)
			}
			orig := stories[7]
			family := map[string]bool{orig.ID: true}
			r := rand.New(rand.NewPCG(3, 4))
			const copies, block = 5000, 500
			found := 0
			var worst int
			st0, t0 := d.Stats(), time.Now()
			for i := range copies {
				id := "copy" + strconv.Itoa(i)
				ms, err := d.Add(detector.Doc{ID: id, Text: nearCopy(r, orig.Text, 3, i)})
				require.NoError(t, err)
				for _, m := range ms {
					if family[m.ID] {
						found++
						break
					}
				}
				family[id] = true
				if (i+1)%block == 0 {
					st := d.Stats()
					inc := float64(st.Increments-st0.Increments) / block
					cand := float64(st.Candidates-st0.Candidates) / block
					t.Logf("%s: copies %4d: recall %.3f, per Add %.0f increments, %.0f candidates, %v",
						c.name, i+1, float64(found)/block, inc, cand, time.Since(t0)/block)
					assert.GreaterOrEqual(t, found, block*90/100, "copies %d-%d: near-copies no longer found", i+1-block, i+1)
					worst = max(worst, int(inc))
					found, st0, t0 = 0, st, time.Now()
				}
			}
			// Bounded cost: a copy visits at most ~200 nodes, each scoring
			// at most NodeLimit visitors.
			assert.Less(t, worst, 200*codet.DefaultNodeLimit)
		})
	}
}
