package simhash

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// collectionIDF counts every document of recs under the analysis of cfg and
// freezes the table: the "recalculate IDF values for each collection" option
// (Uyar 2009 §2.2.3). No label is read.
func collectionIDF(t testing.TB, cfg Config, recs []dataset.Record) *textproc.IDF {
	t.Helper()
	_, tc, err := cfg.resolve()
	require.NoError(t, err)
	an, err := textproc.NewAnalyzer(tc)
	require.NoError(t, err)
	return textproc.BuildIDF(an, dataset.Texts(recs), false)
}

// distances runs a detector of radius maxK over docs and returns the Hamming
// distance of every reported pair.
func distances(t testing.TB, d detector.Detector, docs []detector.Doc) map[eval.Pair]int {
	t.Helper()
	edges, err := eval.Relations(d, docs, nil)
	require.NoError(t, err)
	out := map[eval.Pair]int{}
	for p, s := range eval.Pairs(edges) {
		out[p] = int(math.Round((1 - s) * 64))
	}
	return out
}

func within(ds map[eval.Pair]int, k int) map[eval.Pair]float64 {
	out := map[eval.Pair]float64{}
	for p, d := range ds {
		if d <= k {
			out[p] = 1 - float64(d)/64
		}
	}
	return out
}

// TestGoldSetQuality measures pair-level precision, recall and F1 on
// goldset-dev.jsonl (strict: same cluster; lenient: sibling clusters count)
// for K = 1..6 and a wider sweep, for the seed's configuration and the
// alternatives (with NEARDUP_LONG). Floors sit a little below the measured
// values.
func TestGoldSetQuality(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("quality evaluation: not under -short or -race")
	}
	recs := dataset.ForTest(t, "goldset-dev.jsonl")
	docs := dataset.Docs(recs)
	truth := eval.ClusterTruth{}
	for _, r := range recs {
		truth[r.ID] = r.Cluster
	}
	en := func(c Config) Config { c.Language = "en"; c.K = 24; return c }
	peer := Config{KeepStopwords: true, Stemmer: textproc.StemNone, Weights: WeightTF, SkipTop: -1}
	for _, tc := range []struct {
		name   string
		cfg    Config
		online bool
		floorK int     // K at which the floor applies
		floor  float64 // strict F1 floor
	}{
		{"seed: words idf skip2", en(Config{}), false, 24, 0.33},
		{"seed, online idf", en(Config{}), true, 23, 0.34},
		{"words tf·idf", en(Config{Weights: WeightTFIDF}), false, 23, 0.46},
		{"words unit", en(Config{Weights: WeightUnit, SkipTop: -1}), false, 20, 0.45},
		{"peer-like: words tf", en(peer), false, 10, 0.37},
		{"python-like: char 4-grams tf", en(Config{KeepStopwords: true, Stemmer: textproc.StemNone, Weights: WeightTF, SkipTop: -1, Features: FeatureCharNGrams}), false, 14, 0.40},
		{"word 3-grams idf", en(Config{Features: FeatureWordNGrams}), false, 24, 0.35},
		{"word 3-grams unit", en(Config{Features: FeatureWordNGrams, Weights: WeightUnit, SkipTop: -1}), false, 23, 0.45},
		{"spots c=1 tf", en(Config{Features: FeatureSpots, Weights: WeightTF, SkipTop: -1}), false, 20, 0.71},
		{"spots c=2 tf", en(Config{Features: FeatureSpots, Weights: WeightTF, SkipTop: -1, N: 2}), false, 22, 0.70},
		{"spots c=1 tf·idf", en(Config{Features: FeatureSpots, Weights: WeightTFIDF, SkipTop: -1}), false, 22, 0.67},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name != "seed: words idf skip2" && tc.name != "seed, online idf" {
				dataset.SkipLong(t)
			}
			var d *Detector
			var err error
			if tc.online {
				d, err = New(tc.cfg)
			} else {
				d, err = NewWithIDF(tc.cfg, collectionIDF(t, tc.cfg, recs))
			}
			require.NoError(t, err)
			defer d.Close()
			ds := distances(t, d, docs)
			var line string
			best, bestK := 0.0, 0
			for k := 0; k <= 24; k++ {
				found := within(ds, k)
				s, l := truth.Score(found, false), truth.Score(found, true)
				if k >= 1 && k <= 6 || k%2 == 0 && k >= 10 {
					line += fmt.Sprintf("\n  K=%2d strict %v | lenient P %.3f R %.3f F1 %.3f", k, s, l.Precision(), l.Recall(), l.F1())
				}
				if s.F1() > best {
					best, bestK = s.F1(), k
				}
				if k == tc.floorK {
					assert.GreaterOrEqual(t, s.F1(), tc.floor, "strict F1 at K=%d", k)
				}
			}
			t.Logf("%s: best strict F1 %.3f at K=%d%s", tc.name, best, bestK, line)
		})
	}
}

func TestExactDuplicates(t *testing.T) {
	if raceEnabled {
		t.Skip("collection-size test: not under -race")
	}
	testkit.CheckExactDuplicates(t, func(t *testing.T, lang string, recs []dataset.Record, online bool) detector.Detector {
		cfg := Config{Language: lang}
		var d *Detector
		var err error
		if online {
			d, err = New(cfg)
		} else {
			d, err = NewWithIDF(cfg, collectionIDF(t, cfg, recs))
		}
		require.NoError(t, err)
		return d
	})
}
