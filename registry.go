package neardup

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/imatch"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
	"github.com/seed-9ef9c1df/neardup/minhash"
	"github.com/seed-9ef9c1df/neardup/mrcosine"
	"github.com/seed-9ef9c1df/neardup/shingle"
	"github.com/seed-9ef9c1df/neardup/simhash"
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
	// Options lists the Config fields New accepts as options (Language
	// among them).
	Options []string
	// Fixed lists the Config fields the name itself sets (the method of a
	// shingle detector, the mode of a MinHash one, ...): New rejects them
	// as options.
	Fixed []string
}

// entry is a named constructor.
type entry struct {
	info  Info
	build func(opts map[string]string) (detector.Detector, error)
}

// define adapts a package constructor. preset, if not nil, sets the fields
// that make the entry what it is (they are rejected as options) and the
// preset's other values, which options may override.
func define[C any, D detector.Detector](info Info, newFn func(C) (D, error), preset func(*C), fixed ...string) entry {
	var zero C
	for _, k := range settableFields(reflect.TypeOf(zero)) {
		if !slices.Contains(fixed, k) {
			info.Options = append(info.Options, k)
		}
	}
	info.Fixed = fixed
	return entry{info: info, build: func(opts map[string]string) (detector.Detector, error) {
		var cfg C
		if preset != nil {
			preset(&cfg)
		}
		if err := apply(&cfg, info, opts); err != nil {
			return nil, err
		}
		d, err := newFn(cfg)
		if err != nil {
			return nil, err
		}
		return d, nil
	}}
}

// registry lists every named detector, in the order Names returns them:
// the package defaults first, then presets.
var registry = []entry{
	define(Info{Name: "codet", Containment: true,
		Summary: "CoDet sentence corpus tree (Varol et al. 2011)",
		UseWhen: "articles inside longer ones (round-ups, updates), sentence-level evidence"},
		codet.New, nil),
	define(Info{Name: "ffp", Containment: true,
		Summary: "full fingerprinting: every word 4-gram, containment ≥ 0.25 with 30 shared (Varol 2012 §4.1.2)",
		UseWhen: "exact containment where an index of every shingle fits in memory"},
		shingle.New, func(c *shingle.Config) { c.Method = shingle.FullFingerprint }, "Method"),
	define(Info{Name: "dsc", Containment: true,
		Summary: "DSC: 1 shingle in 4 sampled, containment ≥ 0.25 with 10 shared (Broder et al. 1997; Varol 2012 §4.1.1)",
		UseWhen: "cheaper, sampled containment over long documents"},
		shingle.New, func(c *shingle.Config) { c.Method = shingle.DSC }, "Method"),
	define(Info{Name: "spotsigs",
		Summary: "SpotSigs stopword-anchored signatures, multiset Jaccard (Theobald et al. 2008)",
		UseWhen: "web pages whose boilerplate would fool word shingles"},
		shingle.New, func(c *shingle.Config) { c.Method = shingle.SpotSigs }, "Method"),
	define(Info{Name: "minhash",
		Summary: "MinHash LSH over word shingles, Jaccard verified by the estimate (Broder 1997; Indyk & Motwani 1998)",
		UseWhen: "near-duplicates at scale with a tunable threshold"},
		minhash.New, func(c *minhash.Config) { c.Mode = minhash.Jaccard }, "Mode"),
	define(Info{Name: "minhash-weighted",
		Summary: "weighted MinHash of 7-word phrases, Alonso et al. 2013 weighting",
		UseWhen: "rare phrases should count more than common ones"},
		minhash.New, func(c *minhash.Config) { c.Mode = minhash.Weighted }, "Mode"),
	define(Info{Name: "minhash-containment", Containment: true,
		Summary: "MinHash containment with an LSH Ensemble index (Zhu et al. 2016)",
		UseWhen: "short documents must find the long ones that contain them, at scale"},
		minhash.New, func(c *minhash.Config) { c.Mode = minhash.Containment }, "Mode"),
	define(Info{Name: "simhash",
		Summary: "SimHash 64-bit fingerprints with a Hamming index (Charikar 2002; Manku et al. 2007)",
		UseWhen: "8 bytes per document, near-exact copies"},
		simhash.New, nil),
	define(Info{Name: "imatch",
		Summary: "I-Match IDF-filtered digest (Chowdhury et al. 2002)",
		UseWhen: "cheapest exact-ish duplicate grouping"},
		imatch.New, nil),
	define(Info{Name: "tweezer",
		Summary: "Tweezer named-entity shingles (Uyar 2009), overlap with evidence",
		UseWhen: "news copies that keep the names and their context"},
		tweezer.New, nil),
	define(Info{Name: "mrcosine",
		Summary: "multireference cosine signatures (Mohammadi & Khasteh 2020)",
		UseWhen: "fixed-size numeric signatures for a vector index"},
		mrcosine.New, nil),
	// Presets: non-default settings measured better on some inputs.
	define(Info{Name: "tweezer-exact",
		Summary: "Tweezer named-entity shingle digest as published (Uyar 2009)",
		UseWhen: "exact-ish copies, the thesis's setting"},
		tweezer.New, func(c *tweezer.Config) { c.Mode = tweezer.Exact }, "Mode"),
	define(Info{Name: "simhash-spots",
		Summary: "SimHash over spot signatures (tf), Hamming ≤ 20; English stopwords unless Language says otherwise",
		UseWhen: "one 64-bit value per page; not for short wire copy (at K = 20 it joins nearly all of Reuters into one cluster)"},
		simhash.New, func(c *simhash.Config) {
			c.Features, c.Weights, c.K = simhash.FeatureSpots, simhash.WeightTF, 20
			c.Language = "en" // spot signatures need a stopword list
		}, "Features"),
	define(Info{Name: "mrcosine-centered",
		Summary: "multireference cosine, signatures centred on the training mean",
		UseWhen: "numeric signatures, better separated"},
		mrcosine.New, func(c *mrcosine.Config) { c.Centered = true }, "Centered"),
	define(Info{Name: "reference", Containment: true,
		Summary: "exact word 4-shingle containment against every live document (a baseline)",
		UseWhen: "tests: the exact answer, in time quadratic in the collection"},
		naive.NewChecked, nil),
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
// where options say otherwise. Option keys are Config field names of that
// package (case-insensitive; [Info.Options] lists them), values are parsed
// by the field's type: "Language": "tr", "Threshold": "0.3", "Content":
// "1". Errors wrap [detector.ErrInvalidConfig]: an unknown name, an unknown
// or fixed option, an unparsable value, and whatever the package's New
// rejects.
func New(name string, options map[string]string) (detector.Detector, error) {
	e, err := find(name)
	if err != nil {
		return nil, err
	}
	return e.build(options)
}

// ParseOptions turns "key=value" strings (as a command line gives them)
// into the options of [New].
func ParseOptions(kvs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("neardup: option %q: want key=value: %w", kv, detector.ErrInvalidConfig)
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

// apply sets the fields of *cfg named by opts, in sorted key order.
func apply(cfg any, info Info, opts map[string]string) error {
	v := reflect.ValueOf(cfg).Elem()
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range opts {
			if !yield(k) {
				return
			}
		}
	}) {
		if i := slices.IndexFunc(info.Fixed, func(s string) bool { return strings.EqualFold(s, k) }); i >= 0 {
			return fmt.Errorf("neardup: %s: option %s is fixed by the name (use another name): %w",
				info.Name, info.Fixed[i], detector.ErrInvalidConfig)
		}
		i := slices.IndexFunc(info.Options, func(s string) bool { return strings.EqualFold(s, k) })
		if i < 0 {
			return fmt.Errorf("neardup: %s: unknown option %q (options: %s): %w",
				info.Name, k, strings.Join(info.Options, ", "), detector.ErrInvalidConfig)
		}
		if err := setField(v.FieldByName(info.Options[i]), opts[k]); err != nil {
			return fmt.Errorf("neardup: %s: option %s=%q: %v: %w",
				info.Name, info.Options[i], opts[k], err, detector.ErrInvalidConfig)
		}
	}
	return nil
}

// setField parses val by f's kind and stores it.
func setField(f reflect.Value, val string) error {
	switch f.Kind() {
	case reflect.Bool:
		b, err := strconv.ParseBool(val)
		f.SetBool(b)
		return err
	case reflect.String:
		f.SetString(val)
		return nil
	case reflect.Float32, reflect.Float64:
		x, err := strconv.ParseFloat(val, f.Type().Bits())
		f.SetFloat(x)
		return err
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x, err := strconv.ParseInt(val, 0, f.Type().Bits())
		f.SetInt(x)
		return err
	default:
		x, err := strconv.ParseUint(val, 0, f.Type().Bits())
		f.SetUint(x)
		return err
	}
}
