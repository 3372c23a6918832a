package imatch

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
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// refDoc is what the reference keeps of a live document.
type refDoc struct {
	keys    []Key // lexicon keys, then the exact-content key when indexed
	terms   []string
	content Digest
	empty   bool
}

// refIndex is the detector without groups: it compares a key list with
// every live document, one by one, and, for a Detector of New, keeps its
// own online table, counting and uncounting each document's distinct terms
// as the Detector must. The grouped index must give the same answers,
// truncated to the cap.
type refIndex struct {
	cfg   Config
	exact bool
	own   *textproc.IDF // the reference's online table, or nil
	idf   *textproc.IDF // the caller's table, or nil
	s     *Signer
	live  map[string]refDoc
}

func newRef(t testing.TB, d *Detector) *refIndex {
	r := &refIndex{cfg: d.Config(), exact: d.alg.exact, idf: d.idf, live: map[string]refDoc{}}
	table := d.idf
	if d.alg.own {
		r.own = textproc.NewIDF(false)
		table = r.own
	}
	s, err := NewSigner(d.Config(), table)
	require.NoError(t, err)
	r.s = s
	return r
}

// sign returns what the Detector keeps of text; count says whether to
// count it in the own table first, as Add does (Query weighs it so without
// counting).
func (r *refIndex) sign(text string, count bool) refDoc {
	r.s.analyze(text)
	terms := slices.Clone(r.s.terms)
	if r.own != nil && len(terms) > 0 {
		if count {
			_ = r.own.AddDocument(terms)
		} else {
			r.s.extra = 1
		}
	}
	keys := r.s.appendKeys(nil)
	r.s.extra = 0
	content, ok := r.s.content()
	if ok && (r.exact || len(keys) == 0) {
		keys = append(keys, Key{Lexicon: exactLexicon, Digest: content})
	}
	r.s.tidy()
	return refDoc{keys: keys, terms: terms, content: content, empty: !ok}
}

func (r *refIndex) remove(id string) {
	if r.own != nil && len(r.live[id].terms) > 0 {
		_ = r.own.RemoveDocument(r.live[id].terms)
	}
	delete(r.live, id)
}

func (r *refIndex) matches(me refDoc, self string) []detector.Match {
	out := []detector.Match{}
	mine := lexiconKeys(me.keys)
	for id, o := range r.live {
		if id == self {
			continue
		}
		shared, exact := 0, false
		for _, k := range me.keys {
			if slices.Contains(o.keys, k) {
				if k.Lexicon == exactLexicon {
					exact = true
				} else {
					shared++
				}
			}
		}
		switch {
		case exact:
			out = append(out, detector.Match{ID: id, Score: 1})
		case shared > 0:
			out = append(out, detector.Match{ID: id, Score: float64(shared) / float64(max(mine, lexiconKeys(o.keys)))})
		}
	}
	detector.SortMatches(out)
	if len(out) > r.cfg.MaxResults {
		out = out[:r.cfg.MaxResults]
	}
	return out
}

func (r *refIndex) copies(id string) []string {
	me := r.live[id]
	out := []string{}
	for o, doc := range r.live {
		if o != id && !me.empty && !doc.empty && doc.content == me.content {
			out = append(out, o)
		}
	}
	slices.Sort(out)
	return out
}

// op is one step of a stream: an Add (text set) or a Remove.
type op = testkit.Op

// floodStream interleaves the texts with floods of exact copies and of
// copies in lower case and capitals (the same analysed terms), and removes
// random live documents, the first of a flood included.
func floodStream(texts []string, seed uint64, copies int) []op {
	return testkit.FloodStream(texts, seed, 1, 5, copies, strings.ToLower, strings.ToUpper)
}

// runAgainstReference applies ops to d and the reference, comparing every
// Add, and the Containers, Query and Copies of a random live document
// every tenth step.
func runAgainstReference(t *testing.T, d *Detector, ref *refIndex, ops []op, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 9))
	texts := map[string]string{}
	var ids []string
	for step, o := range ops {
		if o.Remove {
			require.NoError(t, d.Remove(o.ID))
			ref.remove(o.ID)
			delete(texts, o.ID)
			ids = slices.DeleteFunc(ids, func(s string) bool { return s == o.ID })
		} else {
			doc := ref.sign(o.Text, true)
			want := ref.matches(doc, "")
			got, err := d.Add(detector.Doc{ID: o.ID, Text: o.Text})
			require.NoError(t, err)
			require.Equal(t, want, got, "step %d: Add(%s)", step, o.ID)
			ref.live[o.ID] = doc
			texts[o.ID] = o.Text
			ids = append(ids, o.ID)
		}
		if step%10 == 0 && len(ids) > 0 {
			id := ids[rng.IntN(len(ids))]
			got, err := d.Containers(id)
			require.NoError(t, err)
			require.Equal(t, ref.matches(ref.live[id], id), got, "step %d: Containers(%s)", step, id)
			got, err = d.Query(detector.Doc{ID: id, Text: texts[id]})
			require.NoError(t, err)
			require.Equal(t, ref.matches(ref.sign(texts[id], false), id), got, "step %d: Query(%s)", step, id)
			cp, err := d.Copies(id)
			require.NoError(t, err)
			require.Equal(t, ref.copies(id), cp, "step %d: Copies(%s)", step, id)
		}
	}
	require.Equal(t, len(ref.live), d.Len())
}

// builds are the ways a Detector is made for the differential tests: its
// own online table, the caller's frozen table, and a caller's table that
// is not frozen (so the exact-content key is indexed for every document).
func builds(t testing.TB, cfg Config, texts []string) map[string]func() *Detector {
	_, tc, err := cfg.resolve()
	require.NoError(t, err)
	an, err := textproc.NewAnalyzer(tc)
	require.NoError(t, err)
	frozen := textproc.BuildIDF(an, texts[:len(texts)/2], false)
	loose := textproc.NewIDF(false)
	for _, text := range texts[:len(texts)/3] {
		var terms []string
		for _, tok := range an.Tokens(text) {
			terms = append(terms, tok.Term)
		}
		require.NoError(t, loose.AddDocument(terms))
	}
	must := func(d *Detector, err error) *Detector {
		require.NoError(t, err)
		return d
	}
	return map[string]func() *Detector{
		"own":      func() *Detector { return must(New(cfg)) },
		"frozen":   func() *Detector { return must(NewWithIDF(cfg, frozen)) },
		"unfrozen": func() *Detector { return must(NewWithIDF(cfg, loose)) },
	}
}

// floodTexts are synthetic news-like texts: 40 stories and 20 edits of
// them, so that near-duplicates share some but not all keys.
func floodTexts() []string {
	rng := rand.New(rand.NewPCG(3, 3))
	words := make([]string, 400)
	for i := range words {
		words[i] = fmt.Sprintf("w%03dx", i)
	}
	var texts []string
	for range 40 {
		var b strings.Builder
		for range 60 {
			b.WriteString(words[int(rng.ExpFloat64()*60)%len(words)])
			b.WriteByte(' ')
		}
		texts = append(texts, b.String())
	}
	for i := range 20 {
		texts = append(texts, texts[i]+" "+words[rng.IntN(len(words))])
	}
	return append(texts, "", "tiny text", "...")
}

// TestFloodMatchesReference checks the grouped index against the detector
// without groups (refIndex) on floods of copies with removals, for every
// way a Detector is built, both selections and lexicon randomisation,
// uncapped and with a cap smaller than the floods.
func TestFloodMatchesReference(t *testing.T) {
	texts := floodTexts()
	ops := floodStream(texts, 1, 30)
	for _, cfg := range []Config{
		{},
		{Selection: SelectBand},
		{Lexicons: 4, MinTerms: 3},
		{Selection: SelectBand, Lexicons: 3},
	} {
		for _, limit := range []int{1 << 30, 3} {
			cfg.MaxResults = limit
			for name, build := range builds(t, cfg, texts) {
				t.Run(fmt.Sprintf("%s/sel%d/K%d/cap%d", name, cfg.Selection, cfg.Lexicons, limit), func(t *testing.T) {
					d := build()
					runAgainstReference(t, d, newRef(t, d), ops, 1)
				})
			}
		}
	}
}

// TestRealDataMatchesReference checks the grouped index against the
// reference on the Gold Set and Reuters-21578, with floods of copies and
// removals, under the default cap.
func TestRealDataMatchesReference(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("compares every Add with a linear scan")
	}
	for _, file := range []string{"goldset-dev.jsonl", "reuters21578.jsonl"} {
		t.Run(file, func(t *testing.T) {
			recs := dataset.ForTest(t, file)
			texts := dataset.Texts(recs[:min(len(recs), dataset.LongSize(150, 800))])
			ops := floodStream(texts, 2, 5)
			for _, cfg := range []Config{{Language: "en"}, {Language: "en", Selection: SelectBand, Lexicons: 3, MaxResults: 5}} {
				for name, build := range builds(t, cfg, texts) {
					t.Run(fmt.Sprintf("%s/sel%d", name, cfg.Selection), func(t *testing.T) {
						d := build()
						runAgainstReference(t, d, newRef(t, d), ops, 2)
					})
				}
			}
		})
	}
}

// TestFloodCostFlat adds 2,000 identical copies (and copies in other
// case) and checks the structure that makes the work per Add independent
// of the flood: the index holds one group, each posting list holds it
// once, and an Add reads only the members that make the cap.
func TestFloodCostFlat(t *testing.T) {
	texts := floodTexts()
	for name, build := range builds(t, Config{MaxResults: 5, Lexicons: 2}, texts) {
		t.Run(name, func(t *testing.T) {
			d := build()
			text := texts[0]
			for i := range 2000 {
				in := text
				if i%3 == 1 {
					in = strings.ToUpper(text)
				}
				ms, err := d.Add(detector.Doc{ID: fmt.Sprintf("c%04d", i), Text: in})
				require.NoError(t, err)
				require.Len(t, ms, min(i, 5))
				if i > 0 {
					assert.Equal(t, detector.Match{ID: "c0000", Score: 1}, ms[0])
				}
			}
			d.e.Inspect(func(e engine.Index[features], groups int) {
				assert.Equal(t, 1, groups, "one group for the copies")
				for k, l := range baseOf(e).post {
					assert.Len(t, l, 1, "the posting list of %v holds the group once", k)
				}
			})
			heaps, _ := d.e.Heaps()
			assert.Equal(t, 1, heaps)
			cp0, err := d.Copies("c0000")
			require.NoError(t, err)
			assert.Len(t, cp0, 1999, "the group holds the 2000 copies")
			_, err = d.e.Union("test", "c0000", func(_ uint32, f *features, e engine.Index[features]) []uint32 {
				assert.Len(t, baseOf(e).post, len(f.keys))
				return nil
			})
			require.NoError(t, err)
			if d.alg.own {
				assert.Equal(t, int64(2000), d.IDF().N(), "every copy is counted")
			}
			// Removing the smallest ID (the heap's root) promotes another
			// copy: nothing is lost.
			require.NoError(t, d.Remove("c0000"))
			ms, err := d.Containers("c0001")
			require.NoError(t, err)
			assert.Equal(t, []detector.Match{{ID: "c0002", Score: 1}, {ID: "c0003", Score: 1}, {ID: "c0004", Score: 1}, {ID: "c0005", Score: 1}, {ID: "c0006", Score: 1}}, ms)
			cp, err := d.Copies("c1999")
			require.NoError(t, err)
			assert.Len(t, cp, 1998)
			for i := 1; i < 2000; i++ {
				require.NoError(t, d.Remove(fmt.Sprintf("c%04d", i)))
			}
			d.e.Inspect(func(e engine.Index[features], _ int) { assert.Empty(t, baseOf(e).post) })
			heaps, held := d.e.Heaps()
			assert.Zero(t, heaps, "no group heap is left")
			assert.Zero(t, held, "no member position is left")
			assert.Zero(t, d.Len())
			if d.alg.own {
				assert.Zero(t, d.IDF().N(), "every copy is uncounted")
			}
		})
	}
}

// TestFloodBandGroupsBounded floods an online band-selection Detector
// with 2,000 copies of one text among other documents. Each copy raises N
// and the frequencies of the text's terms by one, so a term's normalised
// idf drifts towards 0 and crosses each band edge at most once: the copies
// form at most 2u+1 groups for u distinct terms, not one per copy, and all
// of them are tied by the exact-content key.
func TestFloodBandGroupsBounded(t *testing.T) {
	texts := floodTexts()
	d, err := New(Config{Selection: SelectBand, MaxResults: 5})
	require.NoError(t, err)
	for i := range 20 {
		_, err := d.Add(detector.Doc{ID: fmt.Sprintf("o%02d", i), Text: texts[i+1]})
		require.NoError(t, err)
	}
	for i := range 2000 {
		ms, err := d.Add(detector.Doc{ID: fmt.Sprintf("c%04d", i), Text: texts[0]})
		require.NoError(t, err)
		require.LessOrEqual(t, len(ms), 5)
	}
	s, err := NewSigner(Config{}, textproc.NewIDF(false))
	require.NoError(t, err)
	s.analyze(texts[0])
	u := len(s.terms)
	var groups []uint32
	var posted int
	_, err = d.e.UnionGroups("test", "c1999", func(g uint32, gs *engine.Groups[features], e engine.Index[features]) []uint32 {
		content := gs.Features(g).content
		list := baseOf(e).post[Key{Lexicon: exactLexicon, Digest: content}]
		for _, o := range list {
			if gs.Features(o).content == content {
				groups = append(groups, o)
			}
		}
		posted = len(list)
		return nil
	})
	require.NoError(t, err)
	t.Logf("2,000 copies of a text of %d distinct terms: %d groups", u, len(groups))
	assert.LessOrEqual(t, len(groups), 2*u+1)
	assert.Len(t, groups, posted)
	cp, err := d.Copies("c0000")
	require.NoError(t, err)
	assert.Len(t, cp, 1999, "Copies lists the copies of every group")
}
