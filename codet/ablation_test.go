package codet_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// TestAblations reproduces the parameter studies of Varol 2012 §5.2 on our
// data: WS on/off (similarity computations per document, §5.2.3), DT 1..8
// (Fig. 5.2-5.3), DSP 0..3 (Table 5.1), plus PSC, the scoring mode and
// the node limit. Quality is on the Gold Set (strict F1) and on
// Clough-Stevenson (F1, cut+light positive) with the Reuters reference idf,
// at the default ETL. Slow (about two minutes): it runs only with
// CODET_SWEEP=1.
func TestAblations(t *testing.T) {
	if !verbose() {
		t.Skip("slow: set CODET_SWEEP=1 to run")
	}
	gdocs, gtruth := goldset(t)
	cdocs, ctruth := clough(t)
	ref := referenceIDF(t, "en")
	base := codet.Config{Language: "en"}
	var b strings.Builder
	row := func(name string, cfg codet.Config) (float64, float64) {
		ge, gs := relations(t, cfg, ref, gdocs)
		ce, _ := relations(t, cfg, ref, cdocs)
		etl := codet.DefaultETL
		if cfg.ETL != 0 {
			etl = cfg.ETL
		}
		g := gtruth.Score(eval.Pairs(above(ge, etl)), false)
		_, c := ctruth.Rates(above(ce, etl), "cut", "light")
		inserted := gs.Added - gs.Collapsed
		fmt.Fprintf(&b, "%-22s goldset %v | clough %v | per doc: %.2f candidates, %.1f increments; nodes %d\n",
			name, g, c, float64(gs.Candidates)/float64(inserted), float64(gs.Increments)/float64(inserted), gs.Nodes)
		return g.F1(), float64(gs.Candidates) / float64(inserted)
	}
	_, wsOn := row("WS on (default)", base)
	off := base
	off.NoWordSort = true
	_, wsOff := row("WS off", off)
	assert.Greater(t, wsOff, wsOn, "word sorting must reduce similarity computations (§5.2.3)")
	for dt := 1; dt <= 8; dt++ {
		c := base
		c.DepthThreshold = dt
		row(fmt.Sprintf("DT %d", dt), c)
		c.NoWordSort = true
		row(fmt.Sprintf("DT %d WS off", dt), c)
	}
	for dsp := 0; dsp <= 3; dsp++ {
		c := base
		if dsp == 0 {
			c.NoDepthScore = true
		} else {
			c.DepthScorePower = dsp
		}
		row(fmt.Sprintf("DSP %d", dsp), c)
	}
	for psc := 1; psc <= 3; psc++ {
		c := base
		c.SuffixCount = psc
		row(fmt.Sprintf("PSC %d", psc), c)
	}
	c := base
	c.Mode = codet.ModePairwise
	row("pairwise", c)
	c = base
	c.SCSPairs = true
	row("tree, SCS by Eq. 3.3", c)
	c = base
	c.NodeLimit = -1
	row("NodeLimit ∞", c)
	c.NodeLimit = 100
	row("NodeLimit 100", c)
	c = base
	c.Collapse = codet.CollapseOff
	row("CollapseOff", c)
	c = base
	c.Stemmer = textproc.StemNone
	row("no stemming", c)
	c = base
	c.KeepStopwords = true
	row("stopwords kept", c)
	t.Logf("ablations (Reuters reference idf, ETL %.2f):\n%s", codet.DefaultETL, b.String())

	// Similarity computations per document on a news stream (the first
	// 5,000 Reuters documents in date order, online idf), WS on and off.
	docs := dataset.Docs(dataset.Reuters(t, 5000))
	for _, ws := range []bool{true, false} {
		c := base
		c.NoWordSort = !ws
		_, st := relations(t, c, nil, docs)
		inserted := st.Added - st.Collapsed
		t.Logf("Reuters 5000, online idf, WS %v: %.2f candidates/doc, %.1f increments/doc (%d collapsed copies)",
			ws, float64(st.Candidates)/float64(inserted), float64(st.Increments)/float64(inserted), st.Collapsed)
	}
}

// TestNodeLimitSweep measures the effect of the node deactivation limit
// (Alg. 2) on quality and on the candidates scored per document
// (CODET_SWEEP=1).
func TestNodeLimitSweep(t *testing.T) {
	if !verbose() {
		t.Skip("CODET_SWEEP=1")
	}
	gdocs, gtruth := goldset(t)
	cdocs, ctruth := clough(t)
	ref := referenceIDF(t, "en")
	for _, nl := range []int{50, 100, 200, 500, 1000} {
		cfg := codet.Config{Language: "en", NodeLimit: nl}
		ge, gs := relations(t, cfg, ref, gdocs)
		ce, _ := relations(t, cfg, ref, cdocs)
		for _, etl := range []float64{0.25, 0.5} {
			_, c := ctruth.Rates(above(ce, etl), "cut", "light")
			t.Logf("NodeLimit %d ETL %.2f goldset %v clough %v  cand/doc %.1f", nl, etl, gtruth.Score(eval.Pairs(above(ge, etl)), false), c, float64(gs.Candidates)/float64(gs.Added-gs.Collapsed))
		}
	}
}
