package simhash

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// key is what the Detector keeps of a document's signature.
type key struct {
	fp     uint64
	has    bool
	dig    hashtab.Digest
	hasDig bool
}

// keyOf reads the key of the live document id from d.
func keyOf(t *testing.T, d *Detector, id string) key {
	var k key
	require.NoError(t, d.e.Group("test", id, func(f *sig) {
		if f != nil {
			k = key{fp: f.fp, has: f.has, dig: f.dig, hasDig: f.hasDig}
		}
	}))
	return k
}

// inspect calls fn with the Detector's index, its own table (nil without
// one) and the length of the engine's group table, under the read lock.
func inspect(d *Detector, fn func(ix *index, own *ownIndex, slots int)) {
	d.e.Inspect(func(x engine.Index[sig], slots int) {
		o, _ := x.(*ownIndex)
		fn(baseIndex(x), o, slots)
	})
}

// online reports whether d's fingerprints can change (every group is
// matched by digest).
func online(d *Detector) bool {
	var on bool
	inspect(d, func(ix *index, _ *ownIndex, _ int) { on = ix.online })
	return on
}

// refIndex is the Detector as it was before exact copies were grouped and
// results capped: it compares a key with every live document, one by one
// (equal digests Score 1, else fingerprints within K). The grouped index
// must give the same answers, truncated to the cap.
type refIndex struct {
	k    int
	live map[string]key
}

func (r *refIndex) matches(s key, self string) []detector.Match {
	out := []detector.Match{}
	for id, o := range r.live {
		if id == self {
			continue
		}
		switch {
		case s.hasDig && o.hasDig && s.dig == o.dig:
			out = append(out, detector.Match{ID: id, Score: 1})
		case s.has && o.has:
			if dist := bits.OnesCount64(s.fp ^ o.fp); dist <= r.k {
				out = append(out, detector.Match{ID: id, Score: 1 - float64(dist)/64})
			}
		}
	}
	detector.SortMatches(out)
	return out
}

// copies lists the live documents with the digest of id.
func (r *refIndex) copies(id string) []string {
	me := r.live[id]
	out := []string{}
	for o, s := range r.live {
		if o != id && me.hasDig && s.hasDig && s.dig == me.dig {
			out = append(out, o)
		}
	}
	slices.Sort(out)
	return out
}

func capped(ms []detector.Match, n int) []detector.Match {
	if len(ms) > n {
		return ms[:n]
	}
	return ms
}

// op is one step of a stream: an Add (text set) or a Remove.
type op = testkit.Op

// floodStream interleaves the texts with floods of exact copies (and of
// copies in capitals, which case folding makes exact), and removes random
// live documents, representatives of groups included.
func floodStream(texts []string, seed uint64, copies int) []op {
	return testkit.FloodStream(texts, seed, 1, 7, copies, strings.ToUpper)
}

// build is a Detector constructor under test.
type build struct {
	name string
	new  func(t testing.TB, cfg Config) *Detector
}

// builds are the three ways a Detector weighs: its own online table, a
// frozen caller table, and no table (lite signing).
func builds(texts []string) []build {
	return []build{
		{"Own", func(t testing.TB, cfg Config) *Detector {
			d, err := New(cfg)
			require.NoError(t, err)
			return d
		}},
		{"Frozen", func(t testing.TB, cfg Config) *Detector {
			return withTable(t, cfg, texts, true)
		}},
		{"NoTable", func(t testing.TB, cfg Config) *Detector {
			cfg.Weights, cfg.SkipTop = WeightTF, -1
			d, err := New(cfg)
			require.NoError(t, err)
			return d
		}},
	}
}

// withTable returns a Detector over a table of texts, frozen or not.
func withTable(t testing.TB, cfg Config, texts []string, frozen bool) *Detector {
	rc, tc, err := cfg.resolve()
	require.NoError(t, err)
	an, err := textproc.NewAnalyzer(tc)
	require.NoError(t, err)
	idf := textproc.BuildIDF(an, texts[:min(len(texts), 200)], true)
	if !frozen {
		idf = textproc.NewIDF(true)
		var terms []string
		for _, text := range texts[:min(len(texts), 200)] {
			terms = terms[:0]
			for _, tok := range an.Tokens(text) {
				terms = append(terms, tok.Term)
			}
			require.NoError(t, idf.AddDocument(terms))
		}
	}
	d, err := NewWithIDF(rc, idf)
	require.NoError(t, err)
	return d
}

// checkAgainstReference runs ops through a Detector and the reference,
// comparing every Add, and the Containers, Query and Copies of a random
// live document after every tenth step.
func checkAgainstReference(t *testing.T, d *Detector, ops []op) {
	ref := &refIndex{k: d.cfg.k(), live: map[string]key{}}
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
			got, err := d.Add(detector.Doc{ID: o.ID, Text: o.Text})
			require.NoError(t, err)
			s := keyOf(t, d, o.ID)
			require.Equal(t, capped(ref.matches(s, o.ID), limit), got, "step %d: Add(%s)", step, o.ID)
			ref.live[o.ID] = s
			texts[o.ID] = o.Text
			ids = append(ids, o.ID)
		}
		if step%10 == 0 && len(ids) > 0 {
			id := ids[rng.IntN(len(ids))]
			want := capped(ref.matches(ref.live[id], id), limit)
			got, err := d.Containers(id)
			require.NoError(t, err)
			require.Equal(t, want, got, "step %d: Containers(%s)", step, id)
			if !online(d) {
				// With an online table, a Query of a live text weighs it
				// as counted twice: not its Containers.
				got, err = d.Query(detector.Doc{ID: id, Text: texts[id]})
				require.NoError(t, err)
				require.Equal(t, want, got, "step %d: Query(%s)", step, id)
			}
			cp, err := d.Copies(id)
			require.NoError(t, err)
			assert.Equal(t, ref.copies(id), cp, "step %d: Copies(%s)", step, id)
		}
	}
	assert.Equal(t, len(ref.live), d.Len())
}

// synthTexts returns n synthetic news texts with near-duplicates among
// them, and a few without features.
func synthTexts(n int) []string {
	var texts []string
	for _, doc := range dataset.SynthDocs(n, dataset.SynthConfig{Seed: 7}) {
		texts = append(texts, doc.Text)
	}
	return append(texts, "", "...", "the a of", "one")
}

// TestFloodMatchesReference checks the grouped index against the detector
// as it was (refIndex) on synthetic floods of exact and case copies with
// removals, uncapped and with a cap smaller than the floods, for every
// way of weighing.
func TestFloodMatchesReference(t *testing.T) {
	texts := synthTexts(150)
	ops := floodStream(texts, 1, 40)
	for _, b := range builds(texts) {
		for _, limit := range []int{1 << 30, 3} {
			t.Run(fmt.Sprintf("%s/cap%d", b.name, limit), func(t *testing.T) {
				checkAgainstReference(t, b.new(t, Config{Language: "en", MaxResults: limit}), ops)
			})
		}
	}
	t.Run("Unfrozen", func(t *testing.T) {
		checkAgainstReference(t, withTable(t, Config{Language: "en", MaxResults: 4}, texts, false), ops)
	})
	t.Run("WideK", func(t *testing.T) {
		checkAgainstReference(t, builds(texts)[2].new(t, Config{Language: "en", K: 20, MaxResults: 5}), ops)
	})
}

// TestRealDataMatchesReference checks the grouped index against the
// detector as it was on the Gold Set and Reuters-21578, uncapped and
// under the default cap.
func TestRealDataMatchesReference(t *testing.T) {
	if testing.Short() {
		t.Skip("compares every Add with a linear scan")
	}
	for _, file := range []string{"goldset-dev.jsonl", "reuters21578.jsonl"} {
		t.Run(file, func(t *testing.T) {
			recs := dataset.ForTest(t, file)
			recs = recs[:min(len(recs), dataset.LongSize(250, 1500))]
			texts := dataset.Texts(recs)
			ops := floodStream(texts, 2, 5)
			for _, b := range builds(texts) {
				for _, limit := range []int{1 << 30, 0} {
					t.Run(fmt.Sprintf("%s/cap%d", b.name, limit), func(t *testing.T) {
						checkAgainstReference(t, b.new(t, Config{Language: "en", MaxResults: limit}), ops)
					})
				}
			}
		})
	}
}

// TestFloodCostFlat adds 2,000 identical copies and checks that the work
// per Add does not grow with the copies: the index holds one group, its
// representative is in the Index and the digest list once, and each Add
// reads only the members that make the cap. The answers of the flood
// (capped, smallest IDs first, Copies, the promotion of the next member,
// Len) are the shared suite's for the detector with its own table
// (TestEveryNameExactFlood in the root package); they are checked here
// only for the tables the registry cannot build (Frozen, NoTable).
func TestFloodCostFlat(t *testing.T) {
	text := synthTexts(1)[0]
	for _, b := range builds([]string{text, "another text entirely"}) {
		t.Run(b.name, func(t *testing.T) {
			d := b.new(t, Config{Language: "en", MaxResults: 5})
			answers := b.name != "Own" // else the shared suite's
			for i := range 2000 {
				ms, err := d.Add(detector.Doc{ID: fmt.Sprintf("c%04d", i), Text: text})
				require.NoError(t, err)
				if !answers {
					continue
				}
				require.Len(t, ms, min(i, 5))
				if i > 0 {
					assert.Equal(t, detector.Match{ID: "c0000", Score: 1}, ms[0])
				}
			}
			on := online(d)
			inspect(d, func(ix *index, _ *ownIndex, slots int) {
				assert.Equal(t, 1, ix.ham.Len(), "one index entry for the copies")
				assert.Equal(t, 1, slots, "one group")
				for _, l := range ix.exact {
					assert.Len(t, l, 1, "digest lists hold the group once")
				}
				if on {
					assert.Len(t, ix.exact, 1)
				} else {
					assert.Empty(t, ix.exact, "a frozen table matches copies by fingerprint")
				}
			})
			heaps, held := d.e.Heaps()
			assert.Equal(t, 1, heaps, "one group")
			assert.Equal(t, 2000, held, "one heap holds every copy")
			// Removing the first copy, which the index entry was made
			// for, keeps the group: nothing is lost.
			repID := "c0000"
			require.NoError(t, d.Remove(repID))
			inspect(d, func(ix *index, _ *ownIndex, _ int) { assert.Equal(t, 1, ix.ham.Len()) })
			if answers {
				ms, err := d.Containers("c1999")
				require.NoError(t, err)
				assert.Len(t, ms, 5)
				cp, err := d.Copies("c1999")
				require.NoError(t, err)
				assert.Len(t, cp, 1998)
			}
			for i := range 2000 {
				if id := fmt.Sprintf("c%04d", i); id != repID {
					require.NoError(t, d.Remove(id))
				}
			}
			if answers {
				assert.Zero(t, d.Len())
			}
			inspect(d, func(ix *index, own *ownIndex, _ int) {
				assert.Zero(t, ix.ham.Len())
				assert.Empty(t, ix.exact)
				if own != nil {
					assert.Zero(t, own.table.IDF().N(), "the copies are uncounted")
				}
			})
			heaps, held = d.e.Heaps()
			assert.Zero(t, heaps, "no group heap is left")
			assert.Zero(t, held, "no member position is left")
		})
	}
}
