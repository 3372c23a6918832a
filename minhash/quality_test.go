package minhash

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// goldsetScore runs a detector over goldset-dev and returns strict and
// lenient counts.
func goldsetScore(t *testing.T, recs []dataset.Record, d detector.Detector) (strict, lenient eval.Counts) {
	t.Helper()
	edges, err := eval.Relations(d, dataset.Docs(recs), nil)
	require.NoError(t, err)
	truth := eval.ClusterTruth{}
	for _, r := range recs {
		truth[r.ID] = r.Cluster
	}
	found := eval.Pairs(edges)
	return truth.Score(found, false), truth.Score(found, true)
}

func goldsetStats(t *testing.T, recs []dataset.Record, cfg Config) *Stats {
	st, err := NewStats(cfg)
	require.NoError(t, err)
	for _, r := range recs {
		st.AddDocument(r.Text)
	}
	return st
}

// TestGoldsetSweep prints strict and lenient P/R/F1 across thresholds.
func TestGoldsetSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("slow sweep")
	}
	recs := dataset.ForTest(t, "goldset-dev.jsonl")
	type run struct {
		name string
		cfg  Config
		ths  []float64
	}
	wc := func(w Weighting, p float64, rp float64, rule RareRule, sc PhraseScale) Config {
		return Config{Mode: Weighted, Weighting: w, Power: p, RarePercent: rp, Rare: rule, Scale: sc}
	}
	runs := []run{
		{"jaccard-3", Config{Shingle: 3}, []float64{0.06, 0.08, 0.1, 0.12, 0.15}},
		{"jaccard-5", Config{Shingle: 5}, []float64{0.05, 0.06, 0.08, 0.1, 0.12}},
		{"jaccard-5-k256", Config{Shingle: 5, NumHashes: 256}, []float64{0.06, 0.08, 0.1}},
		{"df4-rare50", wc(WeightDFPow, 4, 50, RareDocFraction, ScaleInverse), []float64{0.1, 0.15, 0.2, 0.3}},
		{"df4-rare50pct", wc(WeightDFPow, 4, 50, RarePercentile, ScaleInverse), []float64{0.1, 0.15, 0.2, 0.3}},
		{"df2-rare50", wc(WeightDFPow, 2, 50, RareDocFraction, ScaleInverse), []float64{0.1, 0.15, 0.2, 0.3}},
		{"lndf10-rare50", wc(WeightLnDFPow, 10, 50, RareDocFraction, ScaleInverse), []float64{0.1, 0.15, 0.2, 0.3}},
		{"uniform-rare50", wc(WeightUniform, 0, 50, RareDocFraction, ScaleInverse), []float64{0.05, 0.1, 0.15, 0.2}},
	}
	for _, r := range runs {
		var st *Stats
		if r.cfg.Mode == Weighted {
			st = goldsetStats(t, recs, r.cfg)
		}
		for _, th := range r.ths {
			cfg := r.cfg
			cfg.Threshold = th
			d, err := NewWithStats(cfg, st)
			require.NoError(t, err)
			s, l := goldsetScore(t, recs, d)
			b, rw := d.Banding()
			t.Logf("%-16s t=%.2f (b=%d r=%d) strict %v | lenient %v", r.name, th, b, rw, s, l)
		}
	}
	_ = fmt.Sprint
	_ = assert.True
}
