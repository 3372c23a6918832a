package shingle_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/shingle"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// skipHeavy skips the quality evaluations under -short and -race: they are
// deterministic single-goroutine computations that the race detector only
// slows down.
func skipHeavy(t *testing.T) {
	if testing.Short() || shingle.RaceEnabled {
		t.Skip("quality evaluation: skipped under -short and -race")
	}
}

// releaseAntecedents is the antecedent list of the reference release's
// spotsigs.config (all with spot distance 1, chain length 1).
const releaseAntecedents = "the,be,is,are,was,will,would,shall,should,can,could,has,have,had,do,did,does,done,un,une,le,la,el,al"

// releaseConfig is SpotSigs configured as the reference release ships.
func releaseConfig() shingle.Config {
	return shingle.Config{Language: "en", Method: shingle.SpotSigs, Antecedents: releaseAntecedents,
		ChainLength: 1, SpotDistance: 1, ReleaseChains: true, MinIDF: 0.2, MaxIDF: 0.8, MinSignatures: 4,
		Content: textproc.ContentAll, MinOverlap: 1} // the release reads whole pages, no evidence rule
}

// TestGoldSet measures every method on goldset-dev.jsonl (pair-level,
// strict and lenient; data README) across a threshold sweep, logs the
// table and asserts floors a little below the measured figures: each
// method at its defaults always, the other configurations with
// NEARDUP_LONG.
//
// Measured (strict F1) on 2026-11-22:
//
//	ffp (stopwords, first-5)      θ=0.6 0.334   best θ=0.15 0.812
//	ffp plain                     θ=0.6 0.472   best θ=0.20 0.851
//	dsc mod 8                     θ=0.6 0.322   best θ=0.15 0.818
//	dsc min-64                    θ=0.6 0.340   best θ=0.15 0.799
//	dsc stride 3 (reading a)   θ=0.6 0.081   θ=0.1 0.522 (0.604 at 0.05)
//	spotsigs default              τ=0.1 0.919 (P 0.948 R 0.892)
//	spotsigs release config       τ=0.10 0.908, 0.15 0.913, 0.20 0.901, 0.85 0.213
//	  (reference Java code: 0.915, 0.911, 0.893, 0.156)
func TestGoldSet(t *testing.T) {
	skipHeavy(t)
	recs := dataset.ForTest(t, "goldset-dev.jsonl")
	ths := []float64{0.05, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.85}
	// One run at a low threshold answers every higher one (scores do not
	// depend on the threshold). Containment runs start at 0.1: below it,
	// the prefix filter admits nearly every shingle and the run is slow.
	low := func(c shingle.Config) shingle.Config {
		c.Threshold = 0.1
		if c.Method == shingle.SpotSigs {
			c.Threshold = 0.05
		}
		return c
	}
	for _, tc := range []struct {
		name   string
		cfg    shingle.Config
		floors map[float64]float64 // threshold → least strict F1
	}{
		{"ffp", shingle.Config{}, map[float64]float64{0.6: 0.32, 0.15: 0.80}},
		{"ffp-plain", shingle.Config{KeepStopwords: true, Stemmer: textproc.StemNone}, map[float64]float64{0.6: 0.46, 0.2: 0.84}},
		{"dsc", shingle.Config{Method: shingle.DSC}, map[float64]float64{0.6: 0.30, 0.15: 0.80}},
		{"dsc-min", shingle.Config{Method: shingle.DSC, Sampling: shingle.SampleMin}, map[float64]float64{0.6: 0.32, 0.15: 0.78}},
		{"dsc-stride", shingle.Config{Method: shingle.DSC, Sampling: shingle.SampleStride}, map[float64]float64{0.6: 0.07, 0.1: 0.51}},
		{"dsc-ss2", shingle.Config{Method: shingle.DSC, SuperShingle: 2}, nil},
		{"spotsigs", shingle.Config{Method: shingle.SpotSigs}, map[float64]float64{0.1: 0.916}},
		{"spotsigs-table5best", shingle.Config{Method: shingle.SpotSigs, Antecedents: "is,the,said,was,there,a,it"}, map[float64]float64{0.1: 0.90}},
		{"spotsigs-c2", shingle.Config{Method: shingle.SpotSigs, ChainLength: 2}, map[float64]float64{0.12: 0.92}},
		{"spotsigs-d1", shingle.Config{Method: shingle.SpotSigs, SpotDistance: 1}, map[float64]float64{0.12: 0.92}},
		{"spotsigs-noband", shingle.Config{Method: shingle.SpotSigs, MinIDF: -1, MaxIDF: 2}, nil},
		{"spotsigs-release", releaseConfig(), map[float64]float64{0.1: 0.90, 0.15: 0.90, 0.2: 0.89, 0.85: 0.2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name != "ffp" && tc.name != "dsc" && tc.name != "spotsigs" {
				dataset.SkipLong(t)
			}
			cfg := low(tc.cfg)
			counts := sweep(t, tc.name, recs, relations(t, cfg, recs), ths[slices.Index(ths, cfg.Threshold):])
			for th, floor := range tc.floors {
				assert.GreaterOrEqual(t, counts[th].F1(), floor, "%s strict F1 at θ=%v", tc.name, th)
			}
		})
	}
}

// TestGoldSetReference checks the two claims about the reference Java
// code's figures on goldset-dev (data README): configured as the release
// ships, our SpotSigs matches them at equal τ, and at its defaults it beats
// their best (strict F1 0.915 at τ = 0.10).
func TestGoldSetReference(t *testing.T) {
	skipHeavy(t)
	recs := dataset.ForTest(t, "goldset-dev.jsonl")
	cfg := releaseConfig()
	cfg.Threshold = 0.1
	edges := relations(t, cfg, recs)
	for _, ref := range []struct{ tau, f1 float64 }{{0.10, 0.915}, {0.15, 0.911}, {0.20, 0.893}} {
		s, _ := goldScores(recs, atLeast(edges, ref.tau))
		assert.InDelta(t, ref.f1, s.F1(), 0.015, "release config at τ=%v: %v, reference F1 %v", ref.tau, s, ref.f1)
	}
	// The release's unsound bounds (see spotIndex.similar) can only drop pairs.
	// On goldset-dev they drop none at the shipped τ = 0.85 (measured
	// 2026-11-22: TP 4397 either way), so the recall we find above the Java
	// code's there (0.119 against 0.085) comes from the text pipeline
	// (tokeniser, stopword list), not from pruning.
	cfg.Threshold = 0.85
	exact, _ := goldScores(recs, relations(t, cfg, recs))
	cfg.MaxResults = noCap
	d, err := shingle.New(cfg)
	require.NoError(t, err)
	shingle.UseReleaseBounds(d)
	edges, err = eval.Relations(d, dataset.Docs(recs), nil)
	require.NoError(t, err)
	pruned, _ := goldScores(recs, edges)
	t.Logf("release config, τ = 0.85: exact search %v; with the release's bounds %v (reference Java code: P 0.994 R 0.085 F1 0.156)", exact, pruned)
	assert.LessOrEqual(t, pruned.TP, exact.TP, "the release's bounds can only drop pairs")
	assert.Equal(t, exact.FP, pruned.FP, "the release's bounds cannot add false positives")

	s, _ := goldScores(recs, relations(t, shingle.Config{Method: shingle.SpotSigs}, recs))
	t.Logf("defaults (τ = %v): %v", shingle.DefaultJaccard, s)
	assert.Greater(t, s.F1(), 0.915, "defaults must beat the reference's best F1")
	assert.Greater(t, s.Precision(), 0.93, "defaults must be more precise than the reference (P ≤ 0.92)")
}

// TestGoldSetBoilerplate supports the explanation of the difference: it
// counts how many false-positive pairs share a boilerplate line (a line of
// at least 4 words that also appears on pages of two or more clusters) for
// the release configuration and for the defaults at τ = 0.1. It runs with
// NEARDUP_LONG.
func TestGoldSetBoilerplate(t *testing.T) {
	skipHeavy(t)
	dataset.SkipLong(t)
	recs := dataset.ForTest(t, "goldset-dev.jsonl")
	clusters := map[string]map[string]bool{}
	lines := map[string][]string{}
	for _, r := range recs {
		seen := map[string]bool{}
		for l := range strings.SplitSeq(r.Text, "\n") {
			l = strings.Join(strings.Fields(strings.ToLower(l)), " ")
			if len(strings.Fields(l)) < 4 || seen[l] {
				continue
			}
			seen[l] = true
			if clusters[l] == nil {
				clusters[l] = map[string]bool{}
			}
			clusters[l][r.Cluster] = true
			lines[r.ID] = append(lines[r.ID], l)
		}
	}
	boiler := func(id string) map[string]bool {
		out := map[string]bool{}
		for _, l := range lines[id] {
			if len(clusters[l]) >= 2 {
				out[l] = true
			}
		}
		return out
	}
	cluster := map[string]string{}
	for _, r := range recs {
		cluster[r.ID] = r.Cluster
	}
	share := func(cfg shingle.Config) (fp, withBoiler int) {
		for p := range eval.Pairs(relations(t, cfg, recs)) {
			if cluster[p.A] == cluster[p.B] {
				continue
			}
			fp++
			b := boiler(p.B)
			if slices.ContainsFunc(slices.Collect(mapKeys(boiler(p.A))), func(l string) bool { return b[l] }) {
				withBoiler++
			}
		}
		return fp, withBoiler
	}
	rel := releaseConfig()
	rel.Threshold = 0.1
	var b strings.Builder
	for _, c := range []struct {
		name string
		cfg  shingle.Config
	}{{"release τ=0.1", rel}, {"defaults τ=0.1", shingle.Config{Method: shingle.SpotSigs}}} {
		fp, wb := share(c.cfg)
		fmt.Fprintf(&b, "\n  %s: %d false-positive pairs, %d (%.0f%%) share a boilerplate line", c.name, fp, wb, 100*float64(wb)/float64(max(fp, 1)))
		assert.Greater(t, wb*2, fp, "%s: most false positives should share boilerplate", c.name)
	}
	t.Log(b.String())
}

func mapKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestClough measures FFP and DSC containment on the Clough-Stevenson
// corpus: the fraction of answers of each category reported as contained
// in their task's source ("cut" and "light" are positives), across
// thresholds.
//
// Measured at θ = 0.6 (paper default) on 2026-11-22: ffp cut 0.53 light 0.16
// heavy 0.05 non 0.00; dsc (mod 8) cut 0.47 light 0.21 heavy 0.11 non 0.00.
func TestClough(t *testing.T) {
	skipHeavy(t)
	recs := dataset.ForTest(t, "clough-stevenson.jsonl")
	truth := eval.ContainmentTruth{Category: map[string]string{}, Task: map[string]string{}}
	for _, r := range recs {
		truth.Category[r.ID], truth.Task[r.ID] = r.Category, r.Task
	}
	for _, tc := range []struct {
		name string
		cfg  shingle.Config
		// floors at θ = 0.6: least rate of cut answers found
		cut float64
	}{
		{"ffp", shingle.Config{}, 0.50},
		{"ffp-plain", shingle.Config{KeepStopwords: true, Stemmer: textproc.StemNone}, 0.60},
		{"dsc", shingle.Config{Method: shingle.DSC}, 0.45},
		{"dsc-mod25", shingle.Config{Method: shingle.DSC, Modulus: 25, MinOverlap: 1}, 0.50}, // 10 samples of evidence is for m = 4
		{"dsc-min", shingle.Config{Method: shingle.DSC, Sampling: shingle.SampleMin}, 0.55},
		{"dsc-stride", shingle.Config{Method: shingle.DSC, Sampling: shingle.SampleStride}, 0.10},
		{"dsc-ss2", shingle.Config{Method: shingle.DSC, SuperShingle: 2}, 0.45},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.Threshold = 0.1
			edges := relations(t, cfg, recs)
			var b strings.Builder
			for _, th := range []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7} {
				rates, counts := truth.Rates(atLeast(edges, th), "cut", "light")
				fmt.Fprintf(&b, "\n  %s θ=%.1f cut %.2f light %.2f heavy %.2f non %.2f | %v",
					tc.name, th, rates["cut"], rates["light"], rates["heavy"], rates["non"], counts)
				if th == 0.6 {
					assert.GreaterOrEqual(t, rates["cut"], tc.cut, "%s: cut answers found at θ=0.6", tc.name)
					assert.Zero(t, rates["non"], "%s: an independent answer reported as contained", tc.name)
				}
			}
			t.Log(b.String())
		})
	}
}
