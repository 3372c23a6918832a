package simhash

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/detectortest"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

func TestConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"Default", Config{}},
		{"PeerLike", Config{KeepStopwords: true, Stemmer: textproc.StemNone, Weights: WeightTF, SkipTop: -1}},
		{"WordNGramsK6", Config{Features: FeatureWordNGrams, K: 6}},
		{"CharNGramsTFIDF", Config{Features: FeatureCharNGrams, Weights: WeightTFIDF, K: 1}},
		{"ScanK14", Config{Weights: WeightUnit, K: 14}},
		{"SpotsTF", Config{Language: "en", Features: FeatureSpots, Weights: WeightTF, SkipTop: -1, K: 16}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name != "Default" && tc.name != "PeerLike" {
				if raceEnabled || testing.Short() {
					t.Skip("one feature configuration is enough under -race and -short")
				}
				// The default run checks the two word configurations;
				// the other features follow with NEARDUP_LONG.
				dataset.SkipLong(t)
			}
			detectortest.Run(t, func() detector.Detector {
				d, err := New(tc.cfg)
				if err != nil {
					panic(err)
				}
				return d
			}, detectortest.Options{Symmetric: true})
		})
	}
}

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Language: "??"}, "Language"},
		{Config{Stemmer: 5}, "Stemmer (5)"},
		{Config{PrefixLen: -3}, "PrefixLen (-3)"},
		{Config{Features: 5}, "Features (5)"},
		{Config{Features: FeatureSpots, Language: "de"}, "Features FeatureSpots needs a Language with stopwords"},
		{Config{Features: FeatureWordNGrams, N: -1}, "N (-1)"},
		{Config{Features: FeatureCharNGrams, N: 65}, "N (65)"},
		{Config{Weights: 4}, "Weights (4)"},
		{Config{K: 65}, "K (65)"},
		{Config{Blocks: 70}, "Blocks (70)"},
		{Config{K: 8, Blocks: 20}, "Blocks (20) with K (8) needs C(20, 12) = 125970 tables"},
		{Config{MaxTextBytes: -1}, "MaxTextBytes (-1)"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			_, err := New(tc.cfg)
			require.Error(t, err)
			assert.ErrorIs(t, err, detector.ErrInvalidConfig)
			assert.Contains(t, err.Error(), "simhash: "+tc.want)
		})
	}
	_, err := NewSigner(Config{}, nil)
	assert.ErrorIs(t, err, detector.ErrInvalidConfig, "NewSigner without a table, with idf weights")
	_, err = NewWithIDF(Config{}, nil)
	assert.ErrorIs(t, err, detector.ErrInvalidConfig, "NewWithIDF(nil) with idf weights")
	s, err := NewSigner(Config{Weights: WeightTF, SkipTop: -1}, nil)
	require.NoError(t, err, "no table needed without idf")
	_, ok := s.Sign("one two three")
	assert.True(t, ok)

	d, err := New(Config{K: -1, SkipTop: -5})
	require.NoError(t, err)
	assert.Equal(t, -1, d.Config().K)
	inspect(d, func(ix *index, _ *ownIndex, _ int) { assert.Equal(t, 0, ix.ham.K(), "a negative K means 0") })
	assert.Equal(t, -1, d.Config().SkipTop)
}

// TestTable42 reproduces Varol 2012 Table 4.2 ("NASDAQ starts day with an
// increase.", 4-bit hashes): sums 0.08, 0.16, −0.02, −0.14 give 1100. The
// table's 1st bit is the hash's leftmost; here bit i of a hash is bit i.
func TestTable42(t *testing.T) {
	h := func(s string) uint64 { // "1100" → bits 0,1 set
		var v uint64
		for i, c := range s {
			if c == '1' {
				v |= 1 << i
			}
		}
		return v
	}
	hashes := []uint64{h("1100"), h("1011"), h("0100"), h("1111"), h("1000"), h("0110")}
	weights := []float64{0.10, 0.04, 0.03, 0.02, 0.01, 0.06}
	fp := Fingerprint(hashes, weights)
	assert.Equal(t, h("1100"), fp&0xf, "the 4 bits of Table 4.2")
	// The other 60 bits are 0 in every hash: V_i = −0.26 < 0.
	assert.Zero(t, fp>>4)
	// A tie gives 0.
	assert.Equal(t, uint64(0), Fingerprint([]uint64{1, 0}, []float64{1, 1}))
	assert.Panics(t, func() { Fingerprint([]uint64{1}, nil) })
}

// TestFastPathsMatchFingerprint: the Signer's table-driven float and SWAR
// integer accumulations equal the reference Fingerprint.
func TestFastPathsMatchFingerprint(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	words := make([]string, 300)
	for i := range words {
		words[i] = fmt.Sprintf("w%dx", i)
	}
	idf := textproc.NewIDF(false)
	for range 50 {
		var doc []string
		for range 40 {
			doc = append(doc, words[r.IntN(len(words))])
		}
		require.NoError(t, idf.AddDocument(doc))
	}
	idf.Freeze()
	for _, w := range []Weights{WeightIDF, WeightUnit, WeightTF, WeightTFIDF} {
		s, err := NewSigner(Config{Weights: w, SkipTop: -1, Stemmer: textproc.StemNone, Seed: 3}, idf)
		require.NoError(t, err)
		for trial := range 30 {
			n := 1 + r.IntN(2000) // long documents overflow the byte lanes
			var text []string
			counts := map[string]int{}
			var order []string
			for range n {
				wd := words[r.IntN(1+trial*10)]
				text = append(text, wd)
				if counts[wd] == 0 {
					order = append(order, wd)
				}
				counts[wd]++
			}
			var hs []uint64
			var ws []float64
			for _, wd := range order {
				hs = append(hs, hashtab.String64(wd, 3))
				switch w {
				case WeightIDF:
					ws = append(ws, idf.Weight(wd))
				case WeightUnit:
					ws = append(ws, 1)
				case WeightTF:
					ws = append(ws, float64(counts[wd]))
				case WeightTFIDF:
					ws = append(ws, float64(counts[wd])*idf.Weight(wd))
				}
			}
			got, ok := s.Sign(strings.Join(text, " "))
			require.True(t, ok)
			assert.Equal(t, Fingerprint(hs, ws), got, "weights %d, trial %d", w, trial)
		}
	}
}

func TestSkipTop(t *testing.T) {
	idf := textproc.NewIDF(false)
	for i := range 20 {
		doc := []string{"common"}
		if i < 2 {
			doc = append(doc, "rare1", "rare2")
		}
		if i < 10 {
			doc = append(doc, "mid")
		}
		require.NoError(t, idf.AddDocument(doc))
	}
	idf.Freeze()
	for _, skip := range []int{-1, 1, 2, 3} {
		s, err := NewSigner(Config{SkipTop: skip, Stemmer: textproc.StemNone, KeepStopwords: true}, idf)
		require.NoError(t, err)
		got, ok := s.Sign("common rare2 mid rare1 unseen")
		// Ranked by idf: unseen (log 20), rare1 = rare2 (log 10, ties by hash), mid, common.
		feats := []string{"unseen", "rare1", "rare2", "mid", "common"}
		if hashtab.String64("rare2", 0) < hashtab.String64("rare1", 0) {
			feats[1], feats[2] = feats[2], feats[1]
		}
		kept := feats[max(skip, 0):]
		var hs []uint64
		var ws []float64
		for _, f := range kept {
			hs = append(hs, hashtab.String64(f, 0))
			ws = append(ws, idf.Weight(f))
		}
		want := Fingerprint(hs, ws)
		assert.Equal(t, want != 0 || len(kept) > 0 && ws[0] > 0, ok)
		assert.Equal(t, want, got, "SkipTop %d", skip)
	}
}

func TestNoFeatures(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	for _, id := range []string{"a", "b", "c"} {
		ms, err := d.Add(detector.Doc{ID: id, Text: "... !!!"})
		require.NoError(t, err)
		assert.Empty(t, ms)
	}
	_, ok, err := d.Fingerprint("a")
	require.NoError(t, err)
	assert.False(t, ok, "a text without terms has no fingerprint")
	// Two words: both dropped by SkipTop 2, no features left, but the exact
	// copy is still reported through the exact-content digest.
	_, err = d.Add(detector.Doc{ID: "p", Text: "Breaking news"})
	require.NoError(t, err)
	ms, err := d.Add(detector.Doc{ID: "q", Text: "breaking NEWS"})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "p", Score: 1}}, ms)
}

func TestFeatures(t *testing.T) {
	text := "the quick brown fox jumps over the lazy dog"
	for _, tc := range []struct {
		cfg   Config
		feats int
	}{
		{Config{}, 8},                            // unique words
		{Config{Features: FeatureWordNGrams}, 7}, // 9 words → 7 trigrams
		{Config{Features: FeatureWordNGrams, N: 20}, 1},
		{Config{Features: FeatureCharNGrams, N: 3}, len(text) - 2 - 2}, // "the", "he " repeat
		{Config{Features: FeatureCharNGrams, N: 60}, 1},
		{Config{Features: FeatureSpots, Language: "en"}, 2},       // the→quick; over→lazy and the→lazy
		{Config{Features: FeatureSpots, Language: "en", N: 2}, 2}, // quick:brown, lazy:dog
		{Config{Features: FeatureSpots, Language: "en", N: 5}, 1}, // quick brown fox jumps lazy
	} {
		tc.cfg.Stemmer, tc.cfg.KeepStopwords, tc.cfg.SkipTop, tc.cfg.Weights = textproc.StemNone, true, -1, WeightUnit
		s, err := NewSigner(tc.cfg, nil)
		require.NoError(t, err)
		_, ok := s.Sign(text)
		require.True(t, ok)
		assert.Len(t, s.feats, tc.feats, "%+v", tc.cfg)
	}
}

func TestDetectorDistances(t *testing.T) {
	// Near-duplicates by construction: documents sharing most words. The
	// detector must report exactly the pairs whose fingerprints are within K.
	r := rand.New(rand.NewPCG(8, 9))
	vocab := make([]string, 400)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("v%03dq", i)
	}
	var texts []string
	for range 40 {
		base := make([]string, 60)
		for i := range base {
			base[i] = vocab[r.IntN(len(vocab))]
		}
		texts = append(texts, strings.Join(base, " "))
		for range 3 {
			v := append([]string(nil), base...)
			for range r.IntN(6) {
				v[r.IntN(len(v))] = vocab[r.IntN(len(vocab))]
			}
			texts = append(texts, strings.Join(v, " "))
		}
	}
	for _, k := range []int{2, 3, 6, 13} {
		d, err := New(Config{K: k, Weights: WeightUnit, SkipTop: -1, Stemmer: textproc.StemNone})
		require.NoError(t, err)
		fps := map[string]uint64{}
		for i, text := range texts {
			id := fmt.Sprintf("d%03d", i)
			_, err := d.Add(detector.Doc{ID: id, Text: text})
			require.NoError(t, err)
			fps[id], _, _ = d.Fingerprint(id)
		}
		pairs := 0
		for a, fa := range fps {
			got, err := d.Containers(a)
			require.NoError(t, err)
			want := []detector.Match{}
			for b, fb := range fps {
				if a != b && Distance(fa, fb) <= k {
					want = append(want, detector.Match{ID: b, Score: Score(fa, fb)})
				}
			}
			detector.SortMatches(want)
			assert.Equal(t, want, got, "Containers(%q) at K=%d", a, k)
			pairs += len(want)
		}
		t.Logf("K=%d: %d directed pairs", k, pairs)
		assert.Positive(t, pairs)
	}
}

func TestSignerAllocs(t *testing.T) {
	idf := textproc.NewIDF(false)
	require.NoError(t, idf.AddDocument([]string{"storm", "coast"}))
	require.NoError(t, idf.AddDocument([]string{"storm"}))
	idf.Freeze()
	text := "Heavy rain and winds swept across the northern coast on Tuesday, cutting power to homes and closing the main harbour for the second time this month as the storm moved inland."
	for _, cfg := range []Config{{}, {Weights: WeightTF, SkipTop: -1}, {Features: FeatureWordNGrams}, {Features: FeatureCharNGrams}} {
		s, err := NewSigner(cfg, idf)
		require.NoError(t, err)
		s.Sign(text)
		allocs := testing.AllocsPerRun(100, func() { s.Sign(text) })
		assert.Zero(t, allocs, "Sign with %+v", cfg)
	}
}

// TestLiteMatchesTokens: for configurations without idf the Signer hashes
// terms as it scans them instead of interning them; its fingerprints are
// those of the interned-token path on the first 500 texts of Reuters and
// of TTC-3600 (1,500 with NEARDUP_LONG), for every feature kind that takes
// the lite path and both weightings.
func TestLiteMatchesTokens(t *testing.T) {
	corpora := map[string]string{"reuters21578.jsonl": "en", "ttc3600.jsonl": "tr"}
	for file, lang := range corpora {
		recs := dataset.ForTest(t, file)
		for _, f := range []Features{FeatureWords, FeatureWordNGrams, FeatureSpots} {
			for _, w := range []Weights{WeightUnit, WeightTF} {
				cfg := Config{Language: lang, Features: f, Weights: w, SkipTop: -1}
				lite, err := NewSigner(cfg, nil)
				require.NoError(t, err)
				require.True(t, lite.lite, "%+v takes the lite path", cfg)
				slow, err := NewSigner(cfg, nil)
				require.NoError(t, err)
				slow.lite = false
				for _, r := range recs[:min(len(recs), dataset.LongSize(500, 1500))] {
					a, okA := lite.Sign(r.Text)
					b, okB := slow.Sign(r.Text)
					if a != b || okA != okB { // require only on a difference: its reflection costs more than the comparison
						require.Equal(t, okB, okA, "%s %s %+v", file, r.ID, cfg)
						require.Equal(t, b, a, "%s %s %+v", file, r.ID, cfg)
					}
				}
			}
		}
	}
}
