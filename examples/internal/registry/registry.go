// Package registry adapts the library's named detectors ([neardup.New]) to
// the example programs, which pick a language per input file.
package registry

import (
	"maps"
	"slices"
	"strings"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup"
	"github.com/seed-9ef9c1df/neardup/detector"
)

// Entry is one named detector.
type Entry struct {
	neardup.Info
}

// New builds the detector for lang with option overrides. lang fills the
// Language option unless set names it or the detector has none.
func (e Entry) New(lang language.Tag, set map[string]string) (detector.Detector, error) {
	opts := maps.Clone(set)
	if opts == nil {
		opts = map[string]string{}
	}
	if slices.Contains(e.Options, "Language") && !hasKey(opts, "Language") && lang != language.Und {
		opts["Language"] = lang.String()
	}
	return neardup.New(e.Name, opts)
}

func hasKey(m map[string]string, k string) bool {
	for key := range m {
		if strings.EqualFold(key, k) {
			return true
		}
	}
	return false
}

// All returns every named detector, in the order the examples show them.
func All() []Entry {
	var out []Entry
	for _, name := range neardup.Names() {
		e, err := Lookup(name)
		if err != nil {
			panic(err) // Names and Lookup disagree: a bug in package neardup
		}
		out = append(out, e)
	}
	return out
}

// Lookup returns the entry called name.
func Lookup(name string) (Entry, error) {
	info, err := neardup.Lookup(name)
	return Entry{info}, err
}

// ParseSet parses "key=value" strings.
func ParseSet(kvs []string) (map[string]string, error) { return neardup.ParseOptions(kvs) }
