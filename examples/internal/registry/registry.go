// Package registry names every detector of the library for the example
// programs, builds them from a language and "key=value" option overrides,
// and lists their options.
package registry

import (
	"fmt"
	"reflect"
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
	"github.com/seed-9ef9c1df/neardup/tweezer"
)

// Entry is one named detector.
type Entry struct {
	// Name is the name examples/evaluate -detector takes.
	Name string
	// Containment says the detector is asymmetric (C ⊇ A); otherwise it
	// reports near-duplicates.
	Containment bool
	// Summary is a one-line description.
	Summary string
	// New builds the detector for a language with option overrides (Config
	// field names, case-insensitive).
	New func(lang language.Tag, set map[string]string) (detector.Detector, error)
	// UseWhen is a one-line recommendation for the README table.
	UseWhen string
	// Options lists the Config fields -set accepts.
	Options []string
}

// build adapts a package constructor: the Config gets the language (if it
// has a Language field) and the overrides.
func build[C any, D detector.Detector](newFn func(C) (D, error)) (func(language.Tag, map[string]string) (detector.Detector, error), []string) {
	var zero C
	return func(lang language.Tag, set map[string]string) (detector.Detector, error) {
		var cfg C
		if f := reflect.ValueOf(&cfg).Elem().FieldByName("Language"); f.IsValid() {
			switch {
			case f.Type() == reflect.TypeOf(language.Tag{}):
				f.Set(reflect.ValueOf(lang))
			case f.Kind() == reflect.String:
				f.SetString(lang.String())
			}
		}
		if err := Apply(&cfg, set); err != nil {
			return nil, err
		}
		d, err := newFn(cfg)
		if err != nil {
			return nil, err
		}
		return d, nil
	}, Keys(zero)
}

func entry[C any, D detector.Detector](name string, containment bool, summary, useWhen string, newFn func(C) (D, error)) Entry {
	f, keys := build(newFn)
	return Entry{Name: name, Containment: containment, Summary: summary, UseWhen: useWhen, New: f, Options: keys}
}

// All returns every detector, in the order the examples show them.
func All() []Entry {
	return []Entry{
		entry("codet", true, "CoDet sentence corpus tree (Varol et al. 2011)",
			"articles inside longer ones (round-ups, updates), sentence-level evidence", codet.New),
		entry("ffp", true, "full fingerprinting: every word 4-gram, containment ≥ 0.25 with 30 shared (Varol 2012 §4.1.2)",
			"exact containment where an index of every shingle fits in memory", withMethod(shingle.FullFingerprint)),
		entry("dsc", true, "DSC: 1 shingle in 4 sampled, containment ≥ 0.25 with 10 shared (Broder et al. 1997; Varol 2012 §4.1.1)",
			"cheaper, sampled containment over long documents", withMethod(shingle.DSC)),
		entry("spotsigs", false, "SpotSigs stopword-anchored signatures, multiset Jaccard (Theobald et al. 2008)",
			"web pages whose boilerplate would fool word shingles", withMethod(shingle.SpotSigs)),
		entry("minhash", false, "MinHash LSH over word shingles, Jaccard verified by the estimate",
			"near-duplicates at scale with a tunable threshold", withMode(minhash.Jaccard)),
		entry("minhash-weighted", false, "weighted MinHash (ICWS) of 7-word phrases, Alonso et al. 2013 weighting",
			"rare phrases should count more than common ones", withMode(minhash.Weighted)),
		entry("minhash-containment", true, "MinHash containment with an LSH Ensemble index",
			"short documents must find the long ones that contain them, at scale", withMode(minhash.Containment)),
		entry("simhash", false, "SimHash 64-bit fingerprints with a Hamming index (Charikar 2002; Manku et al. 2007)",
			"8 bytes per document, near-exact copies", simhash.New),
		entry("imatch", false, "I-Match IDF-filtered digest (Chowdhury et al. 2002)",
			"cheapest exact-ish duplicate grouping", imatch.New),
		entry("tweezer", false, "Tweezer named-entity shingles (Uyar 2009), overlap with evidence",
			"news copies that keep the names and their context", tweezer.New),
		entry("mrcosine", false, "multireference cosine signatures (Mohammadi & Khasteh 2020)",
			"fixed-size numeric signatures for a vector index", mrcosine.New),
		// Presets: a non-default setting measured better on web pages.
		entry("tweezer-exact", false, "Tweezer named-entity shingle digest as published (Uyar 2009)",
			"exact-ish copies, the thesis's setting",
			func(c tweezer.Config) (*tweezer.Detector, error) { c.Mode = tweezer.Exact; return tweezer.New(c) }),
		entry("simhash-spots", false, "SimHash over spot signatures (tf), Hamming ≤ 20",
			"one 64-bit value per page; not for short wire copy (at K = 20 it joins nearly all of Reuters into one cluster)",
			func(c simhash.Config) (*simhash.Detector, error) {
				c.Features, c.Weights, c.K = simhash.FeatureSpots, simhash.WeightTF, 20
				return simhash.New(c)
			}),
		entry("mrcosine-centered", false, "multireference cosine, signatures centred on the training mean",
			"numeric signatures, better separated",
			func(c mrcosine.Config) (*mrcosine.Detector, error) { c.Centered = true; return mrcosine.New(c) }),
		entry("reference", true, "exact word 4-shingle containment against every live document (baseline)",
			"tests: the exact answer, slowly",
			func(c naive.Config) (*naive.Detector, error) { return naive.New(c), nil }),
	}
}

// withMethod builds a shingle detector with a fixed Method.
func withMethod(m shingle.Method) func(shingle.Config) (*shingle.Detector, error) {
	return func(c shingle.Config) (*shingle.Detector, error) {
		c.Method = m
		return shingle.New(c)
	}
}

// withMode builds a minhash detector with a fixed Mode.
func withMode(m minhash.Mode) func(minhash.Config) (*minhash.Detector, error) {
	return func(c minhash.Config) (*minhash.Detector, error) {
		c.Mode = m
		return minhash.New(c)
	}
}

// Names returns the names of All.
func Names() []string {
	var out []string
	for _, e := range All() {
		out = append(out, e.Name)
	}
	return out
}

// Lookup returns the entry called name.
func Lookup(name string) (Entry, error) {
	for _, e := range All() {
		if e.Name == name {
			return e, nil
		}
	}
	return Entry{}, fmt.Errorf("unknown detector %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Keys lists the settable fields of a Config value.
func Keys(cfg any) []string {
	t := reflect.TypeOf(cfg)
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.IsExported() && settable(f.Type.Kind()) {
			out = append(out, f.Name)
		}
	}
	return out
}

func settable(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// Apply sets the fields of *cfg named by the keys of set (case-insensitive)
// to the parsed values. An unknown key or an unparsable value is an error
// naming the valid keys.
func Apply(cfg any, set map[string]string) error {
	v := reflect.ValueOf(cfg).Elem()
	keys := Keys(v.Interface())
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range set {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range names {
		val := set[k]
		i := slices.IndexFunc(keys, func(s string) bool { return strings.EqualFold(s, k) })
		if i < 0 {
			return fmt.Errorf("unknown option %q (options: %s)", k, strings.Join(keys, ", "))
		}
		f := v.FieldByName(keys[i])
		var err error
		switch f.Kind() {
		case reflect.Bool:
			var b bool
			b, err = strconv.ParseBool(val)
			f.SetBool(b)
		case reflect.String:
			f.SetString(val)
		case reflect.Float32, reflect.Float64:
			var x float64
			x, err = strconv.ParseFloat(val, 64)
			f.SetFloat(x)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			var x int64
			x, err = strconv.ParseInt(val, 0, 64)
			f.SetInt(x)
		default:
			var x uint64
			x, err = strconv.ParseUint(val, 0, 64)
			f.SetUint(x)
		}
		if err != nil {
			return fmt.Errorf("option %s=%q: %v", keys[i], val, err)
		}
	}
	return nil
}

// ParseSet parses "key=value" strings.
func ParseSet(kvs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("-set %q: want key=value", kv)
		}
		out[k] = v
	}
	return out, nil
}
