package neardup

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/imatch"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
	"github.com/seed-9ef9c1df/neardup/minhash"
	"github.com/seed-9ef9c1df/neardup/mrcosine"
	"github.com/seed-9ef9c1df/neardup/shingle"
	"github.com/seed-9ef9c1df/neardup/simhash"
	"github.com/seed-9ef9c1df/neardup/textproc"
	"github.com/seed-9ef9c1df/neardup/tweezer"
)

// Info describes a detector [New] can build by name.
type Info struct {
	// Name is the name New takes.
	Name string
	// Containment says the detector is asymmetric (C ⊇ A); otherwise it
	// reports near-duplicates.
	Containment bool
	// Summary is a one-line description with the published source.
	Summary string
	// UseWhen is a one-line recommendation.
	UseWhen string
	// Options lists the Config fields New accepts as options for this
	// name, in the Config's order: the fields the named detector reads
	// (Language among them, where it has one). New rejects the others,
	// such as SpotSigs' ChainLength for "ffp".
	Options []string
	// Fixed lists the Config fields the name itself sets (the method of a
	// shingle detector, the mode of a MinHash one, ...): New rejects them
	// as options.
	Fixed []string
}

// entry is a named constructor.
type entry struct {
	info Info
	// config is the package's Config type.
	config reflect.Type
	// ranges gives the range of the numeric options (see span).
	ranges map[string]string
	// build makes the detector from options. With raw, for the tests that
	// check what the registry accepts against what the packages accept,
	// every settable field but the fixed ones is accepted, used or not, and
	// numbers are checked neither against the field's range nor against
	// its named choices: the package's New alone judges them.
	build func(opts map[string]string, raw bool) (detector.Detector, error)
}

// define adapts a package constructor. info.Options lists the fields the
// name reads; ranges gives the accepted range of the numeric ones (see
// span). preset, if not nil, sets info.Fixed, the fields that make the
// entry what it is, and the preset's other values, which options may
// override.
func define[C any, D detector.Detector](info Info, newFn func(C) (D, error), ranges map[string]string, preset func(*C)) entry {
	return entry{info: info, config: reflect.TypeFor[C](), ranges: ranges, build: func(opts map[string]string, raw bool) (detector.Detector, error) {
		var cfg C
		if preset != nil {
			preset(&cfg)
		}
		if err := apply(reflect.ValueOf(&cfg).Elem(), info, ranges, opts, raw); err != nil {
			return nil, err
		}
		d, err := newFn(cfg)
		if err != nil {
			return nil, err
		}
		return d, nil
	}}
}

// fields splits a space-separated list of field names.
func fields(s string) []string { return strings.Fields(s) }

// Ranges of the numeric Config fields, in the notation of span. A zero
// value, the package default, is accepted whatever the range says. Bounds
// named by another field are checked by the package's New.
var (
	codetRanges = map[string]string{
		"PrefixLen": "[0, 1000]", "DepthThreshold": "[0, 64]", "DepthScorePower": "[0, 8]",
		"SuffixCount": "[0, 64]", "ETL": "(0, 10]", "MinScore": "", "NodeLimit": "",
		"CollapseThreshold": "[0, 10]", "Window": "≥ 0", "MaxResults": "≥ 0", "MaxTextBytes": "≥ 0",
	}
	shingleRanges = map[string]string{
		"PrefixLen": "≥ 0", "Threshold": "(0, 1]", "Shingle": "[0, 64]", "Modulus": "≥ 0",
		"SampleSize": "≥ 0", "Stride": "[0, 65536]", "SuperShingle": "[0, 64]", "ChainLength": "[0, 64]",
		"SpotDistance": "[0, 65536]", "MinSignatures": "≥ 0", "MinIDF": "< MaxIDF", "MaxIDF": "> MinIDF",
		"MinOverlap": "[0, 1048576]", "MaxTextBytes": "≥ 0", "MaxResults": "≥ 0",
	}
	minhashRanges = map[string]string{
		"Shingle": "[0, 64]", "NumHashes": "[0, 4096]", "Seed": "", "Threshold": "(0, 1]",
		"Bands": "[0, NumHashes]", "Rows": "[0, NumHashes]",
		"FalsePositiveWeight": "(0, 1e100]", "FalseNegativeWeight": "(0, 1e100]",
		"Supershingles": "[0, NumHashes]", "SupershingleMatches": "[0, Supershingles]",
		"Power": "(0, 64]", "RarePercent": "(0, 100]", "MinOverlap": "[0, 1048576]",
		"MaxTextBytes": "≥ 0", "MaxResults": "≥ 0",
	}
	simhashRanges = map[string]string{
		"PrefixLen": "≥ 0", "N": "[0, 64]", "SkipTop": "", "Seed": "", "K": "≤ 64", "Blocks": "[0, 64]",
		"MaxTextBytes": "≥ 0", "MaxResults": "≥ 0",
	}
	imatchRanges = map[string]string{
		"PrefixLen": "≥ 0", "Skip": "≤ 1048576", "Keep": "[0, 1048576]", "BandLow": "[0, BandHigh]",
		"BandHigh": "[BandLow, 1]", "MinTerms": "[0, Keep]", "Lexicons": "[0, 1024]", "LexiconKeep": "(0, 1]",
		"Seed": "", "MaxTextBytes": "≥ 0", "MaxResults": "≥ 0",
	}
	tweezerRanges = map[string]string{
		"Prefix": "[0, 65536]", "Suffix": "[0, 65536]", "FallbackWords": "[0, 65536]", "Threshold": "(0, 1]",
		"MinOverlap": "[0, 1048576]", "MaxTextBytes": "≥ 0", "MaxResults": "≥ 0",
	}
	mrcosineRanges = map[string]string{
		"T1": "[T2, 1]", "T2": "(0, 1]", "Rows": "[0, 64]", "Bands": "[0, 4096]", "MissRate": "(0, 1)",
		"Seed": "", "MaxTextBytes": "≥ 0", "MaxResults": "≥ 0",
	}
	naiveRanges = map[string]string{"Shingle": "[0, 64]", "Threshold": "(0, 1]", "MaxResults": "≥ 0"}
)

// The options of the shingle and MinHash names: each method or mode reads
// a part of its package's Config (shingle.Config's doc: "Fields that do
// not apply to Method are ignored").
var (
	// ffp hashes every w-shingle of the stemmed, stopword-free text.
	ffpOptions = fields("Language KeepStopwords Stemmer PrefixLen Threshold Shingle MinOverlap Content MaxTextBytes MaxResults")
	// dsc samples those shingles.
	dscOptions = fields("Language KeepStopwords Stemmer PrefixLen Threshold Shingle Sampling Modulus SampleSize Stride SuperShingle MinOverlap Content MaxTextBytes MaxResults")
	// spotsigs reads every word, unstemmed, as chains after antecedents.
	spotsigsOptions = fields("Language Threshold Antecedents ChainLength SpotDistance IncludeAntecedent ReleaseChains MinSignatures MinIDF MaxIDF MinOverlap Content MaxTextBytes MaxResults")
	// minhash: unweighted signatures (Scheme) banded by LSH or
	// supershingles; no phrase weights.
	minhashOptions = fields("Language Shingle NumHashes Scheme Seed Threshold Bands Rows FalsePositiveWeight FalseNegativeWeight Supershingles SupershingleMatches MinOverlap Content MaxTextBytes MaxResults")
	// minhash-weighted: weighted samples (Sampler, the phrase weights)
	// banded as minhash's; Scheme draws unweighted signatures only.
	minhashWeightedOptions = fields("Language Shingle NumHashes Seed Threshold Bands Rows FalsePositiveWeight FalseNegativeWeight Supershingles SupershingleMatches Sampler Weighting Power Scale RarePercent Rare MinOverlap Content MaxTextBytes MaxResults")
	// minhash-containment: unweighted signatures in an LSH Ensemble,
	// which picks its rows per size partition (no Bands, Rows,
	// supershingles).
	minhashContainmentOptions = fields("Language Shingle NumHashes Scheme Seed Threshold FalsePositiveWeight FalseNegativeWeight MinOverlap Content MaxTextBytes MaxResults")
)

// registry lists every named detector, in the order Names returns them:
// the package defaults first, then presets.
var registry = []entry{
	define(Info{Name: "codet", Containment: true,
		Summary: "CoDet sentence corpus tree (Varol et al. 2011)",
		UseWhen: "articles inside longer ones (round-ups, updates), sentence-level evidence",
		Options: fields("Language KeepStopwords Stemmer PrefixLen NoWordSort DepthThreshold DepthScorePower NoDepthScore SuffixCount ETL MinScore NodeLimit Mode Collapse CollapseThreshold SCSPairs Window BothDirections IDF MaxResults MaxTextBytes Content")},
		codet.New, codetRanges, nil),
	define(Info{Name: "ffp", Containment: true,
		Summary: "full fingerprinting: every word 4-gram, containment ≥ 0.25 with 30 shared (Varol 2012 §4.1.2)",
		UseWhen: "exact containment where an index of every shingle fits in memory",
		Options: ffpOptions, Fixed: fields("Method")},
		shingle.New, shingleRanges, func(c *shingle.Config) { c.Method = shingle.FullFingerprint }),
	define(Info{Name: "dsc", Containment: true,
		Summary: "DSC: 1 shingle in 4 sampled, containment ≥ 0.25 with 10 shared (Broder et al. 1997; Varol 2012 §4.1.1)",
		UseWhen: "cheaper, sampled containment over long documents",
		Options: dscOptions, Fixed: fields("Method")},
		shingle.New, shingleRanges, func(c *shingle.Config) { c.Method = shingle.DSC }),
	define(Info{Name: "spotsigs",
		Summary: "SpotSigs stopword-anchored signatures, multiset Jaccard (Theobald et al. 2008)",
		UseWhen: "web pages whose boilerplate would fool word shingles, the fastest; its default antecedents are English words",
		Options: spotsigsOptions, Fixed: fields("Method")},
		shingle.New, shingleRanges, func(c *shingle.Config) { c.Method = shingle.SpotSigs }),
	define(Info{Name: "minhash",
		Summary: "MinHash LSH over word shingles, Jaccard verified by the estimate (Broder 1997; Indyk & Motwani 1998)",
		UseWhen: "near-duplicates at scale with a tunable threshold",
		Options: minhashOptions, Fixed: fields("Mode")},
		minhash.New, minhashRanges, func(c *minhash.Config) { c.Mode = minhash.Jaccard }),
	define(Info{Name: "minhash-weighted",
		Summary: "weighted MinHash of 7-word phrases, Alonso et al. 2013 weighting",
		UseWhen: "rare phrases should count more than common ones",
		Options: minhashWeightedOptions, Fixed: fields("Mode")},
		minhash.New, minhashRanges, func(c *minhash.Config) { c.Mode = minhash.Weighted }),
	define(Info{Name: "minhash-containment", Containment: true,
		Summary: "MinHash containment with an LSH Ensemble index (Zhu et al. 2016)",
		UseWhen: "short documents must find the long ones that contain them, with few false alarms",
		Options: minhashContainmentOptions, Fixed: fields("Mode")},
		minhash.New, minhashRanges, func(c *minhash.Config) { c.Mode = minhash.Containment }),
	define(Info{Name: "simhash",
		Summary: "SimHash 64-bit fingerprints with a Hamming index (Charikar 2002; Manku et al. 2007)",
		UseWhen: "near-exact copies only: it misses most edited ones",
		Options: fields("Language KeepStopwords Stemmer PrefixLen Features N Weights SkipTop Seed K Blocks Content MaxTextBytes MaxResults")},
		simhash.New, simhashRanges, nil),
	define(Info{Name: "imatch",
		Summary: "I-Match IDF-filtered digest (Chowdhury et al. 2002)",
		UseWhen: "grouping exact copies under one digest; it misses most edited ones",
		Options: fields("Language KeepStopwords Stemmer PrefixLen Selection Skip Keep BandLow BandHigh MinTerms Lexicons LexiconKeep Seed Encoding Content MaxTextBytes MaxResults")},
		imatch.New, imatchRanges, nil),
	define(Info{Name: "tweezer",
		Summary: "Tweezer named-entity shingles (Uyar 2009), overlap with evidence",
		UseWhen: "news copies that keep the names and their context, in the smallest index of the package defaults",
		Options: fields("Language Prefix Suffix ClipSentences FallbackWords Mode Threshold MinOverlap Content MaxTextBytes MaxResults")},
		tweezer.New, tweezerRanges, nil),
	define(Info{Name: "mrcosine",
		Summary: "multireference cosine signatures (Mohammadi & Khasteh 2020)",
		UseWhen: "fixed-size numeric signatures for a vector index; not for wire notices written from one template",
		Options: fields("T1 T2 Centered Exhaustive Rows Bands MissRate Seed Content MaxTextBytes MaxResults")},
		mrcosine.New, mrcosineRanges, nil),
	// Presets: non-default settings measured better on some inputs.
	define(Info{Name: "tweezer-exact",
		Summary: "Tweezer named-entity shingle digest as published (Uyar 2009)",
		UseWhen: "exact-ish copies, the thesis's setting, in the least memory",
		// Exact mode compares digests: no Threshold, no MinOverlap.
		Options: fields("Language Prefix Suffix ClipSentences FallbackWords Content MaxTextBytes MaxResults"),
		Fixed:   fields("Mode")},
		tweezer.New, tweezerRanges, func(c *tweezer.Config) { c.Mode = tweezer.Exact }),
	define(Info{Name: "simhash-spots",
		Summary: "SimHash over spot signatures (unit weights), Hamming ≤ 20; English stopwords unless Language says otherwise",
		UseWhen: "pages with boilerplate when one 64-bit fingerprint each must do; not for short wire copy (at K = 20 it joins nearly all of Reuters into one cluster)",
		// Spot signatures keep every stopword as an anchor: no
		// KeepStopwords.
		Options: fields("Language Stemmer PrefixLen N Weights SkipTop Seed K Blocks Content MaxTextBytes MaxResults"),
		Fixed:   fields("Features")},
		simhash.New, simhashRanges, func(c *simhash.Config) {
			c.Features, c.Weights, c.K = simhash.FeatureSpots, simhash.WeightUnit, 20
			c.Language = "en" // spot signatures need a stopword list
		}),
	define(Info{Name: "mrcosine-centered",
		Summary: "multireference cosine, signatures centred on the training mean",
		UseWhen: "numeric signatures that find more reworded copies than mrcosine, and more unrelated ones",
		Options: fields("T1 T2 Exhaustive Rows Bands MissRate Seed Content MaxTextBytes MaxResults"),
		Fixed:   fields("Centered")},
		mrcosine.New, mrcosineRanges, func(c *mrcosine.Config) { c.Centered = true }),
	define(Info{Name: "reference", Containment: true,
		Summary: "exact word 4-shingle containment against every live document (a baseline)",
		UseWhen: "tests: the exact answer, in time quadratic in the collection",
		Options: fields("Shingle Threshold Symmetric MaxResults")},
		naive.NewChecked, naiveRanges, nil),
}

// Names returns the names [New] accepts: the nine published detectors at
// their package defaults (with MinHash in its three modes and the shingle
// package's three methods named apart), then presets, then "reference".
func Names() []string {
	out := make([]string, len(registry))
	for i, e := range registry {
		out[i] = e.info.Name
	}
	return out
}

// Lookup describes the detector called name. An unknown name is an error
// wrapping [detector.ErrInvalidConfig] that lists the known ones.
func Lookup(name string) (Info, error) {
	e, err := find(name)
	if err != nil {
		return Info{}, err
	}
	info := e.info
	info.Options = slices.Clone(info.Options)
	info.Fixed = slices.Clone(info.Fixed)
	return info, nil
}

// New builds the detector called name, with its package's defaults except
// where options say otherwise. It costs what the package's New costs, plus
// the parsing of the options.
//
// Option keys are the Config fields [Info.Options] lists for name,
// case-insensitive; two keys that differ only in case are an error, and so
// is a field the name does not read (SpotSigs' ChainLength for "ffp") or
// sets itself ([Info.Fixed]). Values are trimmed of surrounding spaces and
// read by the field's type:
//
//   - numbers in decimal only, with an optional sign (floats also with a
//     fraction and an exponent: "0.3", "-1", "2.5e-3"; no hexadecimal,
//     octal or binary, no underscores, no "Inf" or "NaN"), within the
//     field's range (0, the field's default, always passes);
//   - choices (enum fields) by name or number: "Content": "all" or "1",
//     "Collapse": "near", "Sampler": "icws"; the short names are those the
//     error lists, and the Go constants' names ("ContentAll",
//     "CollapseNear") are accepted too, all case-insensitive;
//   - booleans as true or false (or 1 or 0);
//   - Language as a BCP 47 tag ("tr", "en-GB"; "" is language-neutral);
//     a well-formed tag of no known language ("zz") is an error.
//
// For example {"Language": "tr", "Threshold": "0.3", "Content": "all"}
// reads Turkish, reports pairs at 0.3 and reads whole texts (the default
// reads the main content only). Errors wrap [detector.ErrInvalidConfig]
// and name the option and what it wants: an unknown name, an unknown,
// unused, fixed or repeated option, an unparsable or out-of-range value,
// and whatever the package's New rejects.
func New(name string, options map[string]string) (detector.Detector, error) {
	e, err := find(name)
	if err != nil {
		return nil, err
	}
	return e.build(options, false)
}

// ParseOptions turns "key=value" strings (as a command line gives them)
// into the options of [New]. A key given twice is an error (keys that
// differ only in case are left for New to reject).
func ParseOptions(kvs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("neardup: option %q: want key=value: %w", kv, detector.ErrInvalidConfig)
		}
		if prev, dup := out[k]; dup {
			return nil, fmt.Errorf("neardup: option %s given twice (%q and %q): %w", k, prev, v, detector.ErrInvalidConfig)
		}
		out[k] = v
	}
	return out, nil
}

func find(name string) (entry, error) {
	for _, e := range registry {
		if e.info.Name == name {
			return e, nil
		}
	}
	return entry{}, fmt.Errorf("neardup: unknown detector %q (known: %s): %w",
		name, strings.Join(Names(), ", "), detector.ErrInvalidConfig)
}

// settableFields lists the exported Config fields of a kind an option can
// set.
func settableFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		switch f.Type.Kind() {
		case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64,
			reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			out = append(out, f.Name)
		}
	}
	return out
}

// apply sets the fields of cfg named by opts, in sorted key order. raw is
// entry.build's.
func apply(cfg reflect.Value, info Info, ranges map[string]string, opts map[string]string, raw bool) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("neardup: %s: "+format+": %w", append(append([]any{info.Name}, args...), detector.ErrInvalidConfig)...)
	}
	keys := slices.Sorted(maps.Keys(opts))
	seen := map[string]string{}
	for _, k := range keys {
		fold := strings.ToLower(strings.TrimSpace(k))
		if prev, ok := seen[fold]; ok {
			return bad("options %q and %q name the same field (keys are case-insensitive)", prev, k)
		}
		seen[fold] = k
	}
	accepted := info.Options
	if raw {
		accepted = slices.DeleteFunc(settableFields(cfg.Type()), func(f string) bool { return slices.Contains(info.Fixed, f) })
	}
	for _, k := range keys {
		key := strings.TrimSpace(k)
		is := func(s string) bool { return strings.EqualFold(s, key) }
		if i := slices.IndexFunc(info.Fixed, is); i >= 0 {
			return bad("option %s is fixed by the name (use another name)", info.Fixed[i])
		}
		i := slices.IndexFunc(accepted, is)
		if i < 0 {
			if j := slices.IndexFunc(settableFields(cfg.Type()), is); j >= 0 {
				return bad("option %s is not used by %s (its options: %s)",
					settableFields(cfg.Type())[j], info.Name, strings.Join(info.Options, ", "))
			}
			return bad("unknown option %q (options: %s)", k, strings.Join(info.Options, ", "))
		}
		name := accepted[i]
		rng := ranges[name]
		if raw {
			rng = ""
		}
		if err := setField(cfg.FieldByName(name), name, rng, strings.TrimSpace(opts[k]), raw); err != nil {
			return bad("option %s: %v", name, err)
		}
	}
	return nil
}

// setField parses val as the value of field f (called name, with the range
// rng) and stores it. raw is entry.build's.
func setField(f reflect.Value, name, rng, val string, raw bool) error {
	t := f.Type()
	if cs, ok := choices[t]; ok {
		v, err := parseChoice(t, cs, val, raw)
		if err != nil {
			return err
		}
		if f.CanInt() && f.OverflowInt(v) || f.CanUint() && (v < 0 || f.OverflowUint(uint64(v))) {
			return fmt.Errorf("%q is out of range", val)
		}
		if f.CanInt() {
			f.SetInt(v)
		} else {
			f.SetUint(uint64(v))
		}
		return nil
	}
	sp := parseSpan(rng)
	switch t.Kind() {
	case reflect.Bool:
		switch {
		case strings.EqualFold(val, "true") || val == "1":
			f.SetBool(true)
		case strings.EqualFold(val, "false") || val == "0":
			f.SetBool(false)
		default:
			return fmt.Errorf("%q is not a boolean (want true or false)", val)
		}
	case reflect.String:
		if name == "Language" {
			if err := checkLanguage(val); err != nil {
				return err
			}
		}
		f.SetString(val)
	case reflect.Float32, reflect.Float64:
		want := "a decimal float" + sp.suffix()
		if !decimalFloat.MatchString(val) {
			return fmt.Errorf("%q is not a number (want %s)", val, want)
		}
		x, err := strconv.ParseFloat(val, t.Bits())
		if err != nil || !sp.contains(x) {
			return fmt.Errorf("%q is out of range (want %s)", val, want)
		}
		f.SetFloat(x)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		want := "a decimal integer" + sp.suffix()
		if err := intSyntax(val, want); err != nil {
			return err
		}
		x, err := strconv.ParseInt(val, 10, t.Bits())
		if err != nil || !sp.contains(float64(x)) {
			return fmt.Errorf("%q is out of range (want %s)", val, want)
		}
		f.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		want := fmt.Sprintf("a decimal integer in [0, %d]", uint64(1)<<t.Bits()-1)
		if err := intSyntax(val, want); err != nil {
			return err
		}
		x, err := strconv.ParseUint(strings.TrimPrefix(val, "+"), 10, t.Bits())
		if err != nil {
			return fmt.Errorf("%q is out of range (want %s)", val, want)
		}
		f.SetUint(x)
	default:
		return fmt.Errorf("type %s cannot be set by an option", t)
	}
	return nil
}

// decimalInt and decimalFloat are the number syntaxes options accept:
// decimal digits with an optional sign, and for floats a fraction and an
// exponent.
var (
	decimalInt   = regexp.MustCompile(`^[+-]?[0-9]+$`)
	decimalFloat = regexp.MustCompile(`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$`)
)

// intSyntax checks that val is a decimal integer, and says what it is
// otherwise.
func intSyntax(val, want string) error {
	switch {
	case decimalInt.MatchString(val):
		return nil
	case decimalFloat.MatchString(val):
		return fmt.Errorf("%q is not an integer (want %s)", val, want)
	}
	return fmt.Errorf("%q is not a number (want %s)", val, want)
}

// span is a range of numbers: "[a, b]", "(a, b]", "[a, b)", "(a, b)",
// "≥ a", "> a", "≤ b", "< b", or "" for any. A bound that is a field's
// name ("[0, NumHashes]") is not checked here: the package's New checks
// it.
type span struct {
	text           string
	lo, hi         *float64
	loOpen, hiOpen bool
}

var (
	intervalForm = regexp.MustCompile(`^([\[(])(\S+), (\S+)([\])])$`)
	boundForm    = regexp.MustCompile(`^(≥|>|≤|<) (\S+)$`)
)

// parseSpan reads the notation of span. A text in neither form is kept
// for the messages and checks nothing (TestRanges keeps the tables
// in the notation).
func parseSpan(text string) span {
	sp := span{text: text}
	num := func(s string) *float64 {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil
		}
		return &x
	}
	if m := intervalForm.FindStringSubmatch(text); m != nil {
		sp.lo, sp.hi = num(m[2]), num(m[3])
		sp.loOpen, sp.hiOpen = m[1] == "(", m[4] == ")"
	} else if m := boundForm.FindStringSubmatch(text); m != nil {
		switch m[1] {
		case "≥", ">":
			sp.lo, sp.loOpen = num(m[2]), m[1] == ">"
		default:
			sp.hi, sp.hiOpen = num(m[2]), m[1] == "<"
		}
	}
	return sp
}

// suffix is the range as the end of a "want" phrase.
func (sp span) suffix() string {
	switch {
	case sp.text == "":
		return ""
	case strings.HasPrefix(sp.text, "[") || strings.HasPrefix(sp.text, "("):
		return " in " + sp.text
	}
	return " " + sp.text
}

// contains reports whether x is in the range. Zero, a field's default, is
// always in.
func (sp span) contains(x float64) bool {
	if x == 0 {
		return true
	}
	if sp.lo != nil && (x < *sp.lo || sp.loOpen && x == *sp.lo) {
		return false
	}
	if sp.hi != nil && (x > *sp.hi || sp.hiOpen && x == *sp.hi) {
		return false
	}
	return true
}

// choice is one value of an enum field and its names: the short name
// first (the one errors list), then the Go constant's.
type choice struct {
	value int64
	names []string
}

// named lists the choices of an enum type T from value, name pairs.
func named[T ~int | ~uint8](pairs ...any) []choice {
	var out []choice
	for i := 0; i+1 < len(pairs); i += 2 {
		v := pairs[i].(T)
		out = append(out, choice{value: int64(v), names: strings.Fields(pairs[i+1].(string))})
	}
	return out
}

// choices names the values of every enum field an option can set.
var choices = map[reflect.Type][]choice{
	reflect.TypeFor[textproc.Content](): named[textproc.Content](
		textproc.ContentDefault, "default ContentDefault", textproc.ContentAll, "all ContentAll",
		textproc.ContentMain, "main ContentMain"),
	reflect.TypeFor[textproc.Stemmer](): named[textproc.Stemmer](
		textproc.StemDefault, "default StemDefault", textproc.StemNone, "none StemNone",
		textproc.StemPrefix, "prefix StemPrefix"),
	reflect.TypeFor[codet.Mode](): named[codet.Mode](
		codet.ModeTree, "tree ModeTree", codet.ModePairwise, "pairwise ModePairwise"),
	reflect.TypeFor[codet.Collapse](): named[codet.Collapse](
		codet.CollapseExact, "exact CollapseExact", codet.CollapseOff, "off CollapseOff",
		codet.CollapseNear, "near CollapseNear"),
	reflect.TypeFor[codet.IDFSource](): named[codet.IDFSource](
		codet.IDFReference, "reference IDFReference", codet.IDFOnline, "online IDFOnline"),
	reflect.TypeFor[shingle.Sampling](): named[shingle.Sampling](
		shingle.SampleModulus, "modulus SampleModulus", shingle.SampleMin, "min SampleMin",
		shingle.SampleStride, "stride SampleStride"),
	reflect.TypeFor[minhash.Scheme](): named[minhash.Scheme](
		minhash.OnePermutation, "one-permutation OnePermutation", minhash.KHash, "khash KHash"),
	reflect.TypeFor[minhash.Sampler](): named[minhash.Sampler](
		minhash.DefaultSampler, "default DefaultSampler", minhash.IoffeICWS, "icws IoffeICWS",
		minhash.PackedDarts, "packed-darts PackedDarts", minhash.Darts, "darts Darts"),
	reflect.TypeFor[minhash.Weighting](): named[minhash.Weighting](
		minhash.WeightDFPow, "df-pow WeightDFPow", minhash.WeightUniform, "uniform WeightUniform",
		minhash.WeightDF, "df WeightDF", minhash.WeightLnDF, "ln-df WeightLnDF",
		minhash.WeightLnDFPow, "ln-df-pow WeightLnDFPow", minhash.WeightIDF, "idf WeightIDF"),
	reflect.TypeFor[minhash.PhraseScale](): named[minhash.PhraseScale](
		minhash.ScaleNone, "none ScaleNone", minhash.ScaleLogIDF, "log-idf ScaleLogIDF",
		minhash.ScaleInverse, "inverse ScaleInverse"),
	reflect.TypeFor[minhash.RareRule](): named[minhash.RareRule](
		minhash.RareDocFraction, "doc-fraction RareDocFraction", minhash.RarePercentile, "percentile RarePercentile"),
	reflect.TypeFor[simhash.Features](): named[simhash.Features](
		simhash.FeatureWords, "words FeatureWords", simhash.FeatureWordNGrams, "word-ngrams FeatureWordNGrams",
		simhash.FeatureCharNGrams, "char-ngrams FeatureCharNGrams", simhash.FeatureSpots, "spots FeatureSpots"),
	reflect.TypeFor[simhash.Weights](): named[simhash.Weights](
		simhash.WeightIDF, "idf WeightIDF", simhash.WeightUnit, "unit WeightUnit",
		simhash.WeightTF, "tf WeightTF", simhash.WeightTFIDF, "tf-idf WeightTFIDF"),
	reflect.TypeFor[imatch.Selection](): named[imatch.Selection](
		imatch.SelectRank, "rank SelectRank", imatch.SelectBand, "band SelectBand"),
	reflect.TypeFor[imatch.Encoding](): named[imatch.Encoding](
		imatch.EncodeLengthPrefixed, "length-prefixed EncodeLengthPrefixed", imatch.EncodeConcat, "concat EncodeConcat"),
	reflect.TypeFor[tweezer.Mode](): named[tweezer.Mode](
		tweezer.Overlap, "overlap Overlap", tweezer.Exact, "exact Exact", tweezer.Jaccard, "jaccard Jaccard"),
}

// parseChoice reads val as a name or the decimal number of one of cs;
// with raw (entry.build's), as any decimal number too.
func parseChoice(t reflect.Type, cs []choice, val string, raw bool) (int64, error) {
	n, err := strconv.ParseInt(val, 10, 64)
	isNum := err == nil && decimalInt.MatchString(val)
	if raw && isNum {
		return n, nil
	}
	for _, c := range cs {
		if isNum && n == c.value || slices.ContainsFunc(c.names, func(s string) bool { return strings.EqualFold(s, val) }) {
			return c.value, nil
		}
	}
	list := make([]string, len(cs))
	for i, c := range cs {
		list[i] = fmt.Sprintf("%s (%d)", c.names[0], c.value)
	}
	return 0, fmt.Errorf("%q names no %s (want one of %s)", val, t.Name(), strings.Join(list, ", "))
}

// ruleLanguages are the languages textproc has rules of its own for
// (textproc.RuleSet); every other known language is read as
// language-neutral text.
var ruleLanguages = []string{"en", "tr", "az"}

// checkLanguage rejects a well-formed tag of no known language, which
// textproc.ParseLanguage would call "not a BCP 47 tag". A tag that is not
// well-formed is left to the package's New, which names the field.
func checkLanguage(val string) error {
	if val == "" {
		return nil
	}
	_, err := language.Parse(val)
	var ve language.ValueError
	if errors.As(err, &ve) {
		return fmt.Errorf("%q is a well-formed but unknown language tag (want a known BCP 47 tag: textproc has rules for %s; any other known language, and \"\", is read as language-neutral text)",
			val, strings.Join(ruleLanguages, ", "))
	}
	return nil
}

// Every detector type behind the registry is an Index, checked here once
// when the module compiles rather than in each package.
var (
	_ Index = (*codet.Detector)(nil)
	_ Index = (*imatch.Detector)(nil)
	_ Index = (*minhash.Detector)(nil)
	_ Index = (*mrcosine.Detector)(nil)
	_ Index = (*naive.Detector)(nil)
	_ Index = (*shingle.Detector)(nil)
	_ Index = (*simhash.Detector)(nil)
	_ Index = (*tweezer.Detector)(nil)
)

// Index is a named detector with every capability a service uses, so
// that it needs no type assertion: Add, Containers and Close
// ([detector.Detector]); Remove; Query, which looks a text up without
// storing it; Nearest, the stored documents closest to a text, below the
// threshold too; Copies, the exact copies of a document; WriteTo and
// ReadFrom, a snapshot to survive a restart. Every registry name
// implements it.
//
// A [detector.NewWindow], [detector.Cascade] or [detector.Vote]
// built over Indexes implements an optional interface exactly when its
// members all do: a Window over an Index is an Index too (assert it), a
// Vote of Indexes one as well; a Cascade lacks Copies, since documents its
// proposer reads as identical may differ in its verify's features.
type Index interface {
	detector.Detector
	detector.Remover
	detector.Querier
	detector.Ranker
	detector.CopyLister
	detector.Persister
}

// NewIndex returns the detector registered under name, built from options
// as [New] builds it, as an Index. Its errors are New's.
func NewIndex(name string, options map[string]string) (Index, error) {
	d, err := New(name, options)
	if err != nil {
		return nil, err
	}
	ix, ok := d.(Index)
	if !ok {
		d.Close()
		return nil, fmt.Errorf("neardup: %s does not implement Index: %w", name, errors.ErrUnsupported)
	}
	return ix, nil
}
