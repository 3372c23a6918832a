package codet_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector/eval"
)

// sweepRow is one configuration and ETL of TestQualitySweep.
type sweepRow struct {
	name                   string
	etl                    float64
	goldF1                 float64
	cut, light, heavy, non float64
	first, last            containScore // containers first, contained first
	met                    int          // constraints of the ETL rule met
}

// etlConstraints are the containment targets the default ETL must meet:
// Clough-Stevenson cut ≥ 0.95, light ≥ 0.85, non ≤ 0.05; on the
// containment set, in both orders, recall ≥ 0.95 and reverse share ≤ 0.02.
func (r *sweepRow) constraints() []bool {
	return []bool{
		r.cut >= 0.95, r.light >= 0.85, r.non <= 0.05,
		r.first.recall() >= 0.95, r.last.recall() >= 0.95,
		r.first.reverseShare() <= 0.02, r.last.reverseShare() <= 0.02,
	}
}

// chooseETL is the rule that picks the default ETL from a sweep of one
// configuration: the ETL that meets the most containment constraints
// (above), and among those the best Gold Set development strict F1; ties
// go to the smaller ETL.
func chooseETL(rows []sweepRow) sweepRow {
	best := rows[0]
	for _, r := range rows[1:] {
		if r.met > best.met || r.met == best.met && r.goldF1 > best.goldF1 {
			best = r
		}
	}
	return best
}

var sweepGrid = []float64{0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9}

// TestQualitySweep (CODET_SWEEP=1) sweeps ETL for the default
// configuration and its variants (online idf, CollapseNear) and reports,
// per value, Gold Set development strict F1, Clough-Stevenson cut, light,
// heavy and non rates, and the containment set's recall in both orders
// and reverse share. It applies chooseETL to the default configuration and
// fails if DefaultETL is not the value it picks: rerun it after a change
// of the text pipeline and update DefaultETL.
func TestQualitySweep(t *testing.T) {
	if !verbose() {
		t.Skip("CODET_SWEEP=1")
	}
	gdocs, gtruth := goldset(t)
	cdocs, ctruth := clough(t)
	set := buildContainSet(t, 60)
	var b strings.Builder
	fmt.Fprintf(&b, "%-22s %5s %7s %5s %5s %5s %5s  %-34s %-34s %s\n", "config", "ETL", "goldF1", "cut", "light", "heavy", "non", "containers first", "contained first", "met")
	var chosen sweepRow
	for _, c := range []struct {
		name string
		cfg  codet.Config
	}{
		{"default", codet.Config{Language: "en"}},
		{"collapse-near", codet.Config{Language: "en", Collapse: codet.CollapseNear}},
		{"online", codet.Config{Language: "en", IDF: codet.IDFOnline}},
		{"psc2", codet.Config{Language: "en", SuffixCount: 2}},
		{"psc3", codet.Config{Language: "en", SuffixCount: 3}},
		{"dt3", codet.Config{Language: "en", DepthThreshold: 3}},
		{"dt3-psc3", codet.Config{Language: "en", DepthThreshold: 3, SuffixCount: 3}},
		{"dt8-psc3", codet.Config{Language: "en", DepthThreshold: 8, SuffixCount: 3}},
	} {
		ge, _ := relations(t, c.cfg, nil, gdocs)
		ce, _ := relations(t, c.cfg, nil, cdocs)
		se1, _ := relations(t, c.cfg, nil, set.order(true))
		se2, _ := relations(t, c.cfg, nil, set.order(false))
		var rows []sweepRow
		for _, etl := range sweepGrid {
			rates, _ := ctruth.Rates(above(ce, etl), "cut", "light")
			r := sweepRow{name: c.name, etl: etl,
				goldF1: gtruth.Score(eval.Pairs(above(ge, etl)), false).F1(),
				cut:    rates["cut"], light: rates["light"], heavy: rates["heavy"], non: rates["non"],
				first: set.score(se1, etl), last: set.score(se2, etl)}
			for _, ok := range r.constraints() {
				if ok {
					r.met++
				}
			}
			rows = append(rows, r)
			fmt.Fprintf(&b, "%-22s %5.2f %7.3f %5.2f %5.2f %5.2f %5.2f  %-34v %-34v %d/7\n",
				r.name, r.etl, r.goldF1, r.cut, r.light, r.heavy, r.non, r.first, r.last, r.met)
		}
		best := chooseETL(rows)
		fmt.Fprintf(&b, "%s: the rule picks ETL %.2f (%d/7 constraints, Gold Set F1 %.3f)\n", c.name, best.etl, best.met, best.goldF1)
		if c.name == "default" {
			chosen = best
		}
	}
	t.Logf("ETL sweep:\n%s", b.String())
	require.NotZero(t, chosen.etl)
	assert.Equal(t, chosen.etl, codet.DefaultETL, "DefaultETL is not the value the rule picks")
}
