package tweezer

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// TestGoldSet measures pair-level precision, recall and F1 on the SpotSigs
// Gold Set part shipped as goldset-dev.jsonl (English), for both modes.
// Strict gold pairs share a cluster; lenient ones share a cluster name up
// to a trailing digit. The floors are a little below the measured figures.
// The other thresholds and settings are measured with NEARDUP_LONG.
func TestGoldSet(t *testing.T) {
	recs := dataset.ForTest(t, "goldset-dev.jsonl")
	truth := eval.ClusterTruth{}
	for _, r := range recs {
		truth[r.ID] = r.Cluster
	}
	type result struct{ sp, sf float64 }
	measure := func(name string, cfg Config) result {
		d, err := New(cfg)
		require.NoError(t, err)
		defer d.Close()
		edges, err := eval.Relations(d, dataset.Docs(recs), nil)
		require.NoError(t, err)
		pred := eval.Pairs(edges)
		strict, lenient := truth.Score(pred, false), truth.Score(pred, true)
		t.Logf("%-26s pairs %5d  strict %v  lenient %v", name, len(pred), strict, lenient)
		return result{strict.Precision(), strict.F1()}
	}
	en := "en"
	exact := measure("Exact", Config{Language: en, Mode: Exact})
	assert.GreaterOrEqual(t, exact.sp, 0.9, "Exact mode strict precision")
	jac := measure(fmt.Sprintf("Jaccard ≥ %.2f (default)", DefaultJaccardThreshold), Config{Language: en, Mode: Jaccard})
	// With the MinOverlap evidence rule (3 shared shingles), which keeps
	// Reuters' template notices apart.
	assert.GreaterOrEqual(t, jac.sf, 0.66, "Jaccard mode strict F1")
	ov := measure(fmt.Sprintf("Overlap ≥ %.2f (default)", DefaultOverlapThreshold), Config{Language: en, Mode: Overlap})
	assert.GreaterOrEqual(t, ov.sf, 0.81, "Overlap mode strict F1") // 0.829; 0.901 without the rule
	if testing.Short() || !dataset.LongEnabled() {
		return
	}
	measure("Overlap, MinOverlap 1", Config{Language: en, MinOverlap: 1})
	measure("Exact, ClipSentences", Config{Language: en, ClipSentences: true})
	for _, th := range []float64{0.04, 0.1, 0.3} {
		measure(fmt.Sprintf("Jaccard ≥ %.2f", th), Config{Language: en, Mode: Jaccard, Threshold: th})
	}
	for _, th := range []float64{0.04, 0.1, 0.3} {
		measure(fmt.Sprintf("Overlap ≥ %.2f", th), Config{Language: en, Mode: Overlap, Threshold: th})
	}
}

// TestTTC3600ExactDuplicates checks that every pair of byte-identical texts
// of TTC-3600 (Turkish) is reported, in every mode (by default among every
// fourth of the other texts: testkit.ExactSample).
func TestTTC3600ExactDuplicates(t *testing.T) {
	recs := testkit.ExactSample(dataset.ForTest(t, "ttc3600.jsonl"))
	twins := dataset.ExactGroups(recs)
	for _, mode := range []Mode{Exact, Jaccard, Overlap} {
		d, err := New(Config{Mode: mode})
		require.NoError(t, err)
		for _, r := range recs {
			_, err := d.Add(detector.Doc{ID: r.ID, Text: r.Text})
			require.NoError(t, err)
		}
		groups, found, pairs, foundPairs := 0, 0, 0, 0
		for _, ids := range twins {
			groups++
			all := true
			for i, a := range ids {
				ms, err := d.Containers(a)
				require.NoError(t, err)
				got := map[string]bool{}
				for _, m := range ms {
					got[m.ID] = true
				}
				for _, b := range ids[i+1:] {
					pairs++
					if got[b] {
						foundPairs++
					} else {
						all = false
					}
				}
			}
			if all {
				found++
			}
		}
		t.Logf("%s: exact-duplicate groups found %d/%d, pairs %d/%d", mode, found, groups, foundPairs, pairs)
		assert.Equal(t, groups, found, "%s: exact-duplicate groups found", mode)
		assert.Greater(t, groups, 100, "TTC-3600 has about 160 duplicate groups")
		require.NoError(t, d.Close())
	}
}
