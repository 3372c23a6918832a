package shingle_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/shingle"
)

// noCap is a MaxResults above any answer of the labelled data sets.
const noCap = 1 << 20

// relations runs a detector for cfg over the records and returns its edges.
func relations(t *testing.T, cfg shingle.Config, recs []dataset.Record) []eval.Edge {
	t.Helper()
	if cfg.Language == "" {
		cfg.Language = "en" // the data sets of these tests are English
	}
	if cfg.MaxResults == 0 {
		// Every pair is scored: Gold Set clusters exceed the default cap.
		cfg.MaxResults = noCap
	}
	d, err := shingle.New(cfg)
	require.NoError(t, err)
	defer d.Close()
	edges, err := eval.Relations(d, dataset.Docs(recs), nil)
	require.NoError(t, err)
	return edges
}

// atLeast keeps the edges scoring at least th: a run at a low threshold
// answers every higher one, since scores do not depend on the threshold.
func atLeast(edges []eval.Edge, th float64) []eval.Edge {
	var out []eval.Edge
	for _, e := range edges {
		if e.Score >= th {
			out = append(out, e)
		}
	}
	return out
}

// goldScores returns strict and lenient pair counts of edges on the Gold Set.
func goldScores(recs []dataset.Record, edges []eval.Edge) (strict, lenient eval.Counts) {
	truth := eval.ClusterTruth{}
	for _, r := range recs {
		truth[r.ID] = r.Cluster
	}
	found := eval.Pairs(edges)
	return truth.Score(found, false), truth.Score(found, true)
}

// sweep logs P/R/F1 at each threshold and returns the strict counts.
func sweep(t *testing.T, name string, recs []dataset.Record, edges []eval.Edge, ths []float64) map[float64]eval.Counts {
	out := map[float64]eval.Counts{}
	var b strings.Builder
	for _, th := range ths {
		s, l := goldScores(recs, atLeast(edges, th))
		out[th] = s
		fmt.Fprintf(&b, "\n  %s θ=%.2f strict %v | lenient %v", name, th, s, l)
	}
	t.Log(b.String())
	return out
}
