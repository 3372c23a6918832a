package imatch

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zeebo/xxh3"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/detectortest"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

func TestConformance(t *testing.T) {
	// Caller tables: one frozen, one that is not (so that the exact-content
	// key is indexed for every document), over the same texts.
	_, tc, err := Config{}.resolve()
	require.NoError(t, err)
	an, err := textproc.NewAnalyzer(tc)
	require.NoError(t, err)
	texts := floodTexts()
	frozen := textproc.BuildIDF(an, texts, false)
	loose := textproc.NewIDF(false)
	for _, text := range texts {
		var terms []string
		for _, tok := range an.Tokens(text) {
			terms = append(terms, tok.Term)
		}
		require.NoError(t, loose.AddDocument(terms))
	}
	for _, tc := range []struct {
		name string
		cfg  Config
		idf  *textproc.IDF // nil: New
	}{
		{"Rank", Config{}, nil},
		{"Band", Config{Selection: SelectBand}, nil},
		{"RankLexicons", Config{Lexicons: 5}, nil},
		{"BandLexiconsConcat", Config{Selection: SelectBand, Lexicons: 3, Encoding: EncodeConcat}, nil},
		{"FrozenIDF", Config{Lexicons: 2}, frozen},
		{"UnfrozenIDF", Config{Selection: SelectBand}, loose},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name != "Rank" && tc.name != "BandLexiconsConcat" && tc.name != "FrozenIDF" {
				if raceEnabled || testing.Short() {
					t.Skip("three configurations are enough under -race and -short")
				}
				// The default run checks both selections, both encodings
				// and a caller's table; the rest follow with NEARDUP_LONG.
				dataset.SkipLong(t)
			}
			detectortest.Run(t, func() detector.Detector {
				var d *Detector
				var err error
				if tc.idf == nil {
					d, err = New(tc.cfg)
				} else {
					d, err = NewWithIDF(tc.cfg, tc.idf)
				}
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
		{Config{Language: "not a tag!"}, "Language"},
		{Config{Stemmer: 7}, "Stemmer (7)"},
		{Config{PrefixLen: -1}, "PrefixLen (-1)"},
		{Config{Selection: 3}, "Selection (3)"},
		{Config{Keep: -1}, "Keep (-1)"},
		{Config{Keep: math.MaxInt}, "Keep (9223372036854775807)"},
		{Config{Skip: math.MaxInt}, "Skip (9223372036854775807)"},
		{Config{BandLow: 0.9, BandHigh: 0.5}, "BandLow (0.9)"},
		{Config{BandHigh: 1.5}, "BandLow (0.2) and BandHigh (1.5)"},
		{Config{MinTerms: -2}, "MinTerms (-2)"},
		{Config{MinTerms: 11}, "MinTerms (11) must not exceed Keep (10)"},
		{Config{Lexicons: -1}, "Lexicons (-1)"},
		{Config{Lexicons: 5000}, "Lexicons (5000)"},
		{Config{LexiconKeep: 1.5}, "LexiconKeep (1.5)"},
		{Config{Encoding: 9}, "Encoding (9)"},
		{Config{MaxTextBytes: -1}, "MaxTextBytes (-1)"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			_, err := New(tc.cfg)
			require.Error(t, err)
			assert.ErrorIs(t, err, detector.ErrInvalidConfig)
			assert.Contains(t, err.Error(), "imatch: "+tc.want)
		})
	}
	_, err := NewWithIDF(Config{}, nil)
	assert.ErrorIs(t, err, detector.ErrInvalidConfig, "NewWithIDF(nil)")
	_, err = NewSigner(Config{}, nil)
	assert.ErrorIs(t, err, detector.ErrInvalidConfig, "NewSigner(nil)")

	d, err := New(Config{Skip: -1, MinTerms: 1})
	require.NoError(t, err)
	assert.Equal(t, -1, d.Config().Skip, "a negative Skip drops none")
	assert.Equal(t, DefaultKeep, d.Config().Keep)
	again, err := New(d.Config())
	require.NoError(t, err)
	assert.Equal(t, d.Config(), again.Config(), "the effective Config builds the same Detector")
}

// idfOf builds a frozen table where term w has document frequency df[w] out
// of n documents.
func idfOf(t *testing.T, n int, df map[string]int) *textproc.IDF {
	t.Helper()
	idf := textproc.NewIDF(false)
	docs := make([][]string, n)
	for w, c := range df {
		require.LessOrEqual(t, c, n)
		for i := range c {
			docs[i] = append(docs[i], w)
		}
	}
	for _, d := range docs {
		require.NoError(t, idf.AddDocument(d))
	}
	idf.Freeze()
	return idf
}

// digestOf is the expected digest of a sorted term list, computed directly
// from the documented encoding.
func digestOf(terms []string, lexicon int, concat bool) Digest {
	var b []byte
	for _, w := range terms {
		if concat {
			b = append(b, w...)
		} else {
			b = hashtab.AppendField(b, w)
		}
	}
	if lexicon == 0 {
		return xxh3.Hash128(b).Bytes()
	}
	return xxh3.Hash128Seed(b, uint64(lexicon)).Bytes()
}

func TestSelectRank(t *testing.T) {
	// 14 terms with distinct document frequencies: a1 is the rarest.
	df := map[string]int{}
	var words []string
	for i := 1; i <= 14; i++ {
		w := fmt.Sprintf("w%02d", i)
		df[w] = i
		words = append(words, w)
	}
	idf := idfOf(t, 100, df)
	cfg := Config{Stemmer: textproc.StemNone, KeepStopwords: true}
	s, err := NewSigner(cfg, idf)
	require.NoError(t, err)
	// Shuffled order and repeats do not matter.
	text := strings.Join(slices.Concat(words[7:], words[:7], words[3:5]), " ")
	got := s.Sign(text)
	require.Len(t, got, 1)
	// Drop w01, w02 (highest idf), keep w03..w12.
	assert.Equal(t, Key{Lexicon: 0, Digest: digestOf(words[2:12], 0, false)}, got[0])

	// Ties in idf are broken by ascending term.
	tie := idfOf(t, 10, map[string]int{"b": 1, "a": 1, "c": 1, "d": 1, "e": 1, "f": 1, "g": 1, "h": 1})
	s, err = NewSigner(Config{Stemmer: textproc.StemNone, KeepStopwords: true, Keep: 5}, tie)
	require.NoError(t, err)
	got = s.Sign("h g f e d c b a")
	require.Len(t, got, 1)
	assert.Equal(t, digestOf([]string{"c", "d", "e", "f", "g"}, 0, false), got[0].Digest)

	// Too few terms: no signature.
	assert.Empty(t, s.Sign("a b c d e f"), "6 terms, skip 2 leaves 4 < MinTerms 5")
	assert.Len(t, s.Sign("a b c d e f g"), 1)
	assert.Empty(t, s.Sign(""))
}

func TestSelectBand(t *testing.T) {
	// N = 99: nidf = ln(100/df)/ln(100). df 1 → 1 (too rare), df 2 → 0.85,
	// df 10 → 0.5, df 40 → 0.199 (too common).
	idf := idfOf(t, 99, map[string]int{"rare": 1, "edge": 2, "mid": 10, "mid2": 11, "mid3": 12, "mid4": 13, "common": 40})
	s, err := NewSigner(Config{Selection: SelectBand, Stemmer: textproc.StemNone, KeepStopwords: true}, idf)
	require.NoError(t, err)
	got := s.Sign("common mid4 rare mid mid3 edge mid2 unseen")
	require.Len(t, got, 1)
	assert.Equal(t, digestOf([]string{"edge", "mid", "mid2", "mid3", "mid4"}, 0, false), got[0].Digest)
	assert.Empty(t, s.Sign("common rare mid mid2 mid3 unseen"), "4 in-band terms < MinTerms")
}

func TestEncoding(t *testing.T) {
	idf := idfOf(t, 10, map[string]int{"ab": 5, "c": 5, "a": 5, "bc": 5})
	for _, tc := range []struct {
		enc     Encoding
		collide bool
	}{{EncodeLengthPrefixed, false}, {EncodeConcat, true}} {
		s, err := NewSigner(Config{Encoding: tc.enc, Stemmer: textproc.StemNone, KeepStopwords: true, Skip: -1, MinTerms: 2}, idf)
		require.NoError(t, err)
		x, y := s.Sign("ab c"), s.Sign("a bc")
		require.Len(t, x, 1)
		require.Len(t, y, 1)
		assert.Equal(t, tc.collide, x[0] == y[0], "encoding %d: %q vs %q", tc.enc, "ab c", "a bc")
		if tc.enc == EncodeConcat {
			assert.Equal(t, digestOf([]string{"ab", "c"}, 0, true), x[0].Digest)
		}
	}
}

// TestLexiconRandomisation: one changed significant term breaks plain
// I-Match but not every random sub-lexicon.
func TestLexiconRandomisation(t *testing.T) {
	df := map[string]int{}
	var words []string
	for i := range 30 {
		w := fmt.Sprintf("t%02d", i)
		df[w] = 3 + i
		words = append(words, w)
	}
	df["zz"] = 5
	idf := idfOf(t, 200, df)
	a := strings.Join(words, " ")
	// Replace a selected term (t05: rank 6) with another of similar idf.
	b := strings.Replace(a, "t05", "zz", 1)
	for _, k := range []int{0, 10} {
		d, err := NewWithIDF(Config{Stemmer: textproc.StemNone, KeepStopwords: true, Lexicons: k, Seed: 1}, idf)
		require.NoError(t, err)
		_, err = d.Add(detector.Doc{ID: "a", Text: a})
		require.NoError(t, err)
		ms, err := d.Add(detector.Doc{ID: "b", Text: b})
		require.NoError(t, err)
		if k == 0 {
			assert.Empty(t, ms, "plain I-Match separates documents differing in a selected term")
			continue
		}
		require.Len(t, ms, 1, "with %d random lexicons", k)
		assert.Equal(t, "a", ms[0].ID)
		assert.Greater(t, ms[0].Score, 0.0)
		assert.Less(t, ms[0].Score, 1.0)
		sig, err := d.Signature("a")
		require.NoError(t, err)
		assert.Len(t, sig, k+1)
		for j, key := range sig {
			assert.Equal(t, j, key.Lexicon)
		}
	}
}

func TestLexiconMembership(t *testing.T) {
	s, err := NewSigner(Config{Lexicons: 4, LexiconKeep: 0.3, Seed: 9, Stemmer: textproc.StemNone}, textproc.NewIDF(false))
	require.NoError(t, err)
	var text []string
	for i := range 2000 {
		text = append(text, fmt.Sprintf("term%d", i))
	}
	s.analyze(strings.Join(text, " "))
	for j := 1; j <= 4; j++ {
		kept := 0
		for i := range s.uniq {
			if s.inLexicon(cand{term: s.terms[i], id: s.uniq[i]}, j) {
				kept++
			}
		}
		assert.InDelta(t, 0.3, float64(kept)/float64(len(s.uniq)), 0.04, "lexicon %d keeps about LexiconKeep of the terms", j)
	}
}

func TestClusterAndRemove(t *testing.T) {
	idf := idfOf(t, 50, map[string]int{"a": 2, "b": 3, "c": 4, "d": 5, "e": 6, "f": 7, "g": 8, "h": 9})
	d, err := NewWithIDF(Config{Stemmer: textproc.StemNone, KeepStopwords: true, Keep: 5}, idf)
	require.NoError(t, err)
	for id, text := range map[string]string{
		"x1": "a b c d e f g",
		"x2": "g f e d c b a a a",
		"x3": "a b c d e f g h", // h is the most common: not selected
		"y1": "a b c d e f h",   // f selected instead of g
		"z":  "a b",
	} {
		_, err := d.Add(detector.Doc{ID: id, Text: text})
		require.NoError(t, err)
	}
	c, err := d.Cluster("x2")
	require.NoError(t, err)
	assert.Equal(t, []string{"x1", "x2", "x3"}, c)
	c, err = d.Cluster("z")
	require.NoError(t, err)
	assert.Equal(t, []string{"z"}, c, "a document without signature is alone")
	ms, err := d.Containers("x1")
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "x2", Score: 1}, {ID: "x3", Score: 1}}, ms)
	require.NoError(t, d.Remove("x2"))
	c, err = d.Cluster("x1")
	require.NoError(t, err)
	assert.Equal(t, []string{"x1", "x3"}, c)
	_, err = d.Cluster("x2")
	assert.ErrorIs(t, err, detector.ErrUnknownID)
	_, err = d.Signature("x2")
	assert.ErrorIs(t, err, detector.ErrUnknownID)
	assert.Equal(t, 4, d.Len())
	require.NoError(t, d.Close())
	_, err = d.Cluster("x1")
	assert.ErrorIs(t, err, detector.ErrClosed)
	assert.True(t, errors.Is(d.Remove("x1"), detector.ErrClosed))
}

// TestExactKeyOnlyWhenOnline: a frozen table needs no exact-content key.
func TestExactKeyOnlyWhenOnline(t *testing.T) {
	frozen := idfOf(t, 3, map[string]int{"a": 1})
	d, err := NewWithIDF(Config{}, frozen)
	require.NoError(t, err)
	assert.False(t, d.alg.exact)
	d, err = NewWithIDF(Config{}, textproc.NewIDF(false))
	require.NoError(t, err)
	assert.True(t, d.alg.exact)
	// Short exact duplicates (fewer than MinTerms terms) are still reported
	// by an online detector.
	d, err = New(Config{})
	require.NoError(t, err)
	_, err = d.Add(detector.Doc{ID: "p", Text: "Breaking news"})
	require.NoError(t, err)
	ms, err := d.Add(detector.Doc{ID: "q", Text: "breaking NEWS!"})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "p", Score: 1}}, ms)
	assert.Equal(t, int64(2), d.IDF().N(), "the owned table counts every added document")
}

func TestSignerAllocs(t *testing.T) {
	idf := idfOf(t, 100, map[string]int{"storm": 3, "harbour": 5, "coast": 7, "power": 9})
	s, err := NewSigner(Config{Lexicons: 3}, idf)
	require.NoError(t, err)
	text := "Heavy rain and winds swept across the northern coast on Tuesday, cutting power to homes and closing the main harbour for the second time this month as the storm moved inland."
	dst := s.AppendSign(nil, text)
	allocs := testing.AllocsPerRun(100, func() { dst = s.AppendSign(dst[:0], text) })
	assert.Zero(t, allocs, "AppendSign allocates in the steady state")
}
