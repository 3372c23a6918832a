package ner

import (
	"embed"
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/language"
)

// Gazetteer holds the name lists of the gazetteer-lookup step (Uyar 2009
// §3.1, Table 3.1). Entries are matched case-insensitively with the
// language's case rules, circumflexes ignored ("Hollânda" = "Hollanda").
type Gazetteer struct {
	// Persons are given names (one word: a candidate of at most
	// [MaxPersonWords] words starting with one is a person) or full names
	// (several words: the whole candidate must be equal).
	Persons []string
	// Locations are place names; the whole candidate must be equal
	// ("İstanbul", "New York").
	Locations []string
	// Organizations are organization names; a candidate equal to an entry
	// is an organization, and so is one that starts with an entry followed
	// by place names only ("Microsoft Türkiye", Uyar 2009 Fig. 3.1). A name
	// in both Organizations and Locations is an organization.
	Organizations []string
	// CommonNames are given names that are also common words ("Deniz" =
	// sea, "Vergi" = tax). Alone, or first in a sentence, they do not make a
	// person: the failure of Uyar 2009 §3.3, "Deniz bugün çok soğuk".
	CommonNames []string
	// NotPersons are capitalised words that name no person: peoples,
	// languages, doctrines, colours of clubs ("Türk", "Almanca", "Budizm",
	// "Sarı"). They are never taken for a person on their own, but may be
	// part of longer names ("Türk Telekom", "Mehmet Türk").
	NotPersons []string
}

// MaxPersonWords is the longest candidate that a given name at its start
// makes a person: a given name, up to two more given names or a surname,
// and a surname (empirical, Turkish names such as "Ahmet Necdet Sezer").
const MaxPersonWords = 4

//go:embed data/*.txt
var dataFS embed.FS

// readList returns the entries of an embedded list: one per line, '#'
// comment lines and blank lines skipped.
func readList(name string) []string {
	b, err := dataFS.ReadFile("data/" + name)
	if err != nil {
		panic("ner: missing embedded list " + name) // unreachable: embedded at build time
	}
	var out []string
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		out = append(out, line)
	}
	return out
}

var (
	trGazetteer = sync.OnceValue(func() Gazetteer {
		return Gazetteer{
			Persons: slices.Concat(readList("tr-given-names.txt"), readList("tr-extra-given-names.txt"),
				readList("given-names-intl.txt"), readList("tr-notable-persons.txt"), readList("tr-surnames.txt")),
			Locations:     without(slices.Concat(readList("tr-places.txt"), readList("tr-extra-places.txt")), readList("tr-not-locations.txt")),
			Organizations: readList("tr-organizations.txt"),
			CommonNames:   slices.Concat(readList("tr-common-names.txt"), readList("tr-extra-common-names.txt")),
			NotPersons:    slices.Concat(readList("tr-not-places.txt"), readList("tr-extra-not-names.txt")),
		}
	})
	enGazetteer = sync.OnceValue(func() Gazetteer {
		return Gazetteer{
			Persons:       readList("given-names-intl.txt"),
			Locations:     readList("en-places.txt"),
			Organizations: readList("en-organizations.txt"),
			CommonNames:   readList("en-common-names.txt"),
		}
	})
)

// DefaultGazetteer returns a copy of the gazetteer used for lang when
// Config.Gazetteer is nil.
//
// Turkish (and the zero tag, and every tag but English): the given names of
// Zemberek's person-names.dict, the place names of Zemberek's proper.dict
// (filtered by gen_gazetteer.go, less the religions and peoples of
// tr-not-locations.txt), both Apache-2.0 (see the NOTICE file), the given
// names among them that news writes mostly in lower case as CommonNames,
// plus lists written for this package: Turkish and international given
// names Zemberek lacks, Turkish districts and towns, world cities and
// regions, and about 250 organizations. English: lists written for this
// package (about 400 given names, 130 places, 30 organizations).
func DefaultGazetteer(lang language.Tag) Gazetteer {
	g := trGazetteer()
	if langOf(lang) == "en" {
		g = enGazetteer()
	}
	return Gazetteer{
		Persons:       slices.Clone(g.Persons),
		Locations:     slices.Clone(g.Locations),
		Organizations: slices.Clone(g.Organizations),
		CommonNames:   slices.Clone(g.CommonNames),
		NotPersons:    slices.Clone(g.NotPersons),
	}
}
