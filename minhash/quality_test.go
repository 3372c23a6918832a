package minhash

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
)

var sweep = flag.Bool("minhash.sweep", false, "run the slow threshold sweeps of TestGoldsetSweep and TestCloughStevensonSweep")

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

// goldsetStats counts the phrase statistics of the whole collection first,
// as Alonso et al. 2013 §4.3 computed them "with a pass over the corpus".
func goldsetStats(t *testing.T, recs []dataset.Record, cfg Config) *Stats {
	st, err := NewStats(cfg)
	require.NoError(t, err)
	for _, r := range recs {
		st.AddDocument(r.Text)
	}
	return st
}

// goldsetRuns are the configurations whose quality the package reports.
var goldsetRuns = []struct {
	name       string
	cfg        Config
	minStrictF float64 // a little below the measured figure
}{
	{"jaccard-5 (default)", Config{}, 0.83},
	{"jaccard-3", Config{Shingle: 3}, 0.81},
	{"df^1.5 rare50 (WeightedConfig)", WeightedConfig(), 0.86},
	{"df4 rare50 (Alonso et al. 2013 §4.8)", Config{Mode: Weighted, Power: 4}, 0.83},
	{"df^2 rare50", Config{Mode: Weighted, Power: 2}, 0.86},
	{"df^1.5 rare50 at 0.05", Config{Mode: Weighted, Threshold: 0.05}, 0.85},
}

// TestGoldset measures strict and lenient P/R/F1 on goldset-dev for
// unweighted MinHash-LSH and Weighted mode with statistics of the whole
// collection counted first, and fails if F1 drops below the floors (the
// default, WeightedConfig and the paper's df⁴ always, the others with
// NEARDUP_LONG) (datasketch's MinHashLSH reaches 0.797 with 3-shingles
// and 0.822 with 5-shingles; exact 5-shingle Jaccard 0.849). Counted
// first, df⁴ scores above the online default df^1.5 (0.907 against
// 0.893).
func TestGoldset(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("slow quality evaluation: skipped under -short and -race")
	}
	recs := dataset.ForTest(t, "goldset-dev.jsonl")
	for _, r := range goldsetRuns {
		t.Run(r.name, func(t *testing.T) {
			if r.name != "jaccard-5 (default)" && r.name != "df^1.5 rare50 (WeightedConfig)" && r.name != "df4 rare50 (Alonso et al. 2013 §4.8)" {
				dataset.SkipLong(t)
			}
			var st *Stats
			if r.cfg.Mode == Weighted {
				st = goldsetStats(t, recs, r.cfg)
			}
			d, err := NewWithStats(r.cfg, st)
			require.NoError(t, err)
			s, l := goldsetScore(t, recs, d)
			b, rw := d.Banding()
			t.Logf("%s t=%.2f (bands %d, rows %d): strict %v | lenient %v", r.name, d.Config().Threshold, b, rw, s, l)
			assert.GreaterOrEqual(t, s.F1(), r.minStrictF, "strict F1")
		})
	}
}

// TestGoldsetSweep prints strict and lenient P/R/F1 across thresholds
// (go test -run TestGoldsetSweep -minhash.sweep ./minhash).
func TestGoldsetSweep(t *testing.T) {
	if !*sweep {
		t.Skip("enable with -minhash.sweep")
	}
	recs := dataset.ForTest(t, "goldset-dev.jsonl")
	ths := []float64{0.04, 0.06, 0.08, 0.1, 0.12, 0.15, 0.2}
	runs := []struct {
		name string
		cfg  Config
	}{
		{"jaccard-3", Config{Shingle: 3}},
		{"jaccard-5", Config{}},
		{"jaccard-5-k256", Config{NumHashes: 256}},
		{"df1.5-rare50-none", WeightedConfig()},
		{"df4-rare50-none", Config{Mode: Weighted, Power: 4}},
		{"df4-rare50-logidf", Config{Mode: Weighted, Weighting: WeightDFPow, Scale: ScaleLogIDF}},
		{"df4-rare50-inverse", Config{Mode: Weighted, Weighting: WeightDFPow, Scale: ScaleInverse}},
		{"df4-rare50pct-none", Config{Mode: Weighted, Rare: RarePercentile}},
		{"lndf2-rare50-none", Config{Mode: Weighted, Weighting: WeightLnDFPow, Power: 2, Scale: ScaleNone}},
		{"df2-rare50-none", Config{Mode: Weighted, Weighting: WeightDFPow, Power: 2, Scale: ScaleNone}},
		{"uniform-rare100", Config{Mode: Weighted, Weighting: WeightUniform, RarePercent: 100}},
	}
	for _, r := range runs {
		var st *Stats
		if r.cfg.Mode == Weighted {
			st = goldsetStats(t, recs, r.cfg)
		}
		for _, th := range ths {
			cfg := r.cfg
			cfg.Threshold = th
			d, err := NewWithStats(cfg, st)
			require.NoError(t, err)
			s, l := goldsetScore(t, recs, d)
			b, rw := d.Banding()
			t.Logf("%-18s t=%.2f (b=%d r=%d) strict %v | lenient %v", r.name, th, b, rw, s, l)
		}
	}
}

// cloughRates runs a containment detector over the Clough-Stevenson corpus
// and returns the per-category rates of answers reported as contained in
// their task's source.
func cloughRates(t *testing.T, cfg Config) (map[string]float64, eval.Counts) {
	d, err := New(cfg)
	require.NoError(t, err)
	return cloughRatesOf(t, d)
}

func cloughRatesOf(t *testing.T, d detector.Detector) (map[string]float64, eval.Counts) {
	recs := dataset.ForTest(t, "clough-stevenson.jsonl")
	edges, err := eval.Relations(d, dataset.Docs(recs), nil)
	require.NoError(t, err)
	truth := eval.ContainmentTruth{Category: map[string]string{}, Task: map[string]string{}}
	for _, r := range recs {
		truth.Category[r.ID], truth.Task[r.ID] = r.Category, r.Task
	}
	return truth.Rates(edges, "cut", "light")
}

// TestCloughStevenson measures containment recall of cut and light answers
// in their source (and the rates of heavy and non answers, which should
// stay low).
func TestCloughStevenson(t *testing.T) {
	// The best setting of TestCloughStevensonSweep (without the MinOverlap
	// evidence rule, which short answers rarely pass); exact containment at
	// the same setting: cut 0.89, light 0.68, non 0.
	rates, c := cloughRates(t, Config{Mode: Containment, Shingle: 5, Threshold: 0.2, MinOverlap: 1})
	t.Logf("containment 5-shingles t=0.20: cut %.2f light %.2f heavy %.2f non %.2f; %v",
		rates["cut"], rates["light"], rates["heavy"], rates["non"], c)
	assert.GreaterOrEqual(t, rates["cut"], 0.85, "cut recall")
	assert.GreaterOrEqual(t, rates["light"], 0.65, "light recall")
	assert.LessOrEqual(t, rates["non"], 0.05, "non answers reported as contained")
	rates, c = cloughRates(t, Config{Mode: Containment})
	t.Logf("containment defaults (5-shingles, t=%.2f): cut %.2f light %.2f heavy %.2f non %.2f; %v",
		DefaultContainmentThreshold, rates["cut"], rates["light"], rates["heavy"], rates["non"], c)
	// Over 30 hash seeds the mean cut rate at the defaults is 0.54, the
	// lowest 0.47 (one answer of 19 below the floor); seed 0 gives 0.53.
	assert.GreaterOrEqual(t, rates["cut"], 0.5, "cut recall at the defaults")
}

// TestCloughStevensonSweep prints the rates across shingle sizes and
// thresholds (-minhash.sweep).
func TestCloughStevensonSweep(t *testing.T) {
	if !*sweep {
		t.Skip("enable with -minhash.sweep")
	}
	for _, w := range []int{2, 3, 4, 5} {
		for _, th := range []float64{0.2, 0.3, 0.4, 0.5, 0.6} {
			rates, c := cloughRates(t, Config{Mode: Containment, Shingle: w, Threshold: th})
			t.Logf("w=%d t=%.2f: cut %.2f light %.2f heavy %.2f non %.2f; %v",
				w, th, rates["cut"], rates["light"], rates["heavy"], rates["non"], c)
			rates, c = cloughRatesOf(t, naive.New(naive.Config{Shingle: w, Threshold: th}))
			t.Logf("w=%d t=%.2f exact: cut %.2f light %.2f heavy %.2f non %.2f; %v",
				w, th, rates["cut"], rates["light"], rates["heavy"], rates["non"], c)
		}
	}
}
