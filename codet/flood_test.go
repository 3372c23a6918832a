package codet_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
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

// TestNearCopyFlood adds 2,000 stories, then 1,500 near-copies (5,000
// with NEARDUP_LONG) of one of them (three words changed each), and
// requires every block of 500 copies to find an earlier member of the
// family (the story or a copy) for at least 90% of its copies, at a cost per Add (visitor entries scored) that
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
			stories := dataset.SynthDocs(2000, dataset.SynthConfig{Seed: 5, VariantRate: 1e-9})
			for _, s := range stories {
				_, err := d.Add(s)
				require.NoError(t, err)
			}
			orig := stories[7]
			family := map[string]bool{orig.ID: true}
			r := rand.New(rand.NewPCG(3, 4))
			const block = 500
			copies := dataset.LongSize(1500, 5000) // before the fix, no copy was found after a few hundred
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

// TestFloodCostFlat adds a flood of exact copies of one article (and of a
// near-duplicate of it with CollapseNear) among other articles, and
// requires the index to keep one content for them: no node, visitor
// entry, relation, increment or scored candidate per further copy, and
// every Add to return the Config.MaxResults smallest IDs of the earlier
// copies. Removing copies keeps the content for the rest.
func TestFloodCostFlat(t *testing.T) {
	stories := dataset.SynthDocs(200, dataset.SynthConfig{Seed: 21, VariantRate: 1e-9})
	const n, limit = 3000, 7
	for _, c := range []struct {
		name string
		cfg  codet.Config
	}{
		{"CollapseExact", codet.Config{Language: "en", MaxResults: limit}},
		{"CollapseExactOnline", codet.Config{Language: "en", MaxResults: limit, IDF: codet.IDFOnline}},
		{"CollapseNear", codet.Config{Language: "en", MaxResults: limit, Collapse: codet.CollapseNear}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := mustNew(t, c.cfg)
			for _, s := range stories {
				add(t, d, s.ID, s.Text)
			}
			text := stories[3].Text
			if c.cfg.Collapse == codet.CollapseNear {
				// Copies of a near-duplicate of story 3: one near content.
				text = strings.Replace(text, ".", ". Officials declined to comment.", 1)
			}
			add(t, d, "f0000", text)
			first := d.Stats()
			for i := 1; i < n; i++ {
				id := fmt.Sprintf("f%04d", i)
				ms := add(t, d, id, text)
				// The earlier copies (Score 1, smallest IDs first), then
				// story 3 (an exact copy too, or with CollapseNear the
				// representative, with a lower score).
				require.Len(t, ms, min(limit, i+1), "Add(%s)", id)
				want := []string{}
				for k := 0; len(want) < limit && k < i; k++ {
					want = append(want, fmt.Sprintf("f%04d", k))
				}
				require.Equal(t, want, ids(ms)[:len(want)], "Add(%s)", id)
			}
			st := d.Stats()
			assert.Equal(t, first.Groups, st.Groups, "one content for the flood")
			assert.Equal(t, first.Near, st.Near)
			assert.Equal(t, first.Nodes, st.Nodes, "no node per copy")
			assert.Equal(t, first.Visitors, st.Visitors, "the visitor lists hold the content once")
			assert.Equal(t, first.Edges, st.Edges, "no relation per copy")
			assert.Equal(t, first.Increments, st.Increments, "no comparison per copy")
			assert.Equal(t, first.Candidates, st.Candidates)
			assert.Equal(t, first.Added+n-1, st.Added)
			cp, err := d.Copies("f0001")
			require.NoError(t, err)
			if c.cfg.Collapse == codet.CollapseNear {
				assert.Len(t, cp, n-1)
			} else {
				assert.Len(t, cp, n) // and story 3
			}
			assert.Equal(t, "f0000", cp[0])
			for i := 0; i < n; i += 2 {
				require.NoError(t, d.Remove(fmt.Sprintf("f%04d", i)))
			}
			assert.Equal(t, first.Groups, d.Stats().Groups)
			ms := containers(t, d, "f0001")
			assert.Equal(t, []string{"f0003", "f0005", "f0007"}, ids(ms)[:3])
		})
	}
}

// TestCollapseMatchesReference compares CollapseExact with CollapseOff,
// which inserts every copy into the tree and scores it like any other
// document, over a stream with exact copies and removals, with frozen
// weights and no node limit (so that the copies of CollapseOff do not
// deactivate nodes that CollapseExact keeps active): every Add and, at the
// end, every Containers must report the same documents with the same
// scores (to 1e-9: the sums run in another order). Synthetic data, and
// Reuters articles when the data is present.
func TestCollapseMatchesReference(t *testing.T) {
	check := func(t *testing.T, texts []string) {
		cfg := codet.Config{Language: "en", NodeLimit: -1, MaxResults: 1 << 20}
		off := cfg
		off.Collapse = codet.CollapseOff
		a, b := mustNew(t, cfg), mustNew(t, off)
		var live []string
		same := func(what string, x, y []detector.Match) {
			t.Helper()
			require.Equal(t, ids(sorted(x)), ids(sorted(y)), what)
			sx, sy := sorted(x), sorted(y)
			for i := range sx {
				require.InDelta(t, sy[i].Score, sx[i].Score, 1e-9, "%s: %s", what, sx[i].ID)
			}
		}
		for i, text := range texts {
			id := fmt.Sprintf("d%05d", i)
			same("Add("+id+")", add(t, a, id, text), add(t, b, id, text))
			live = append(live, id)
			if i%3 == 2 { // a copy of an earlier text
				cid := fmt.Sprintf("c%05d", i)
				ct := texts[i*7%(i+1)]
				same("Add("+cid+")", add(t, a, cid, ct), add(t, b, cid, ct))
				live = append(live, cid)
			}
			if i%5 == 4 {
				k := i * 13 % len(live)
				require.NoError(t, a.Remove(live[k]))
				require.NoError(t, b.Remove(live[k]))
				live = append(live[:k], live[k+1:]...)
			}
		}
		for _, id := range live {
			same("Containers("+id+")", containers(t, a, id), containers(t, b, id))
		}
		assert.Less(t, a.Stats().Groups, b.Stats().Groups)
	}
	t.Run("Synthetic", func(t *testing.T) {
		var texts []string
		for _, d := range dataset.SynthDocs(300, dataset.SynthConfig{Seed: 8, VariantRate: 0.5, Vocabulary: 4000}) {
			texts = append(texts, d.Text)
		}
		check(t, texts)
	})
	t.Run("Reuters", func(t *testing.T) {
		if testing.Short() || raceEnabled {
			t.Skip("real data (skipped with -short and -race)")
		}
		check(t, dataset.Texts(dataset.Reuters(t, 1500)))
	})
}

// sorted returns ms ordered by ID (scores may differ in their last bits
// between the two detectors, which would reorder near ties).
func sorted(ms []detector.Match) []detector.Match {
	out := slices.Clone(ms)
	slices.SortFunc(out, func(a, b detector.Match) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// TestFloodRandomIDs adds and removes copies with IDs in random order, so
// that the member heaps move entries: every Add returns the
// Config.MaxResults smallest IDs of the live earlier copies, and Copies
// all of them in order.
func TestFloodRandomIDs(t *testing.T) {
	text := "The storm cut power to forty thousand homes on the northern coast. Ferries to the islands were cancelled."
	near := text + " Schools stayed closed."
	for _, c := range []codet.Collapse{codet.CollapseExact, codet.CollapseNear} {
		d := mustNew(t, codet.Config{Language: "en", MaxResults: 5, Collapse: c})
		r := rand.New(rand.NewPCG(7, uint64(c)))
		live := map[string]bool{}
		order := r.Perm(600)
		for i, k := range order {
			id := fmt.Sprintf("x%04d", k)
			want := append([]string{}, slices.Sorted(maps.Keys(live))...)
			ms := add(t, d, id, text)
			// The flood's copies (near documents may rank among them).
			got := slices.DeleteFunc(ids(ms), func(s string) bool { return s[0] != 'x' })
			if c == codet.CollapseNear {
				add(t, d, "n"+id, near) // a near content of the flood
			} else {
				require.Len(t, got, min(5, len(want)))
			}
			require.Equal(t, want[:len(got)], got, "Add(%s)", id)
			live[id] = true
			if i%3 == 2 {
				gone := want[r.IntN(len(want))]
				require.NoError(t, d.Remove(gone))
				delete(live, gone)
			}
		}
		for id := range live {
			cp, err := d.Copies(id)
			require.NoError(t, err)
			want := slices.DeleteFunc(append([]string{}, slices.Sorted(maps.Keys(live))...), func(s string) bool { return s == id })
			require.Equal(t, want, cp)
			break
		}
	}
}
