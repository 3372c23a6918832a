package mrcosine

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// refDoc is what the reference keeps of one document: its own copies of
// the compared vector and of what is derived from it.
type refDoc struct {
	vec    []float32 // nil: matches nothing
	rnorm  float32
	sketch []uint64
	keys   []uint64
}

// refIndex is the detector as it was before exact copies were grouped:
// one entry per document, every live document visited one by one, by the
// rules of the index (a document is a candidate if it shares a band key
// with the query, or every document is when the bands' lists hold at
// least 1/scanFactor as many entries as there are distinct live vectors; the sketch
// test; the exact cosine). The grouped index must give the same answers,
// truncated to the cap.
type refIndex struct {
	d    *Detector
	live map[string]refDoc
}

func (r *refIndex) sign(text string) refDoc {
	s := r.d.sign(text)
	defer r.d.scratch.Put(s)
	if s.vec == nil {
		return refDoc{}
	}
	return refDoc{vec: slices.Clone(s.vec), rnorm: s.rnorm, sketch: slices.Clone(s.pool[:min(len(s.pool), sketchWords)]), keys: slices.Clone(s.keys)}
}

func vecKey(v []float32) string {
	b := make([]byte, 0, 4*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return string(b)
}

func (r *refIndex) matches(q refDoc, self string) []detector.Match {
	out := []detector.Match{}
	if q.vec == nil {
		return out
	}
	cfg := r.d.cfg
	all := cfg.Exhaustive
	if !all {
		distinct := map[string]bool{}
		perBand := make([]map[string]bool, len(q.keys))
		for b := range perBand {
			perBand[b] = map[string]bool{}
		}
		for _, o := range r.live {
			if o.vec == nil {
				continue
			}
			k := vecKey(o.vec)
			distinct[k] = true
			for b, key := range o.keys {
				if key == q.keys[b] {
					perBand[b][k] = true
				}
			}
		}
		total := 0
		for _, m := range perBand {
			total += len(m)
		}
		all = scanFactor*total >= len(distinct)
	}
	for id, o := range r.live {
		if id == self || o.vec == nil {
			continue
		}
		if !cfg.Exhaustive {
			if !all {
				shared := false
				for b := range o.keys {
					shared = shared || o.keys[b] == q.keys[b]
				}
				if !shared {
					continue
				}
			}
			h := hiCos()[hamming(q.sketch, o.sketch)]
			// Per pair, or against T2 when the detector's bound is one bit count.
			if perPair := r.d.sketchMax < 0; perPair && (1-h)*float64(q.rnorm)*float64(o.rnorm) > 1-cfg.T2 || !perPair && cfg.T2 > h {
				continue
			}
		}
		if s := cosine(q.vec, o.vec); s >= cfg.T2 {
			out = append(out, detector.Match{ID: id, Score: s})
		}
	}
	detector.SortMatches(out)
	return out
}

func capped(ms []detector.Match, n int) []detector.Match {
	if len(ms) > n {
		return ms[:n]
	}
	return ms
}

// op is one step of a stream: an Add or a Remove.
type op = testkit.Op

// floodStream interleaves the texts with floods of exact copies (the same
// text, or the text in capitals, which the default Normalized text reads
// identically) and removes random live documents, representatives of
// groups included. It is not [testkit.FloodStream]: its IDs take
// a random prefix, so that they do not arrive in order, and a third of
// the copies are in capitals.
func floodStream(texts []string, seed uint64, copies int) []op {
	rng := rand.New(rand.NewPCG(seed, 1))
	var ops []op
	var live []string
	n := 0
	add := func(text string) {
		id := "d" + strconv.Itoa(rng.IntN(1000)) + "-" + strconv.Itoa(n) // IDs not in arrival order
		n++
		ops = append(ops, op{ID: id, Text: text})
		live = append(live, id)
	}
	for i, text := range texts {
		add(text)
		if i%7 == 0 {
			for range rng.IntN(copies) + 1 {
				switch rng.IntN(3) {
				case 0:
					add(strings.ToUpper(text))
				default:
					add(texts[rng.IntN(i+1)])
				}
			}
		}
		if len(live) > 0 && rng.IntN(3) == 0 {
			k := rng.IntN(len(live))
			ops = append(ops, op{ID: live[k], Remove: true})
			live = slices.Delete(live, k, k+1)
		}
	}
	return ops
}

// checkAgainstReference runs ops through a Detector and the reference,
// comparing every Add, and the Containers, Query and Copies of a random
// live document after every tenth step.
func checkAgainstReference(t *testing.T, d *Detector, ops []op) {
	ref := &refIndex{d: d, live: map[string]refDoc{}}
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
			s := ref.sign(o.Text)
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
			me := ref.live[id]
			want := capped(ref.matches(me, id), limit)
			got, err := d.Containers(id)
			require.NoError(t, err)
			require.Equal(t, want, got, "step %d: Containers(%s)", step, id)
			got, err = d.Query(detector.Doc{ID: id, Text: texts[id]})
			require.NoError(t, err)
			require.Equal(t, want, got, "step %d: Query(%s)", step, id)
			cp, err := d.Copies(id)
			require.NoError(t, err)
			wantCp := []string{}
			for o, s := range ref.live {
				if o != id && me.vec != nil && s.vec != nil && vecKey(s.vec) == vecKey(me.vec) {
					wantCp = append(wantCp, o)
				}
			}
			slices.Sort(wantCp)
			assert.Equal(t, wantCp, cp, "step %d: Copies(%s)", step, id)
		}
	}
	assert.Equal(t, len(ref.live), d.Len())
}

// modes are the Configs the differential tests run: the index, all-pairs
// comparison, and the index over centered signatures.
var modes = []struct {
	name string
	cfg  Config
}{
	{"Index", Config{}},
	{"Exhaustive", Config{Exhaustive: true}},
	{"Centered", Config{Centered: true}},
}

// TestFloodMatchesReference checks the grouped index against the detector
// as it was (refIndex) on synthetic near-duplicates with floods of copies
// and removals, uncapped and with a cap smaller than the floods, in every
// mode.
func TestFloodMatchesReference(t *testing.T) {
	texts := synthTexts(150, 4)
	texts = append(texts, "", "...", "ok")
	ops := floodStream(texts, 1, 30)
	for _, m := range modes {
		for _, limit := range []int{1 << 30, 3} {
			t.Run(fmt.Sprintf("%s/cap%d", m.name, limit), func(t *testing.T) {
				cfg := m.cfg
				cfg.MaxResults = limit
				d, err := New(cfg)
				require.NoError(t, err)
				checkAgainstReference(t, d, ops)
			})
		}
	}
}

// TestRealDataMatchesReference checks the grouped index against the
// detector as it was on the first 200 Gold Set pages and Reuters-21578
// stories (400 with NEARDUP_LONG), where documents have many
// near-duplicates of graded similarity, uncapped and under the default
// cap.
func TestRealDataMatchesReference(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("compares every Add with a linear scan (skipped with -short and -race)")
	}
	for _, file := range []string{"goldset-dev.jsonl", "reuters21578.jsonl"} {
		t.Run(file, func(t *testing.T) {
			recs := dataset.ForTest(t, file)
			recs = recs[:min(len(recs), dataset.LongSize(200, 400))]
			ops := floodStream(dataset.Texts(recs), 2, 5)
			for _, m := range modes {
				for _, limit := range []int{1 << 30, 0} {
					cfg := m.cfg
					cfg.MaxResults = limit
					d, err := New(cfg)
					require.NoError(t, err)
					checkAgainstReference(t, d, ops)
				}
			}
		})
	}
}

// TestFloodCostFlat adds 2,000 identical copies, in descending order of
// ID, and checks the index that keeps the work per Add independent of the
// copies: one group, one slot of the per-group arrays and of the engine's
// group table, each bucket holding the group once, nothing left once
// every copy is removed. The answers of the flood (capped, smallest IDs
// first, Copies, the promotion of the next member, Len) are the shared
// suite's (TestEveryNameExactFlood in the root package, for mrcosine,
// mrcosine-centered and Exhaustive).
func TestFloodCostFlat(t *testing.T) {
	text := dataset.SynthDocs(1, dataset.SynthConfig{Seed: 2})[0].Text
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			cfg := m.cfg
			cfg.MaxResults = 5
			d, err := New(cfg)
			require.NoError(t, err)
			for i := range 2000 {
				_, err := d.Add(detector.Doc{ID: fmt.Sprintf("c%04d", 1999-i), Text: text})
				require.NoError(t, err)
			}
			ix, slots := d.testIndex()
			assert.Equal(t, 1, ix.groups, "one group for the copies")
			assert.Len(t, ix.live, 1, "one slot of the per-group arrays")
			assert.Equal(t, 1, slots, "one slot of the engine's group table")
			if !cfg.Exhaustive {
				assert.Equal(t, d.Config().Bands, ix.buckets.keys(), "one key per band")
				ix.buckets.eachList(func(_ uint32, _ uint64, l []uint32) {
					assert.Equal(t, []uint32{0}, l, "bucket lists hold the group once")
				})
			}
			for i := range 2000 {
				require.NoError(t, d.Remove(fmt.Sprintf("c%04d", i)))
			}
			assert.Zero(t, d.ix().groups)
			assert.NotContains(t, d.ix().live, true, "no live group")
			assert.Zero(t, d.ix().buckets.keys())
		})
	}
}

// TestCopiesAreExact checks what counts as an exact copy: texts the
// detector reads identically (the same text, the same text in capitals)
// share a group; another text does not; a text with the zero signature
// has no copies.
func TestCopiesAreExact(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	docs := dataset.SynthDocs(2, dataset.SynthConfig{Seed: 3})
	text := docs[0].Text
	for id, tx := range map[string]string{
		"a": text, "b": text, "c": strings.ToUpper(text), "e": docs[1].Text,
		"z1": "", "z2": "",
	} {
		_, err := d.Add(detector.Doc{ID: id, Text: tx})
		require.NoError(t, err)
	}
	for id, want := range map[string][]string{
		"a": {"b", "c"}, "c": {"a", "b"}, "e": {}, "z1": {},
	} {
		got, err := d.Copies(id)
		require.NoError(t, err)
		assert.Equal(t, want, got, "Copies(%s)", id)
	}
	assert.Equal(t, 2, d.ix().groups)
}
