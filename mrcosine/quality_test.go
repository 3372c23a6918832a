package mrcosine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// sweepRow is one threshold of the Gold Set sweep.
type sweepRow struct {
	t               float64
	strict, lenient eval.Counts
}

// goldSweep runs an exhaustive detector with threshold lo over goldset-dev
// and scores the pairs at or above each threshold.
func goldSweep(t *testing.T, ref *Reference, lo float64, ts []float64) []sweepRow {
	t.Helper()
	recs := dataset.ForTest(t, "goldset-dev.jsonl")
	truth := eval.ClusterTruth{}
	for _, r := range recs {
		truth[r.ID] = r.Cluster
	}
	d, err := NewWithReference(Config{T2: lo, T1: 1, Exhaustive: true}, ref)
	require.NoError(t, err)
	defer d.Close()
	edges, err := eval.Relations(d, dataset.Docs(recs), nil)
	require.NoError(t, err)
	all := eval.Pairs(edges)
	var rows []sweepRow
	for _, th := range ts {
		found := map[eval.Pair]float64{}
		for p, s := range all {
			if s >= th {
				found[p] = s
			}
		}
		rows = append(rows, sweepRow{th, truth.Score(found, false), truth.Score(found, true)})
	}
	return rows
}

func formatSweep(rows []sweepRow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| t2 | strict P | R | F1 | lenient P | R | F1 |\n|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", r.t,
			r.strict.Precision(), r.strict.Recall(), r.strict.F1(), r.lenient.Precision(), r.lenient.Recall(), r.lenient.F1())
	}
	return b.String()
}

// TestGoldSetSweep measures pair-level P/R/F1 on goldset-dev.jsonl across
// t2 with the default reference, beside seed 003 Table 5 (P 0.87, R 0.98,
// F1 0.92 on the whole Gold Set).
func TestGoldSetSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("all-pairs run over the Gold Set")
	}
	var ts []float64
	for th := 0.50; th < 0.9995; th += 0.02 {
		ts = append(ts, th)
	}
	ts = append(ts, 0.9975, 0.999)
	rows := goldSweep(t, Default(), 0.5, ts)
	t.Logf("goldset-dev, default reference, exhaustive comparison:\n%s", formatSweep(rows))
	best := sweepRow{strict: eval.Counts{FN: 1 << 30}}
	for _, r := range rows {
		if r.strict.F1() > best.strict.F1() {
			best = r
		}
	}
	t.Logf("best strict F1 at t2 = %.3f: %v", best.t, best.strict)
	assert.Greater(t, best.strict.F1(), 0.5)
}
