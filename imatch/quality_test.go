package imatch

import (
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

// TestGoldSetQuality measures pair-level P/R/F1 on goldset-dev.jsonl
// (strict: same cluster; lenient: sibling clusters count as one) for both
// selections, with and without lexicon randomisation, with the collection's
// IDF and with the online table (the defaults by default, the other
// settings with NEARDUP_LONG). Floors sit a little below the measured
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
	for _, tc := range []struct {
		name   string
		cfg    Config
		online bool
		floor  float64 // strict F1
	}{
		{"rank", Config{}, false, 0.003},
		{"rank K=10", Config{Lexicons: 10}, false, 0.007},
		{"rank K=30", Config{Lexicons: 30}, false, 0.011},
		{"rank online", Config{}, true, 0.001},
		{"rank online K=10", Config{Lexicons: 10}, true, 0.004},
		{"band", Config{Selection: SelectBand}, false, 0},
		{"band K=10", Config{Selection: SelectBand, Lexicons: 10}, false, 0.001},
		{"band K=30 keep 0.3", Config{Selection: SelectBand, Lexicons: 30, LexiconKeep: 0.3}, false, 0.006},
		{"band online", Config{Selection: SelectBand}, true, 0},
		{"band online K=10", Config{Selection: SelectBand, Lexicons: 10}, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name != "rank" && tc.name != "rank online" {
				// The defaults (with the collection's table and online)
				// run by default; the alternatives follow with NEARDUP_LONG.
				dataset.SkipLong(t)
			}
			tc.cfg.Language = "en"
			var d *Detector
			var err error
			if tc.online {
				d, err = New(tc.cfg)
			} else {
				d, err = NewWithIDF(tc.cfg, collectionIDF(t, tc.cfg, recs))
			}
			require.NoError(t, err)
			defer d.Close()
			edges, err := eval.Relations(d, docs, nil)
			require.NoError(t, err)
			found := eval.Pairs(edges)
			s, l := truth.Score(found, false), truth.Score(found, true)
			signed := 0
			for _, doc := range docs {
				if k, _ := d.Signature(doc.ID); len(k) > 0 {
					signed++
				}
			}
			t.Logf("%-20s strict %v | lenient P %.3f R %.3f F1 %.3f | %d/%d documents signed", tc.name, s, l.Precision(), l.Recall(), l.F1(), signed, len(docs))
			assert.GreaterOrEqual(t, s.F1(), tc.floor, "strict F1")
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
