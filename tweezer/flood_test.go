package tweezer

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/evidence"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// refIndex is the detector as it was before exact copies were grouped: it
// compares a signature with every live document, one by one, by the rules
// of Similarity and the evidence rule. The grouped index must give the same
// answers, truncated to the cap.
type refIndex struct {
	cfg  Config
	live map[string]docSig
}

func (r *refIndex) matches(s docSig, self string) []detector.Match {
	var out []detector.Match
	if s.empty {
		return nil
	}
	for id, o := range r.live {
		if id == self || o.empty {
			continue
		}
		if (s.caseless || o.caseless) && s.key == o.key {
			out = append(out, detector.Match{ID: id, Score: 1})
			continue
		}
		if r.cfg.Mode == Exact {
			if s.digest == o.digest {
				out = append(out, detector.Match{ID: id, Score: 1})
			}
			continue
		}
		inter := 0
		for _, h := range s.hashes {
			if _, ok := slices.BinarySearch(o.hashes, h); ok {
				inter++
			}
		}
		if inter == 0 {
			continue
		}
		la, lb := len(s.hashes), len(o.hashes)
		j := score(r.cfg.Mode, inter, la, lb)
		if j >= r.cfg.Threshold && (j == 1 || evidence.Enough(float64(inter), float64(min(la, lb)), float64(r.cfg.MinOverlap))) {
			out = append(out, detector.Match{ID: id, Score: j})
		}
	}
	detector.SortMatches(out)
	return out
}

func capped(ms []detector.Match, n int) []detector.Match {
	if ms == nil {
		return []detector.Match{}
	}
	if len(ms) > n {
		return ms[:n]
	}
	return ms
}

// op is one step of a stream: an Add (text set) or a Remove.
type op = testkit.Op

// floodStream interleaves the texts with floods of exact copies and of
// copies in lower case and capitals, and removes random live documents,
// representatives of groups included.
func floodStream(texts []string, seed uint64, copies int) []op {
	return testkit.FloodStream(texts, seed, 1, 7, copies, strings.ToLower, strings.ToUpper)
}

// checkAgainstReference runs ops through a Detector and the reference,
// comparing every Add, and the Containers and Query of a random live
// document after every tenth step.
func checkAgainstReference(t *testing.T, cfg Config, ops []op) {
	d, err := New(cfg)
	require.NoError(t, err)
	ref := &refIndex{cfg: d.Config(), live: map[string]docSig{}}
	limit := d.Config().MaxResults
	texts := map[string]string{}
	var ids []string
	rng := rand.New(rand.NewPCG(9, 9))
	for step, o := range ops {
		if o.Remove {
			require.NoError(t, d.Remove(o.ID))
			delete(ref.live, o.ID)
			delete(texts, o.ID)
			ids = slices.DeleteFunc(ids, func(s string) bool { return s == o.ID })
		} else {
			s := sign(d.signer, o.Text)
			want := capped(ref.matches(s, ""), limit)
			got, err := d.Add(detector.Doc{ID: o.ID, Text: o.Text})
			require.NoError(t, err)
			require.Equal(t, want, got, "step %d: Add(%s)", step, o.ID)
			ref.live[o.ID] = s
			texts[o.ID] = o.Text
			ids = append(ids, o.ID)
		}
		if step%10 == 0 && len(ids) > 0 {
			id := ids[rng.IntN(len(ids))]
			got, err := d.Containers(id)
			require.NoError(t, err)
			require.Equal(t, capped(ref.matches(ref.live[id], id), limit), got, "step %d: Containers(%s)", step, id)
			got, err = d.Query(detector.Doc{ID: id, Text: texts[id]})
			require.NoError(t, err)
			require.Equal(t, capped(ref.matches(ref.live[id], id), limit), got, "step %d: Query(%s)", step, id)
			cp, err := d.Copies(id)
			require.NoError(t, err)
			var want []string
			for o, s := range ref.live {
				me := ref.live[id]
				if o != id && !me.empty && s.digest == me.digest && s.key == me.key && s.caseless == me.caseless {
					want = append(want, o)
				}
			}
			slices.Sort(want)
			if want == nil {
				want = []string{}
			}
			assert.Equal(t, want, cp, "step %d: Copies(%s)", step, id)
		}
	}
	assert.Equal(t, len(ref.live), d.Len())
}

// TestFloodMatchesReference checks the grouped index against the detector
// as it was (refIndex) on synthetic floods of exact and case copies with
// removals, uncapped and with a cap smaller than the floods, in every mode.
func TestFloodMatchesReference(t *testing.T) {
	texts := stressTexts(120)
	// Texts without entities are signed by their fallback words.
	for i := range 20 {
		texts = append(texts, fmt.Sprintf("bu metinde hiç özel isim yok %d ama kelime var.", i%5))
	}
	texts = append(texts, "", "...")
	ops := floodStream(texts, 1, 40)
	for _, mode := range []Mode{Overlap, Exact, Jaccard} {
		for _, limit := range []int{1 << 30, 3} {
			t.Run(fmt.Sprintf("%v/cap%d", mode, limit), func(t *testing.T) {
				checkAgainstReference(t, Config{Language: "tr", Mode: mode, MaxResults: limit}, ops)
			})
		}
	}
}

// TestRealDataMatchesReference checks the grouped index against the
// detector as it was on the Gold Set and Reuters-21578, where documents
// have hundreds of near-duplicates of graded similarity, uncapped and
// under the default cap.
func TestRealDataMatchesReference(t *testing.T) {
	if testing.Short() {
		t.Skip("compares every Add with a linear scan")
	}
	for _, file := range []string{"goldset-dev.jsonl", "reuters21578.jsonl"} {
		t.Run(file, func(t *testing.T) {
			recs := dataset.ForTest(t, file)
			recs = recs[:min(len(recs), dataset.LongSize(250, 1500))]
			ops := floodStream(dataset.Texts(recs), 2, 5)
			for _, limit := range []int{1 << 30, 0} {
				checkAgainstReference(t, Config{Language: "en", MaxResults: limit}, ops)
			}
		})
	}
}

// TestFloodCostFlat adds 2,000 identical copies and checks the index that
// keeps the work per Add independent of the copies: one group, each
// posting list holding it once, nothing left once every copy is removed.
// The answers of the flood (capped, smallest IDs first, Copies, the
// promotion of the next member, Len) are the shared suite's
// (TestEveryNameExactFlood in the root package).
func TestFloodCostFlat(t *testing.T) {
	d, err := New(Config{Language: "tr", MaxResults: 5})
	require.NoError(t, err)
	text := stressTexts(1)[0]
	for i := range 2000 {
		_, err := d.Add(detector.Doc{ID: fmt.Sprintf("c%04d", i), Text: text})
		require.NoError(t, err)
	}
	d.e.Inspect(func(e engine.Index[docSig], groups int) {
		ix := e.(*index)
		assert.Equal(t, 1, groups, "one group for the copies")
		assert.Len(t, ix.digest, 1)
		for _, l := range ix.post {
			assert.Len(t, l, 1, "posting lists hold the group once")
		}
	})
	for i := range 2000 {
		require.NoError(t, d.Remove(fmt.Sprintf("c%04d", i)))
	}
	d.e.Inspect(func(e engine.Index[docSig], _ int) {
		assert.Empty(t, e.(*index).digest)
		assert.Empty(t, e.(*index).post)
	})
}
