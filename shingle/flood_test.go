package shingle

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// floodAntecedents are frequent words of the synthetic stream's invented
// language, so SpotSigs finds signatures in it.
const floodAntecedents = "ro,mi,tan,le"

// floodConfigs are every Method and DSC variant, for the synthetic stream.
var floodConfigs = []struct {
	name string
	cfg  Config
}{
	{"ffp", Config{Language: "und"}},
	{"dsc", Config{Language: "und", Method: DSC}},
	{"dsc-min", Config{Language: "und", Method: DSC, Sampling: SampleMin}},
	{"dsc-stride", Config{Language: "und", Method: DSC, Sampling: SampleStride}},
	{"dsc-ss", Config{Language: "und", Method: DSC, SuperShingle: 2}},
	{"spotsigs", Config{Language: "und", Method: SpotSigs, Antecedents: floodAntecedents}},
}

// op is one step of a stream: an Add (text set) or a Remove.
type op = testkit.Op

// floodStream interleaves texts with floods of exact copies of earlier
// texts and removes random live documents, first members of groups
// included.
func floodStream(texts []string, seed uint64, copies int) []op {
	return testkit.FloodStream(texts, seed, 3, 5, copies)
}

// synthTexts returns n texts of the synthetic stream (near-duplicates of
// graded similarity) and a few edge texts: none, punctuation only, and
// too few words for SpotSigs to count.
func synthTexts(n int, seed uint64) []string {
	var out []string
	for _, d := range dataset.SynthDocs(n, dataset.SynthConfig{Seed: seed}) {
		out = append(out, d.Text)
	}
	return append(out, "", "...", "ro ka mi", "tan su le vor ro di mi pe")
}

func capped(ms []detector.Match, n int) []detector.Match {
	if len(ms) > n {
		return ms[:n:n]
	}
	return ms
}

// without returns ms less the match of id.
func without(ms []detector.Match, id string) []detector.Match {
	return slices.DeleteFunc(slices.Clone(ms), func(m detector.Match) bool { return m.ID == id })
}

// features is a text's features as a comparable string: equal for the
// texts the Method reads as exact copies.
func (d *Detector) features(text string) string {
	a := testAlgorithm(d.cfg).Features(text)
	if a.key == 0 {
		return ""
	}
	if d.cfg.Method != SpotSigs {
		return fmt.Sprint(a.size, a.set)
	}
	total := 0
	for _, c := range a.cnt {
		total += int(c)
	}
	if total < d.cfg.MinSignatures {
		return fmt.Sprint(a.key)
	}
	return fmt.Sprint(a.key, a.set, a.cnt)
}

// reference returns a detector for cfg whose every document is a group
// of its own, as the index was before exact copies were grouped, with no
// cap: a straightforward reference for the grouped, capped one.
func reference(t *testing.T, cfg Config) *Detector {
	cfg.MaxResults = 1 << 30
	ref, err := New(cfg)
	require.NoError(t, err)
	switch x := testIndex(ref).(type) {
	case *containIndex:
		x.keys.noGroups = true
	case *spotIndex:
		x.keys.noGroups = true
	}
	return ref
}

// checkAgainstReference runs ops through a Detector for cfg and the
// reference, requiring of every Add that a Query just before it and the
// Add itself give the reference's Add, capped; and, every tenth step, of a
// random live document that Containers, Query (as a new copy) and Copies
// give the reference's answers.
func checkAgainstReference(t *testing.T, cfg Config, ops []op) {
	d, err := New(cfg)
	require.NoError(t, err)
	ref := reference(t, cfg)
	limit := d.cfg.MaxResults
	texts := map[string]string{}
	feats := map[string]string{} // by ID: d.features of its text
	var ids []string
	r := rand.New(rand.NewPCG(9, 9))
	for step, o := range ops {
		if o.Remove {
			require.NoError(t, d.Remove(o.ID))
			require.NoError(t, ref.Remove(o.ID))
			delete(texts, o.ID)
			delete(feats, o.ID)
			ids = slices.DeleteFunc(ids, func(s string) bool { return s == o.ID })
		} else {
			doc := detector.Doc{ID: o.ID, Text: o.Text}
			q, err := d.Query(doc)
			require.NoError(t, err)
			want, err := ref.Add(doc)
			require.NoError(t, err)
			want = capped(want, limit)
			got, err := d.Add(doc)
			require.NoError(t, err)
			require.Equal(t, want, got, "step %d: Add(%s)", step, o.ID)
			require.Equal(t, want, q, "step %d: Query(%s) before its Add", step, o.ID)
			texts[o.ID] = o.Text
			feats[o.ID] = d.features(o.Text)
			ids = append(ids, o.ID)
		}
		if step%10 != 0 || len(ids) == 0 {
			continue
		}
		id := ids[r.IntN(len(ids))]
		want, err := ref.Containers(id)
		require.NoError(t, err)
		got, err := d.Containers(id)
		require.NoError(t, err)
		require.Equal(t, capped(want, limit), got, "step %d: Containers(%s)", step, id)

		// Query of a live document's text under its ID: what an Add of one
		// more copy would answer, less id.
		probe := detector.Doc{ID: "probe", Text: texts[id]}
		want, err = ref.Add(probe)
		require.NoError(t, err)
		require.NoError(t, ref.Remove("probe"))
		got, err = d.Query(detector.Doc{ID: id, Text: texts[id]})
		require.NoError(t, err)
		require.Equal(t, capped(without(want, id), limit), got, "step %d: Query(%s)", step, id)

		cp, err := d.Copies(id)
		require.NoError(t, err)
		wantCp := []string{}
		if f := feats[id]; f != "" {
			for o, g := range feats {
				if o != id && g == f {
					wantCp = append(wantCp, o)
				}
			}
		}
		slices.Sort(wantCp)
		require.Equal(t, wantCp, cp, "step %d: Copies(%s)", step, id)
	}
	assert.Equal(t, ref.Len(), d.Len())
}

// TestFloodMatchesReference checks the grouped index against the
// ungrouped reference on a synthetic stream with floods of exact copies
// and removals, for every Method, uncapped and with a cap smaller than
// the floods: 200 texts by default, 300 with NEARDUP_LONG.
func TestFloodMatchesReference(t *testing.T) {
	n := dataset.LongSize(200, 300)
	if testing.Short() || raceEnabled {
		n = 120
	}
	ops := floodStream(synthTexts(n, 1), 1, 12)
	for _, fc := range floodConfigs {
		for _, limit := range []int{1 << 30, 3} {
			t.Run(fmt.Sprintf("%s/cap%d", fc.name, limit), func(t *testing.T) {
				cfg := fc.cfg
				cfg.MaxResults = limit
				checkAgainstReference(t, cfg, ops)
			})
		}
	}
}

// TestRealDataMatchesReference checks the grouped index against the
// ungrouped reference on the first 150 documents (800 with NEARDUP_LONG)
// of the Gold Set and Reuters-21578, where stories have many
// near-duplicates of graded similarity, uncapped and under the default
// cap.
func TestRealDataMatchesReference(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("runs every Add twice and a Query per Add on real data")
	}
	for _, file := range []string{"goldset-dev.jsonl", "reuters21578.jsonl"} {
		t.Run(file, func(t *testing.T) {
			recs := dataset.ForTest(t, file)
			recs = recs[:min(len(recs), dataset.LongSize(150, 800))]
			ops := floodStream(dataset.Texts(recs), 2, 5)
			for _, method := range []Method{FullFingerprint, DSC, SpotSigs} {
				for _, limit := range []int{1 << 30, 0} {
					checkAgainstReference(t, Config{Language: "en", Method: method, MaxResults: limit}, ops)
				}
			}
		})
	}
}

// TestFloodCostFlat adds 3,000 identical copies of one text (a Reuters
// story when the data is there, else a synthetic one) under every Method
// and checks the index that keeps the work per Add independent of the
// copies: one group, every posting list holding it once, SpotSigs still
// counting every copy in its statistics (document frequencies and N), and
// nothing left once every copy is removed. The answers of the flood
// (capped, smallest IDs first, Copies, the promotion of the next member,
// Len) are the shared suite's (TestEveryNameExactFlood in the root
// package, for ffp, dsc and its samplings, spotsigs).
func TestFloodCostFlat(t *testing.T) {
	const copies = 3000
	text := dataset.SynthDocs(1, dataset.SynthConfig{Seed: 4, MinSentences: 20})[0].Text
	reuters := false
	if recs, err := dataset.Load("reuters21578.jsonl"); err == nil && len(recs) > 0 {
		text, reuters = recs[0].Text, true // a Reuters story, when the data is there
	}
	for _, fc := range floodConfigs {
		t.Run(fc.name, func(t *testing.T) {
			cfg := fc.cfg
			if reuters {
				cfg.Language, cfg.Antecedents = "en", ""
			}
			cfg.MaxResults = 5
			d, err := New(cfg)
			require.NoError(t, err)
			for i := range copies {
				_, err := d.Add(detector.Doc{ID: fmt.Sprintf("c%04d", i), Text: text})
				require.NoError(t, err)
			}
			var slots int
			d.e.Inspect(func(_ engine.Index[features], n int) { slots = n })
			assert.Equal(t, 1, slots, "one group for the copies")
			ix := testIndex(d)
			lists := 0
			var keys *copyKeys
			if x, ok := ix.(*containIndex); ok {
				keys = &x.keys
				for _, docs := range x.post.All() {
					lists++
					assert.Len(t, docs, 1, "posting lists hold the group once")
				}
				for _, docs := range x.sup.All() {
					assert.Len(t, docs, 1, "super-shingle lists hold the group once")
				}
			} else {
				x := ix.(*spotIndex)
				keys = &x.keys
				assert.Equal(t, copies, x.n, "N counts every copy")
				for h, s := range x.ids.All() {
					lists++
					assert.Len(t, x.post.of(s), 1, "posting lists hold the group once (%#x)", h)
					assert.EqualValues(t, copies, x.df[s], "df counts every copy")
				}
			}
			assert.Len(t, keys.keys, 1)
			assert.Positive(t, lists)
			for i := range copies {
				require.NoError(t, d.Remove(fmt.Sprintf("c%04d", i)))
			}
			assert.Empty(t, keys.keys, "no live group")
			if x, ok := ix.(*spotIndex); ok {
				assert.Zero(t, x.ids.Len())
				assert.Zero(t, x.n)
			} else {
				assert.Zero(t, ix.(*containIndex).post.Len(), "the postings are purged")
			}
		})
	}
}
