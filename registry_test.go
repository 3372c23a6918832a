package neardup

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/imatch"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/minhash"
	"github.com/seed-9ef9c1df/neardup/mrcosine"
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
	// A repeated key used to keep its last value silently.
	_, err = ParseOptions([]string{"Threshold=0.3", "Threshold=0.5"})
	assert.ErrorIs(t, err, detector.ErrInvalidConfig)
	assert.ErrorContains(t, err, `option Threshold given twice ("0.3" and "0.5")`)
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

// enumType reports whether t is a named integer type, which an option
// sets by name (see choices).
func enumType(t reflect.Type) bool {
	return t.PkgPath() != "" && (t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64)
}

// TestOptionsAreFields: every listed option is a settable field of the
// Config, in the Config's order, and neither fixed nor listed twice.
func TestOptionsAreFields(t *testing.T) {
	for _, e := range registry {
		all := settableFields(e.config)
		last := -1
		for _, o := range e.info.Options {
			i := slices.Index(all, o)
			require.GreaterOrEqual(t, i, 0, "%s: option %s is not a settable field of %s", e.info.Name, o, e.config)
			assert.Greater(t, i, last, "%s: option %s out of the Config's order (or repeated)", e.info.Name, o)
			last = i
			assert.NotContains(t, e.info.Fixed, o, e.info.Name)
		}
		for _, f := range e.info.Fixed {
			assert.Contains(t, all, f, "%s: fixed field %s", e.info.Name, f)
		}
	}
}

// TestChoices: every enum option has a table of names; the names agree
// with the type's String method where it has one, are unique, and name
// every value the package accepts (the value after the last is rejected
// by the package itself).
func TestChoices(t *testing.T) {
	for typ, cs := range choices {
		seen := map[string]int64{}
		values := map[int64]bool{}
		stringer := typ.Implements(reflect.TypeFor[fmt.Stringer]())
		for _, c := range cs {
			require.NotEmpty(t, c.names, typ)
			assert.False(t, values[c.value], "%s: value %d named twice", typ, c.value)
			values[c.value] = true
			for _, n := range c.names {
				v, ok := seen[strings.ToLower(n)]
				assert.False(t, ok && v != c.value, "%s: name %q names %d and %d", typ, n, v, c.value)
				seen[strings.ToLower(n)] = c.value
			}
			if stringer {
				v := reflect.New(typ).Elem()
				if v.CanInt() {
					v.SetInt(c.value)
				} else {
					v.SetUint(uint64(c.value))
				}
				s := v.Interface().(fmt.Stringer).String()
				assert.True(t, slices.ContainsFunc(c.names, func(n string) bool { return strings.EqualFold(n, s) }),
					"%s(%d).String() = %q, not among its names %v", typ, c.value, s, c.names)
			}
		}
	}
	for _, e := range registry {
		for _, o := range e.info.Options {
			f, _ := e.config.FieldByName(o)
			if !enumType(f.Type) {
				continue
			}
			cs, ok := choices[f.Type]
			require.True(t, ok, "%s: option %s of type %s has no names in choices", e.info.Name, o, f.Type)
			base := map[string]string{}
			if slices.Contains(e.info.Options, "Language") {
				base["Language"] = "en" // FeatureSpots needs stopwords
			}
			top := int64(0)
			for _, c := range cs {
				top = max(top, c.value)
				for _, val := range []string{c.names[0], strconv.FormatInt(c.value, 10)} {
					d, err := New(e.info.Name, with(base, o, val))
					require.NoError(t, err, "%s: %s=%s", e.info.Name, o, val)
					require.NoError(t, d.Close())
				}
			}
			next := strconv.FormatInt(top+1, 10)
			_, err := New(e.info.Name, with(base, o, next))
			assert.ErrorContains(t, err, "names no "+f.Type.Name(), "%s: %s=%s", e.info.Name, o, next)
			_, err = e.build(with(base, o, next), true)
			assert.ErrorIs(t, err, detector.ErrInvalidConfig, "%s: the package accepts %s=%s, which choices does not name", e.info.Name, o, next)
		}
	}
}

// with returns a copy of opts with k set to v.
func with(opts map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for key, val := range opts {
		if key != k {
			out[key] = val
		}
	}
	return out
}

// rangeCompanions are options set beside a field's bound for the bound to
// be valid: the limits of the simhash index depend on K, and mrcosine's
// derived Bands must stay below MaxBands.
var rangeCompanions = map[string]map[string]string{
	"simhash.Blocks":    {"K": "64"},
	"mrcosine.Rows":     {"Bands": "1"},
	"mrcosine.T2":       {"Exhaustive": "true"},
	"mrcosine.MissRate": {"Exhaustive": "true"},
}

// TestRanges: every numeric option has a range in the notation span reads,
// and each numeric bound is the package's: the value at (or just inside)
// it builds, the value just outside is rejected by the package's New
// itself (with the registry's range checks off), so the registry neither
// lets a bad value through nor refuses a good one. The reference detector
// checks nothing itself: there the registry's range is the check.
func TestRanges(t *testing.T) {
	for _, e := range registry {
		for k := range e.ranges {
			assert.Contains(t, settableFields(e.config), k, "%s: range of an unknown field", e.info.Name)
		}
		for _, o := range e.info.Options {
			f, _ := e.config.FieldByName(o)
			kind := f.Type.Kind()
			numeric := kind >= reflect.Int && kind <= reflect.Float64
			if !numeric || enumType(f.Type) {
				continue
			}
			rng, ok := e.ranges[o]
			require.True(t, ok, "%s: option %s has no range (write \"\" for any value)", e.info.Name, o)
			if kind >= reflect.Uint && kind <= reflect.Uint64 {
				assert.Empty(t, rng, "%s: %s: an unsigned option takes its type's range", e.info.Name, o)
			}
			require.True(t, rng == "" || intervalForm.MatchString(rng) || boundForm.MatchString(rng),
				"%s: range %q of %s is not in span's notation", e.info.Name, rng, o)
			sp := parseSpan(rng)
			isFloat := kind == reflect.Float32 || kind == reflect.Float64
			format := func(x float64) string {
				if isFloat {
					return strconv.FormatFloat(x, 'g', -1, 64)
				}
				return strconv.FormatInt(int64(x), 10)
			}
			step := func(x, toward float64) float64 {
				if isFloat {
					return math.Nextafter(x, toward)
				}
				if toward > x {
					return x + 1
				}
				return x - 1
			}
			companions := rangeCompanions[strings.TrimSuffix(e.config.String(), ".Config")+"."+o]
			check := func(bound *float64, open bool, out float64) {
				if bound == nil {
					return
				}
				in, outside := *bound, step(*bound, out)
				if open {
					in, outside = step(*bound, -out), *bound
					if *bound == 0 { // zero is the default: the next one out
						outside = step(0, out)
					}
				}
				opts := with(companions, o, format(in))
				d, err := New(e.info.Name, opts)
				if assert.NoError(t, err, "%s: %v is inside %s", e.info.Name, opts, rng) {
					require.NoError(t, d.Close())
				}
				opts = with(companions, o, format(outside))
				_, err = New(e.info.Name, opts)
				assert.ErrorContains(t, err, "is out of range (want ", "%s: %v is outside %s", e.info.Name, opts, rng)
				if e.info.Name != "reference" {
					_, err = e.build(opts, true)
					assert.ErrorIs(t, err, detector.ErrInvalidConfig, "%s: the package accepts %v, outside %s", e.info.Name, opts, rng)
				}
			}
			check(sp.lo, sp.loOpen, math.Inf(-1))
			check(sp.hi, sp.hiOpen, math.Inf(1))
		}
	}
}

// probe is a setting that changes what a detector reports when the
// detector reads the field it is for: set, applied over base, against
// base alone.
type probe struct {
	set, base map[string]string
}

// p is a probe of field f set to v, over base (field, value pairs).
func p(f, v string, base ...string) probe {
	pr := probe{set: map[string]string{f: v}, base: map[string]string{}}
	for i := 0; i+1 < len(base); i += 2 {
		pr.base[base[i]] = base[i+1]
	}
	return pr
}

// probes holds a probe for every settable field of every Config the
// registry builds, by Config type and field.
var probes = map[string]map[string]probe{
	"codet.Config": {
		"Language": p("Language", "en"), "KeepStopwords": p("KeepStopwords", "true", "Language", "en"),
		"Stemmer": p("Stemmer", "none"), "PrefixLen": p("PrefixLen", "3"), "NoWordSort": p("NoWordSort", "true"),
		"DepthThreshold": p("DepthThreshold", "2"), "DepthScorePower": p("DepthScorePower", "3"),
		"NoDepthScore": p("NoDepthScore", "true"), "SuffixCount": p("SuffixCount", "3"), "ETL": p("ETL", "0.05"),
		"MinScore": p("MinScore", "-1"), "NodeLimit": p("NodeLimit", "2"), "Mode": p("Mode", "pairwise"),
		"Collapse": p("Collapse", "near", "CollapseThreshold", "0.3"), "CollapseThreshold": p("CollapseThreshold", "0.3", "Collapse", "near"),
		"SCSPairs": p("SCSPairs", "true"), "Window": p("Window", "2"), "BothDirections": p("BothDirections", "true"),
		"IDF": p("IDF", "online", "Language", "en"), "MaxResults": p("MaxResults", "1"), "MaxTextBytes": p("MaxTextBytes", "3000"),
		"Content": p("Content", "all"),
	},
	"shingle.Config": {
		"Language": p("Language", "en"), "KeepStopwords": p("KeepStopwords", "true", "Language", "en"),
		"Stemmer": p("Stemmer", "none"), "PrefixLen": p("PrefixLen", "3"), "Threshold": p("Threshold", "0.05"),
		"Shingle": p("Shingle", "2"), "Sampling": p("Sampling", "min"), "Modulus": p("Modulus", "2"),
		"SampleSize": p("SampleSize", "8", "Sampling", "min"), "Stride": p("Stride", "5", "Sampling", "stride"),
		"SuperShingle": p("SuperShingle", "16"), "Antecedents": p("Antecedents", "a,of,to"),
		"ChainLength": p("ChainLength", "1"), "SpotDistance": p("SpotDistance", "1"),
		"IncludeAntecedent": p("IncludeAntecedent", "true"), "ReleaseChains": p("ReleaseChains", "true"),
		"MinSignatures": p("MinSignatures", "200"), "MinIDF": p("MinIDF", "-1"), "MaxIDF": p("MaxIDF", "2"),
		"MinOverlap": p("MinOverlap", "1"), "Content": p("Content", "all"), "MaxTextBytes": p("MaxTextBytes", "3000"),
		"MaxResults": p("MaxResults", "1"),
	},
	"minhash.Config": {
		"Language": p("Language", "en"), "Shingle": p("Shingle", "3"), "NumHashes": p("NumHashes", "64"),
		"Scheme": p("Scheme", "khash"), "Seed": p("Seed", "7"), "Threshold": p("Threshold", "0.5"),
		"Bands":               {set: map[string]string{"Bands": "2", "Rows": "4"}, base: map[string]string{}},
		"Rows":                {set: map[string]string{"Bands": "2", "Rows": "4"}, base: map[string]string{}},
		"FalsePositiveWeight": p("FalsePositiveWeight", "1000"), "FalseNegativeWeight": p("FalseNegativeWeight", "0.001"),
		"Supershingles": p("Supershingles", "16"), "SupershingleMatches": p("SupershingleMatches", "1", "Supershingles", "16"),
		"Sampler": p("Sampler", "icws"), "Weighting": p("Weighting", "uniform"), "Power": p("Power", "1"),
		"Scale": p("Scale", "inverse"), "RarePercent": p("RarePercent", "10"), "Rare": p("Rare", "percentile"),
		"MinOverlap": p("MinOverlap", "1"), "Content": p("Content", "all"), "MaxTextBytes": p("MaxTextBytes", "3000"),
		"MaxResults": p("MaxResults", "1"),
	},
	"simhash.Config": {
		"Language": p("Language", "en"), "KeepStopwords": p("KeepStopwords", "true", "Language", "en"),
		"Stemmer": p("Stemmer", "none"), "PrefixLen": p("PrefixLen", "3"), "Features": p("Features", "word-ngrams"),
		"N": p("N", "2", "Features", "word-ngrams"), "Weights": p("Weights", "unit"), "SkipTop": p("SkipTop", "-1"),
		"Seed": p("Seed", "7"), "K": p("K", "20"), "Blocks": p("Blocks", "8"), "Content": p("Content", "all"),
		"MaxTextBytes": p("MaxTextBytes", "3000"), "MaxResults": p("MaxResults", "1", "K", "30"),
	},
	"imatch.Config": {
		"Language": p("Language", "en"), "KeepStopwords": p("KeepStopwords", "true", "Language", "en", "Keep", "100000"),
		"Stemmer": p("Stemmer", "none"), "PrefixLen": p("PrefixLen", "3"), "Selection": p("Selection", "band"),
		"Skip": p("Skip", "-1"), "Keep": p("Keep", "5"), "BandLow": p("BandLow", "0.5", "Selection", "band"),
		"BandHigh": p("BandHigh", "0.5", "Selection", "band"), "MinTerms": p("MinTerms", "40", "Keep", "1000"),
		"Lexicons": p("Lexicons", "3"), "LexiconKeep": p("LexiconKeep", "0.3", "Lexicons", "3"),
		"Seed": p("Seed", "7", "Lexicons", "3"), "Encoding": p("Encoding", "concat"), "Content": p("Content", "all"),
		"MaxTextBytes": p("MaxTextBytes", "3000"), "MaxResults": p("MaxResults", "1"),
	},
	"tweezer.Config": {
		"Language": p("Language", "en"), "Prefix": p("Prefix", "1"), "Suffix": p("Suffix", "1"),
		"ClipSentences": p("ClipSentences", "true"), "FallbackWords": p("FallbackWords", "3"),
		"Mode": p("Mode", "jaccard"), "Threshold": p("Threshold", "0.5"), "MinOverlap": p("MinOverlap", "1"),
		"Content": p("Content", "all"), "MaxTextBytes": p("MaxTextBytes", "3000"), "MaxResults": p("MaxResults", "1"),
	},
	"mrcosine.Config": {
		"T1": p("T1", "0.99"), "T2": p("T2", "0.95"), "Centered": p("Centered", "true"),
		"Exhaustive": p("Exhaustive", "true", "Rows", "64", "Bands", "1"), "Rows": p("Rows", "2", "Bands", "1"),
		"Bands": p("Bands", "1"), "MissRate": p("MissRate", "0.9"), "Seed": p("Seed", "7", "Rows", "16", "Bands", "1"),
		"Content": p("Content", "all"), "MaxTextBytes": p("MaxTextBytes", "3000"), "MaxResults": p("MaxResults", "1"),
	},
	"naive.Config": {
		"Shingle": p("Shingle", "2"), "Threshold": p("Threshold", "0.1"), "Symmetric": p("Symmetric", "true"),
		"MaxResults": p("MaxResults", "1"),
	},
}

// entryProbes replaces a probe for one name, where the name's preset
// makes the general one a no-op.
var entryProbes = map[string]map[string]probe{
	"simhash-spots": {"Language": p("Language", "tr"), "N": p("N", "3"), "K": p("K", "5"), "Weights": p("Weights", "tf")},
	"spotsigs": {
		"Threshold": p("Threshold", "0.5"), "KeepStopwords": p("KeepStopwords", "true", "Language", "en"),
		// Chains of one word after the full English stopword list repeat
		// across a page, under different antecedents and at every idf.
		"IncludeAntecedent": p("IncludeAntecedent", "true", "ChainLength", "1", "Language", "en"),
		"ReleaseChains":     p("ReleaseChains", "true", "Language", "en"),
		"MinIDF":            p("MinIDF", "-1", "ChainLength", "1"),
		"MinOverlap":        p("MinOverlap", "1", "ChainLength", "1", "Language", "en"),
	},
}

// unobservable lists the options that change how a detector finds its
// matches but, by design, not which ones it reports: for them the test
// checks that the option reaches the effective Config.
var unobservable = map[string]string{
	"simhash.Blocks": "the index layout: every search is exact",
}

// behaviourDocs is the corpus the probes run on: pages of five Gold Set
// clusters (with their navigation, for the content filter), exact copies,
// a truncated page and a round-up (for containment), a copy with other
// stopwords, short pairs that differ only in one word: four words
// before the first named entity, four words after the last one, and in
// the middle of a text without entities (for Tweezer's windows), and a
// short pair that shares its first half (too little evidence for the
// MinOverlap rules).
func behaviourDocs(t *testing.T) []detector.Doc {
	recs := dataset.ForTest(t, "goldset-dev.jsonl")
	keep := map[string]bool{"Adobe": true, "Drink": true, "Folic": true, "Gum": true, "Ice_Shelf": true}
	var docs []detector.Doc
	for _, r := range recs {
		if keep[r.Cluster] {
			docs = append(docs, r.Doc())
		}
	}
	require.Greater(t, len(docs), 20)
	a, b := docs[0].Text, docs[5].Text
	const (
		entities = "Yesterday %s in the city of Ankara the minister Ahmet Kaya announced a new plan for the schools of Izmir " +
			"and the roads of Bursa. The plan was %s by teachers across the country, and the unions said they would study it."
		plain = "the quick brown fox jumps over the lazy dog near the river bank while the %s watches from the old wooden " +
			"fence and the sun sets slowly behind the distant hills of the valley"
		half = "the committee met on tuesday to discuss the budget for the coming year and it was agreed that the council would"
	)
	docs = append(docs,
		detector.Doc{ID: "copy1", Text: a}, detector.Doc{ID: "copy2", Text: a},
		detector.Doc{ID: "part", Text: b[:len(b)/2]},
		detector.Doc{ID: "roundup", Text: docs[3].Text + "\n\n" + b},
		detector.Doc{ID: "stopwords", Text: strings.ReplaceAll(docs[10].Text, " the ", " a ")},
		detector.Doc{ID: "before1", Text: fmt.Sprintf(entities, "morning", "welcomed")},
		detector.Doc{ID: "before2", Text: fmt.Sprintf(entities, "evening", "welcomed")},
		detector.Doc{ID: "after", Text: fmt.Sprintf(entities, "morning", "praised")},
		detector.Doc{ID: "plain1", Text: fmt.Sprintf(plain, "farmer")},
		detector.Doc{ID: "plain2", Text: fmt.Sprintf(plain, "shepherd")},
		detector.Doc{ID: "half1", Text: half + " raise the spending on roads and bridges by a small amount after a long debate"},
		detector.Doc{ID: "half2", Text: half + " cut the number of staff in the office of the mayor while keeping taxes where they are"},
	)
	return docs
}

// outcome adds docs to the detector e builds from opts and describes what
// every Add reported (with mrcosine's class of each score).
func outcome(t *testing.T, e entry, opts map[string]string, raw bool, docs []detector.Doc) string {
	t.Helper()
	d, err := e.build(opts, raw)
	require.NoError(t, err, "%s: %v", e.info.Name, opts)
	defer d.Close()
	var b strings.Builder
	for _, doc := range docs {
		ms, err := d.Add(doc)
		fmt.Fprintf(&b, "%s:", doc.ID)
		if err != nil {
			fmt.Fprintf(&b, " %v", err)
		}
		for _, m := range ms {
			fmt.Fprintf(&b, " %s=%.9g", m.ID, m.Score)
			if c, ok := d.(interface{ Classify(float64) mrcosine.Class }); ok {
				fmt.Fprintf(&b, "(%v)", c.Classify(m.Score))
			}
		}
		b.WriteByte('\n')
	}
	// The per-document signatures a detector exports (I-Match's digests,
	// SimHash's fingerprints) are part of what it reports.
	for _, name := range []string{"Signature", "Fingerprint"} {
		if m := reflect.ValueOf(d).MethodByName(name); m.IsValid() {
			for _, doc := range docs {
				fmt.Fprintf(&b, "%s %s: %v\n", name, doc.ID, m.Call([]reflect.Value{reflect.ValueOf(doc.ID)})[0])
			}
		}
	}
	return b.String()
}

// probeFor returns the probe of field o for entry e.
func probeFor(t *testing.T, e entry, o string) probe {
	if pr, ok := entryProbes[e.info.Name][o]; ok {
		return pr
	}
	pr, ok := probes[e.config.String()][o]
	require.True(t, ok, "%s: no probe for %s.%s", e.info.Name, e.config, o)
	return pr
}

// allProbes returns every probe of field f of Config type c: the
// general one and those of single names.
func allProbes(t *testing.T, c reflect.Type, f string) []probe {
	pr, ok := probes[c.String()][f]
	require.True(t, ok, "no probe for %s.%s", c, f)
	out := []probe{pr}
	for _, e := range registry {
		if pr, ok := entryProbes[e.info.Name][f]; ok && e.config == c {
			out = append(out, pr)
		}
	}
	return out
}

// merged returns base with set over it.
func merged(base, set map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range set {
		out[k] = v
	}
	return out
}

// TestOptionsAreRead: each name reads every option it lists and no other
// field. For every settable field of the name's Config, the field's probe
// runs over a small corpus: a listed option must change what the detector
// reports (or, for the few options that by design only change how matches
// are found, its effective Config), and a field the name does not list,
// set behind the registry's back, must change nothing. A field wrongly
// listed, or wrongly left out, fails here.
func TestOptionsAreRead(t *testing.T) {
	docs := behaviourDocs(t)
	for _, e := range registry {
		t.Run(e.info.Name, func(t *testing.T) {
			bases := map[string]string{}
			base := func(opts map[string]string) string {
				key := fmt.Sprint(opts)
				if _, ok := bases[key]; !ok {
					bases[key] = outcome(t, e, opts, true, docs)
				}
				return bases[key]
			}
			for _, f := range settableFields(e.config) {
				if slices.Contains(e.info.Fixed, f) {
					continue
				}
				key := strings.TrimSuffix(e.config.String(), ".Config") + "." + f
				if !slices.Contains(e.info.Options, f) {
					// Every probe of the field, as some other name proves
					// it effective, must change nothing here.
					for _, pr := range allProbes(t, e.config, f) {
						got, was := outcome(t, e, merged(pr.base, pr.set), true, docs), base(pr.base)
						assert.True(t, was == got, "%s does not list %s, but %v over %v changes what it reports", e.info.Name, f, pr.set, pr.base)
					}
					continue
				}
				pr := probeFor(t, e, f)
				got, was := outcome(t, e, merged(pr.base, pr.set), true, docs), base(pr.base)
				switch {
				case unobservable[key] != "":
					assert.True(t, was == got, "%s: %s (%s) changes what %s reports: drop it from unobservable", key, pr.set, unobservable[key], e.info.Name)
					cfgOf := func(opts map[string]string) any {
						d, err := New(e.info.Name, opts)
						require.NoError(t, err)
						defer d.Close()
						return reflect.ValueOf(d).MethodByName("Config").Call(nil)[0].FieldByName(f).Interface()
					}
					assert.NotEqual(t, cfgOf(pr.base), cfgOf(merged(pr.base, pr.set)), "%s: %v does not reach the Config", e.info.Name, pr.set)
				default:
					assert.True(t, was != got, "%s lists %s, but %v changes nothing it reports", e.info.Name, f, pr.set)
				}
			}
		})
	}
}

// TestRuleLanguages: the languages the unknown-language error names are
// the ones textproc has rules for.
func TestRuleLanguages(t *testing.T) {
	for _, l := range ruleLanguages {
		assert.NotEmpty(t, textproc.RuleSet(language.MustParse(l)), l)
	}
	for _, l := range []string{"de", "fr", "zh", "ja", "und"} {
		assert.Empty(t, textproc.RuleSet(language.MustParse(l)), l)
	}
}
