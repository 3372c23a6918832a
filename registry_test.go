package neardup

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/imatch"
	"github.com/seed-9ef9c1df/neardup/minhash"
	"github.com/seed-9ef9c1df/neardup/shingle"
	"github.com/seed-9ef9c1df/neardup/simhash"
	"github.com/seed-9ef9c1df/neardup/textproc"
	"github.com/seed-9ef9c1df/neardup/tweezer"
)

func TestEveryNameBuilds(t *testing.T) {
	require.Len(t, Names(), 15)
	for _, name := range Names() {
		info, err := Lookup(name)
		require.NoError(t, err)
		for _, lang := range []string{"", "en", "tr"} {
			opts := map[string]string{"language": lang}
			if !slices.Contains(info.Options, "Language") {
				opts = nil // mrcosine and the reference are language-independent
			}
			d, err := New(name, opts)
			if name == "simhash-spots" && lang == "" {
				require.ErrorIs(t, err, detector.ErrInvalidConfig, "spot signatures need a stopword list")
				continue
			}
			require.NoError(t, err, "%s, Language %q", name, lang)
			ms, err := d.Add(detector.Doc{ID: "a", Text: "The council approved the budget on Monday after a long debate."})
			require.NoError(t, err, name)
			assert.Empty(t, ms)
			require.NoError(t, d.Close())
		}
		assert.Equal(t, name, info.Name)
		for _, f := range info.Fixed {
			assert.NotContains(t, info.Options, f, "%s: a fixed field is not an option", name)
		}
	}
}

func TestNamesFixWhatTheyName(t *testing.T) {
	d, err := New("dsc", nil)
	require.NoError(t, err)
	assert.Equal(t, shingle.DSC, d.(*shingle.Detector).Config().Method)
	d, err = New("minhash-containment", nil)
	require.NoError(t, err)
	assert.Equal(t, minhash.Containment, d.(*minhash.Detector).Config().Mode)
}

func TestPresetValuesAreOverridable(t *testing.T) {
	d, err := New("simhash-spots", nil)
	require.NoError(t, err)
	assert.Equal(t, 20, d.(*simhash.Detector).Config().K)
	d, err = New("simhash-spots", map[string]string{"K": "10"})
	require.NoError(t, err)
	cfg := d.(*simhash.Detector).Config()
	assert.Equal(t, 10, cfg.K, "an option overrides the preset's value")
	assert.Equal(t, simhash.FeatureSpots, cfg.Features, "and the fixed field stays")
}

func TestNewErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		opts map[string]string
		want string
	}{
		{"nope", nil, `unknown detector "nope"`},
		{"codet", map[string]string{"Nope": "1"}, `unknown option "Nope"`},
		{"ffp", map[string]string{"method": "2"}, "option Method is fixed"},
		{"tweezer-exact", map[string]string{"Mode": "0"}, "option Mode is fixed"},
		{"mrcosine-centered", map[string]string{"Centered": "false"}, "option Centered is fixed"},
		{"minhash", map[string]string{"Threshold": "high"}, `option Threshold: "high" is not a number (want a decimal float in (0, 1])`},
		{"minhash", map[string]string{"Threshold": "1e999"}, `option Threshold: "1e999" is out of range (want a decimal float in (0, 1])`},
		{"codet", map[string]string{"Language": "xx-!!"}, "Language"},
		{"shingle", nil, `unknown detector "shingle"`},
	} {
		_, err := New(c.name, c.opts)
		require.Error(t, err, c.name)
		assert.ErrorIs(t, err, detector.ErrInvalidConfig, c.name)
		assert.Contains(t, err.Error(), c.want, c.name)
	}
	_, err := Lookup("nope")
	assert.ErrorIs(t, err, detector.ErrInvalidConfig)
}

// TestNewRejects: the options the registry used to accept wrongly (one of
// two keys differing in case silently won, "0x10" was 16, a field the name
// never reads was ignored, "-Inf" and "t" passed, a negative shingle
// length reached the reference) and the errors that now say what the
// option wants. Every case before the last group built a detector before.
func TestNewRejects(t *testing.T) {
	for _, c := range []struct {
		name string
		opts map[string]string
		want string
	}{
		{"ffp", map[string]string{"threshold": "0.3", "THRESHOLD": "0.5"},
			`options "THRESHOLD" and "threshold" name the same field`},
		{"minhash", map[string]string{"NumHashes": "0x10"}, `option NumHashes: "0x10" is not a number (want a decimal integer in [0, 4096])`},
		{"dsc", map[string]string{"Modulus": "0b11"}, `option Modulus: "0b11" is not a number (want a decimal integer ≥ 0)`},
		{"codet", map[string]string{"DepthThreshold": "0o7"}, `option DepthThreshold: "0o7" is not a number (want a decimal integer in [0, 64])`},
		{"codet", map[string]string{"DepthThreshold": "07"}, ""}, // leading zeros are decimal: accepted
		{"imatch", map[string]string{"MaxResults": "1_000"}, `option MaxResults: "1_000" is not a number`},
		{"ffp", map[string]string{"Threshold": "0x1p-2"}, `option Threshold: "0x1p-2" is not a number (want a decimal float in (0, 1])`},
		{"spotsigs", map[string]string{"MinIDF": "-Inf"}, `option MinIDF: "-Inf" is not a number (want a decimal float < MaxIDF)`},
		{"simhash", map[string]string{"Seed": "0x7"}, `option Seed: "0x7" is not a number (want a decimal integer in [0, 18446744073709551615])`},
		{"imatch", map[string]string{"KeepStopwords": "t"}, `option KeepStopwords: "t" is not a boolean (want true or false)`},
		{"codet", map[string]string{"Collapse": "0x2"}, `option Collapse: "0x2" names no Collapse (want one of exact (0), off (1), near (2))`},
		{"reference", map[string]string{"Shingle": "-3"}, `option Shingle: "-3" is out of range (want a decimal integer in [0, 64])`},
		// Fields the name does not read.
		{"ffp", map[string]string{"ChainLength": "5"}, "option ChainLength is not used by ffp (its options: Language, KeepStopwords, Stemmer, PrefixLen, Threshold, Shingle, MinOverlap, Content, MaxTextBytes, MaxResults)"},
		{"dsc", map[string]string{"antecedents": "the"}, "option Antecedents is not used by dsc"},
		{"spotsigs", map[string]string{"Stemmer": "1"}, "option Stemmer is not used by spotsigs"},
		{"minhash", map[string]string{"Sampler": "2"}, "option Sampler is not used by minhash"},
		{"minhash-weighted", map[string]string{"Scheme": "1"}, "option Scheme is not used by minhash-weighted"},
		{"minhash-containment", map[string]string{"Bands": "4", "Rows": "4"}, "option Bands is not used by minhash-containment"},
		{"tweezer-exact", map[string]string{"Threshold": "0.5"}, "option Threshold is not used by tweezer-exact"},
		{"simhash-spots", map[string]string{"KeepStopwords": "true"}, "option KeepStopwords is not used by simhash-spots"},
		// Rejected before too: with strconv's words, as "not a BCP 47 tag",
		// by the package (the range), or as an unknown option (the key was
		// not trimmed).
		{"tweezer", map[string]string{"Prefix": "65537"}, `option Prefix: "65537" is out of range (want a decimal integer in [0, 65536])`},
		{"codet", map[string]string{"Language": "en", " language": "tr"},
			`options " language" and "Language" name the same field`},
		{"minhash", map[string]string{"Threshold": "abc"}, `option Threshold: "abc" is not a number (want a decimal float in (0, 1])`},
		{"simhash", map[string]string{"K": "1e3"}, `option K: "1e3" is not an integer (want a decimal integer ≤ 64)`},
		{"codet", map[string]string{"Language": "zz"}, `option Language: "zz" is a well-formed but unknown language tag (want a known BCP 47 tag: textproc has rules for en, tr, az;`},
	} {
		t.Run(c.name+fmt.Sprint(c.opts), func(t *testing.T) {
			d, err := New(c.name, c.opts)
			if c.want == "" {
				require.NoError(t, err)
				require.NoError(t, d.Close())
				return
			}
			require.ErrorIs(t, err, detector.ErrInvalidConfig)
			assert.Contains(t, err.Error(), c.want)
			assert.True(t, strings.HasPrefix(err.Error(), "neardup: "+c.name+": "), "New(%q) = %v, want an error prefixed with the name", c.name, err)
		})
	}
}

// TestOptionValues: names of choices, trimmed values and decimal numbers
// reach the Config.
func TestOptionValues(t *testing.T) {
	for _, c := range []struct {
		name  string
		opts  map[string]string
		field string
		want  any
	}{
		{"ffp", map[string]string{"Content": "all"}, "Content", textproc.ContentAll},
		{"ffp", map[string]string{"Content": " Main "}, "Content", textproc.ContentMain},
		{"ffp", map[string]string{"Content": "ContentAll"}, "Content", textproc.ContentAll},
		{"ffp", map[string]string{"Content": "1"}, "Content", textproc.ContentAll},
		{"ffp", map[string]string{"Stemmer": "none"}, "Stemmer", textproc.StemNone},
		{"codet", map[string]string{"Collapse": "NEAR"}, "Collapse", codet.CollapseNear},
		{"codet", map[string]string{"Mode": "pairwise"}, "Mode", codet.ModePairwise},
		{"codet", map[string]string{"IDF": "online"}, "IDF", codet.IDFOnline},
		{"dsc", map[string]string{"Sampling": "stride"}, "Sampling", shingle.SampleStride},
		{"minhash", map[string]string{"Scheme": "khash"}, "Scheme", minhash.KHash},
		{"minhash-weighted", map[string]string{"Sampler": "icws"}, "Sampler", minhash.IoffeICWS},
		{"minhash-weighted", map[string]string{"Sampler": "PackedDarts"}, "Sampler", minhash.PackedDarts},
		{"minhash-weighted", map[string]string{"Weighting": "ln-df-pow"}, "Weighting", minhash.WeightLnDFPow},
		{"minhash-weighted", map[string]string{"Scale": "log-idf"}, "Scale", minhash.ScaleLogIDF},
		{"minhash-weighted", map[string]string{"Rare": "percentile"}, "Rare", minhash.RarePercentile},
		{"simhash", map[string]string{"Features": "char-ngrams"}, "Features", simhash.FeatureCharNGrams},
		{"simhash", map[string]string{"Weights": "tf-idf"}, "Weights", simhash.WeightTFIDF},
		{"imatch", map[string]string{"Selection": "band"}, "Selection", imatch.SelectBand},
		{"imatch", map[string]string{"Encoding": "concat"}, "Encoding", imatch.EncodeConcat},
		{"tweezer", map[string]string{"Mode": "Jaccard"}, "Mode", tweezer.Jaccard},
		{"minhash", map[string]string{"Threshold": " 0.3\t"}, "Threshold", 0.3},
		{"minhash", map[string]string{"Threshold": "+.5e0"}, "Threshold", 0.5},
		{"minhash", map[string]string{"threshold": "3E-1"}, "Threshold", 0.3},
		{"minhash", map[string]string{"Seed": "18446744073709551615"}, "Seed", uint64(math.MaxUint64)},
		{"simhash", map[string]string{"K": "-1"}, "K", -1},
		{"simhash", map[string]string{"K": "+7"}, "K", 7},
		{"imatch", map[string]string{"KeepStopwords": "TRUE"}, "KeepStopwords", true},
		{"imatch", map[string]string{"KeepStopwords": "1"}, "KeepStopwords", true},
		{"codet", map[string]string{"Language": " en "}, "Language", "en"},
		{"mrcosine", map[string]string{"T2": "9e-1"}, "T2", 0.9},
	} {
		d, err := New(c.name, c.opts)
		require.NoError(t, err, "New(%q, %v)", c.name, c.opts)
		got := reflect.ValueOf(d).MethodByName("Config").Call(nil)[0].FieldByName(c.field).Interface()
		assert.Equal(t, c.want, got, "New(%q, %v): Config().%s", c.name, c.opts, c.field)
		require.NoError(t, d.Close())
	}
}

func TestParseOptions(t *testing.T) {
	got, err := ParseOptions([]string{"Language=tr", "Threshold=0.3", "X="})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"Language": "tr", "Threshold": "0.3", "X": ""}, got)
	for _, bad := range []string{"noequals", "=1"} {
		_, err := ParseOptions([]string{bad})
		assert.ErrorIs(t, err, detector.ErrInvalidConfig, bad)
	}
}

func TestLookupReturnsCopies(t *testing.T) {
	a, err := Lookup("ffp")
	require.NoError(t, err)
	a.Options[0] = "changed"
	b, err := Lookup("ffp")
	require.NoError(t, err)
	assert.NotEqual(t, "changed", b.Options[0])
}

// TestLen: every named detector counts its live documents, and none after
// Close.
func TestLen(t *testing.T) {
	for _, name := range Names() {
		d, err := New(name, nil)
		if name == "simhash-spots" {
			d, err = New(name, map[string]string{"Language": "en"})
		}
		require.NoError(t, err, name)
		l, ok := d.(interface{ Len() int })
		require.True(t, ok, "%s has no Len", name)
		for _, id := range []string{"a", "b"} {
			_, err := d.Add(detector.Doc{ID: id, Text: "The council approved the budget on Monday after a long debate."})
			require.NoError(t, err)
		}
		assert.Equal(t, 2, l.Len(), name)
		if r, ok := d.(detector.Remover); ok {
			require.NoError(t, r.Remove("a"))
			assert.Equal(t, 1, l.Len(), name)
		}
		require.NoError(t, d.Close())
		assert.Zero(t, l.Len(), "%s after Close", name)
	}
}
