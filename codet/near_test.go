package codet_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// nearCorpus returns n sentences of 8 random words each (distinct first-5
// stems, no stopwords), and a frozen idf table none of them is in, so
// every word weighs the same and nothing drifts.
func nearCorpus(t testing.TB, n int) ([]string, *textproc.IDF) {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 11))
	seen := map[string]bool{}
	word := func() string {
		for {
			b := make([]byte, 7)
			for i := range b {
				b[i] = byte('b' + r.IntN(24))
			}
			if !seen[string(b[:5])] {
				seen[string(b[:5])] = true
				return string(b)
			}
		}
	}
	sents := make([]string, n)
	for i := range sents {
		w := make([]string, 8)
		for k := range w {
			w[k] = word()
		}
		w[0] = strings.ToUpper(w[0][:1]) + w[0][1:] // a sentence start
		sents[i] = strings.Join(w, " ") + "."
	}
	ref := textproc.NewIDF(false)
	require.NoError(t, ref.AddDocument([]string{"zzzzz"}))
	require.NoError(t, ref.AddDocument([]string{"yyyyy"}))
	ref.Freeze()
	return sents, ref
}

// edit replaces the second word of sentence k of sents with w.
func edit(sents []string, k int, w string) string {
	out := slices.Clone(sents)
	f := strings.Fields(out[k])
	f[1] = w
	out[k] = strings.Join(f, " ")
	return strings.Join(out, " ")
}

func scoreOf(ms []detector.Match, id string) (float64, bool) {
	for _, m := range ms {
		if m.ID == id {
			return m.Score, true
		}
	}
	return 0, false
}

// TestCollapseNearDerived checks the relations of near-duplicates
// collapsed into a representative: containers derived from it, documents
// it contains contained by them, the scores documented on CollapseNear,
// Matched on a collapsed document, and Remove of the representative while
// documents it represents are live.
func TestCollapseNearDerived(t *testing.T) {
	sents, ref := nearCorpus(t, 40)
	d, err := codet.NewWithIDF(codet.Config{Language: "en", Collapse: codet.CollapseNear}, ref)
	require.NoError(t, err)
	defer d.Close()
	rText := strings.Join(sents[:12], " ")
	add(t, d, "A", strings.Join(sents[:2], " ")) // contained by R
	assert.Empty(t, add(t, d, "R", rText))
	assert.Equal(t, []string{"R"}, ids(containers(t, d, "A")))
	cText := strings.Join(sents[:26], " ")
	assert.Empty(t, add(t, d, "C", cText), "C is not contained by R")
	// X: R with one word changed (sorted first in its sentence, which loses
	// that sentence's prefix): a near-duplicate both ways, 11/12.
	gotX := add(t, d, "X", edit(sents[:12], 5, "bbbbbx"))
	st := d.Stats()
	assert.Equal(t, 1, st.NearCollapsed)
	assert.Equal(t, 1, st.Near)
	assert.Equal(t, 3, st.Groups, "X is not in the tree")
	require.Equal(t, []string{"C", "R"}, ids(gotX), "Add(X) = %v: R's containers, then R", gotX)
	cR, _ := scoreOf(containers(t, d, "R"), "C")
	assert.Equal(t, cR, gotX[0].Score, "C ⊇ X has the score of C ⊇ R")
	fwd := gotX[1].Score
	assert.GreaterOrEqual(t, fwd, codet.DefaultCollapseThreshold)
	assert.Less(t, fwd, 1.0)
	// X contains R, with CS(R, X)/SCS(R), and what R contains.
	rev, ok := scoreOf(containers(t, d, "R"), "X")
	assert.True(t, ok, "X ⊇ R")
	assert.GreaterOrEqual(t, rev, codet.DefaultCollapseThreshold)
	aR, _ := scoreOf(containers(t, d, "A"), "R")
	aX, ok := scoreOf(containers(t, d, "A"), "X")
	assert.True(t, ok, "X ⊇ A, derived")
	assert.Equal(t, aR, aX)
	assert.Empty(t, containers(t, d, "C"), "X does not contain C: R does not")
	// Matched on a collapsed document: every sentence but the edited one
	// (whose first sorted word changed) is found whole in C.
	spans, err := d.Matched("C", "X")
	require.NoError(t, err)
	require.Len(t, spans, 11)
	for _, s := range spans {
		assert.Equal(t, 1.0, s.Score)
	}
	edited := strings.Index(edit(sents[:12], 5, "bbbbbx"), "bbbbbx")
	assert.False(t, slices.ContainsFunc(spans, func(s codet.Span) bool { return s.Start <= edited && edited < s.End }))
	spans, err = d.Matched("X", "A")
	require.NoError(t, err)
	assert.Len(t, spans, 2)

	// Y, another near-duplicate of R; X2, a copy of X.
	gotY := add(t, d, "Y", edit(sents[:12], 7, "bbbbcy"))
	yFwd, ok := scoreOf(gotY, "X")
	assert.True(t, ok, "X ⊇ Y: X stands for R")
	rY, _ := scoreOf(gotY, "R")
	assert.Equal(t, rY, yFwd)
	gotX2 := add(t, d, "X2", edit(sents[:12], 5, "bbbbbx"))
	assert.ElementsMatch(t, []string{"C", "X", "R", "Y"}, ids(gotX2))
	s, _ := scoreOf(gotX2, "X")
	assert.Equal(t, 1.0, s, "a copy of X scores 1")
	st = d.Stats()
	assert.Equal(t, 3, st.NearCollapsed)
	assert.Equal(t, 2, st.Near)

	// A later document R contains: contained by everything R stands for.
	got := add(t, d, "B", strings.Join(sents[3:5], " "))
	assert.Equal(t, []string{"C", "R", "X", "X2", "Y"}, ids(got))

	// Remove the representative: it stays in the tree for X, X2 and Y.
	require.NoError(t, d.Remove("R"))
	assert.Equal(t, 3+1, d.Stats().Groups, "A, R (kept), C, B")
	assert.Equal(t, []string{"C", "X", "X2", "Y"}, ids(containers(t, d, "A")))
	assert.Equal(t, []string{"C", "X2", "Y"}, ids(containers(t, d, "X")))
	got = add(t, d, "B2", strings.Join(sents[6:8], " "))
	assert.Equal(t, []string{"C", "X", "X2", "Y"}, ids(got), "the kept representative still scores")
	for _, id := range []string{"X", "X2"} {
		require.NoError(t, d.Remove(id))
	}
	assert.Equal(t, 1, d.Stats().Near)
	assert.Equal(t, []string{"C", "Y"}, ids(containers(t, d, "A")))
	require.NoError(t, d.Remove("Y"))
	st = d.Stats()
	assert.Equal(t, 4, st.Groups, "the last represented document frees R: A, C, B, B2")
	assert.Equal(t, 0, st.Near)
	assert.Equal(t, []string{"C"}, ids(containers(t, d, "A")))
	for _, id := range []string{"A", "C", "B", "B2"} {
		require.NoError(t, d.Remove(id))
	}
	st = d.Stats()
	assert.Zero(t, st.Nodes+st.Visitors+st.Edges+st.Groups+st.Near+st.Docs, "empty: %+v", st)
}

// TestCollapseNearBound is the near-identical worst case: N copies of one
// document, and the copies each with one different word. CollapseNear keeps one content
// in the tree (no new node, no visitor entry, no relation per copy);
// CollapseExact inserts every copy.
func TestCollapseNearBound(t *testing.T) {
	const n = 400
	sents, ref := nearCorpus(t, 12)
	docs := make([]string, n)
	for i := range docs {
		docs[i] = edit(sents, i%12, fmt.Sprintf("%c%c%cqxz", 'a'+i%26, 'a'+i/26%26, 'a'+i/676))
	}
	docs[0] = strings.Join(sents, " ") // the original
	run := func(c codet.Collapse) codet.Stats {
		d, err := codet.NewWithIDF(codet.Config{Language: "en", Collapse: c, MaxResults: n}, ref)
		require.NoError(t, err)
		defer d.Close()
		var first codet.Stats
		for i, text := range docs {
			ms := add(t, d, fmt.Sprintf("n%04d", i), text)
			if c == codet.CollapseNear {
				require.Len(t, ms, i, "every earlier copy contains copy %d", i)
			}
			if i == 0 {
				first = d.Stats()
			}
		}
		st := d.Stats()
		if c == codet.CollapseNear {
			assert.Equal(t, 1, st.Groups)
			assert.Equal(t, n-1, st.NearCollapsed)
			assert.Equal(t, first.Nodes, st.Nodes, "no node per copy")
			assert.Equal(t, first.Visitors, st.Visitors, "no visitor entry per copy")
			assert.Zero(t, st.Edges)
			// Each copy scores its ≤ 12·DT visits against the one group.
			assert.LessOrEqual(t, st.Increments, n*12*codet.DefaultDepthThreshold)
		}
		for i := range docs {
			require.NoError(t, d.Remove(fmt.Sprintf("n%04d", i)))
		}
		end := d.Stats()
		assert.Zero(t, end.Nodes+end.Visitors+end.Edges+end.Groups+end.Near, "empty: %+v", end)
		return st
	}
	// MaxResults: the documents a representative stands for come merged
	// in ID order, cut at the cap.
	capped, err := codet.NewWithIDF(codet.Config{Language: "en", Collapse: codet.CollapseNear, MaxResults: 3}, ref)
	require.NoError(t, err)
	defer capped.Close()
	for i, text := range docs[:50] {
		ms := add(t, capped, fmt.Sprintf("n%04d", i), text)
		require.Len(t, ms, min(i, 3))
		if i >= 4 {
			assert.Equal(t, []string{"n0000", "n0001", "n0002"}, ids(ms), "Add(n%04d)", i)
		}
	}
	// The representative's containers: the strongest CS(R, d)/SCS(R).
	got := containers(t, capped, "n0000")
	require.Len(t, got, 3)
	assert.True(t, got[0].Score >= got[1].Score && got[1].Score >= got[2].Score, "%v", got)
	near, exact := run(codet.CollapseNear), run(codet.CollapseExact)
	t.Logf("near: %+v", near)
	t.Logf("exact: %+v", exact)
	assert.Equal(t, n, exact.Groups)
	assert.Greater(t, exact.Increments, 10*near.Increments)
}

// TestCollapseNearStream runs a synthetic stream with copies and edits in a
// window under CollapseNear: every reported container is live and not the
// document itself, relations hold after removals, and removing everything
// frees everything. A collapse threshold no pair reaches gives exactly
// CollapseExact's answers.
func TestCollapseNearStream(t *testing.T) {
	docs := dataset.SynthDocs(600, dataset.SynthConfig{Seed: 4, Recent: 20, VariantRate: 0.6})
	d := mustNew(t, codet.Config{Language: "en", Collapse: codet.CollapseNear, Window: 120})
	live := map[string]bool{}
	var order []string
	for _, doc := range docs {
		ms := add(t, d, doc.ID, doc.Text)
		order = append(order, doc.ID)
		live[doc.ID] = true
		if len(order) > 120 {
			delete(live, order[len(order)-121])
		}
		for _, m := range ms {
			require.True(t, live[m.ID], "Add(%s) reports %s, not live", doc.ID, m.ID)
			require.NotEqual(t, doc.ID, m.ID)
			require.Greater(t, m.Score, codet.DefaultETL)
		}
	}
	st := d.Stats()
	t.Logf("stream: %+v", st)
	assert.Greater(t, st.NearCollapsed, 0, "the stream has near-duplicates")
	for id := range live {
		for _, m := range containers(t, d, id) {
			require.True(t, live[m.ID], "Containers(%s) reports %s, not live", id, m.ID)
		}
	}
	for _, id := range order[len(order)-120:] {
		require.NoError(t, d.Remove(id))
	}
	st = d.Stats()
	assert.Zero(t, st.Nodes+st.Visitors+st.Edges+st.Groups+st.Near+st.Docs, "empty: %+v", st)

	// Threshold out of reach: CollapseNear answers as CollapseExact.
	a := mustNew(t, codet.Config{Language: "en", Collapse: codet.CollapseNear, CollapseThreshold: 10})
	b := mustNew(t, codet.Config{Language: "en"})
	for _, doc := range docs[:300] {
		assert.Equal(t, add(t, b, doc.ID, doc.Text), add(t, a, doc.ID, doc.Text), "Add(%s)", doc.ID)
	}
	assert.Zero(t, a.Stats().NearCollapsed)
}
