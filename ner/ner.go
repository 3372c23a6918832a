package ner

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/enum"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Type is the category of a named entity: one of the ENAMEX types of Uyar
// 2009 §3 (dates and numbers are left out on purpose, as in the thesis).
type Type uint8

// The entity types.
const (
	Person Type = iota + 1
	Location
	Organization
)

// String returns "PER", "LOC" or "ORG" (the labels of Tür et al. 2003), or
// "Type(n)" for any other value.
func (t Type) String() string {
	return enum.String("Type", int(t), "", "PER", "LOC", "ORG")
}

// Entity is one named entity found in a text.
type Entity struct {
	// Type is the entity's category.
	Type Type
	// Start and End are the byte offsets of the entity in the text passed
	// to Find: Start is the first byte of its first word, End the end of its
	// last word without the apostrophe suffix ("Bursa'nın" ends after
	// "Bursa"). Suffixes of inner words stay inside the range.
	Start, End int
	// Text is the canonical form: the words of the entity with their
	// apostrophe suffixes stripped, joined by single spaces ("Bursa'nın
	// Orhangazi İlçesi'nde" → "Bursa Orhangazi İlçesi", Uyar 2009 Fig. 4.1).
	Text string
}

// Recognizer finds person, location and organization names in text with the
// rules, gazetteer and partial matching of TuNER (Uyar 2009 §3.3), and the
// document memory described in the package documentation.
//
// A Recognizer is immutable once built and safe for concurrent use by
// multiple goroutines: the memory of a text lives in the state of the call
// that reads it.
type Recognizer struct {
	cfg    Config
	lang   string // "tr" or "en"
	tag    language.Tag
	folder textproc.Folder

	prefixes, modifiers, personSuf, locSuf, orgSuf, notNames, ambiguous, notPersons map[string]bool

	givenNames, fullPersons, locations map[string]bool
	orgs                               map[string]bool
	orgMaxWords                        int
	locMaxWords, personMaxWords        int              // words of the longest place and full name of the gazetteer
	memLookupMax                       int              // words of the longest key the memory can hold
	kinds                              map[string]uint8 // rule lists of a word key (spans.go)
	hyphenTails                        map[string]bool  // Turkish only: "Türk - İş"

	docs sync.Pool // of *doc: the per-call state, reused (release)
}

// New returns a Recognizer for cfg. Every Config is valid (an unknown
// Language selects the Turkish rules), so New cannot fail. New time is a few
// milliseconds for the default gazetteers (BenchmarkNew), which it turns
// into maps: build one Recognizer and share it.
func New(cfg Config) *Recognizer {
	r := &Recognizer{cfg: cfg, lang: langOf(cfg.Language)}
	r.tag = language.Turkish
	if r.lang == "en" {
		r.tag = language.English
	}
	r.folder = textproc.NewFolder(r.tag).WithoutCircumflex()
	rules := cfg.Rules
	if rules == nil {
		d := DefaultRules(r.tag)
		rules = &d
	}
	gaz := cfg.Gazetteer
	if gaz == nil {
		g := DefaultGazetteer(r.tag)
		gaz = &g
	}
	// Config holds pointers; keep the Recognizer independent of later
	// changes the caller makes through them.
	r.cfg.Rules, r.cfg.Gazetteer = nil, nil
	r.prefixes = r.set(rules.PersonPrefixes)
	r.modifiers = r.set(rules.TitleModifiers)
	r.personSuf = r.set(rules.PersonSuffixes)
	r.locSuf = r.set(rules.LocationSuffixes)
	r.orgSuf = r.set(rules.OrganizationSuffixes)
	r.notNames = r.set(rules.NotNames)
	if r.lang == "tr" {
		r.hyphenTails = r.set(hyphenTails)
	}
	for _, w := range textproc.Stopwords(r.tag) {
		r.notNames[w] = true
	}
	r.ambiguous = r.set(gaz.CommonNames)
	r.notPersons = r.set(gaz.NotPersons)
	r.givenNames = map[string]bool{}
	r.fullPersons = map[string]bool{}
	for _, p := range gaz.Persons {
		k := r.entryKey(p)
		if k == "" {
			continue
		}
		if strings.Contains(k, " ") {
			r.fullPersons[k] = true
			r.personMaxWords = max(r.personMaxWords, strings.Count(k, " ")+1)
		} else {
			r.givenNames[k] = true
		}
	}
	r.orgs = map[string]bool{}
	for _, o := range gaz.Organizations {
		if k := r.entryKey(o); k != "" {
			r.orgs[k] = true
			r.orgMaxWords = max(r.orgMaxWords, strings.Count(k, " ")+1)
		}
	}
	r.locations = map[string]bool{}
	for _, l := range gaz.Locations {
		if k := r.entryKey(l); k != "" && !r.orgs[k] {
			r.locations[k] = true
			r.locMaxWords = max(r.locMaxWords, strings.Count(k, " ")+1)
		}
	}
	// The memory holds the sub-spans of emitted entities up to
	// memMaxWords words and the places nested in them.
	r.memLookupMax = max(memMaxWords, r.locMaxWords)
	r.buildKinds()
	return r
}

// docScratchMax is the number of words above which a released doc's
// buffers are dropped, so that one outlier text does not keep its size.
const docScratchMax = 1 << 14

// release returns d to the pool, emptied; nothing of d may be used after.
// Maps are cleared, not reallocated: clearing costs the table's size,
// which the word cap bounds.
func (r *Recognizer) release(d *doc) {
	if cap(d.words) > docScratchMax || len(d.lower) > docScratchMax || len(d.mem) > docScratchMax {
		return
	}
	clear(d.words) // the keys point into the text: do not keep it alive
	clear(d.out)
	clear(d.lower)
	clear(d.apos)
	clear(d.mem)
	*d = doc{
		words: d.words[:0], lower: d.lower, apos: d.apos, mem: d.mem,
		unknown: d.unknown[:0], out: d.out[:0], kbuf: d.kbuf[:0],
		idx: d.idx[:0], kinds: d.kinds[:0],
	}
	r.docs.Put(d)
}

func langOf(tag language.Tag) string {
	if textproc.RuleSet(tag) == "en" {
		return "en"
	}
	return "tr" // the recogniser has English and Turkish rules only
}

// fold lower-cases w with the language's rules (the text pipeline's
// textproc.Folder: NFC, apostrophes unified) and drops circumflexes.
func (r *Recognizer) fold(w string) string { return r.folder.Fold(w) }

// entryKey folds a list entry into the key a candidate of the same words
// gets: its words (textproc.Words) joined by single spaces, so that "U.S."
// and "G. Saray" match however the text punctuates them.
func (r *Recognizer) entryKey(s string) string {
	var b strings.Builder
	for sp := range textproc.Words(s) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(r.fold(s[sp.Start:r.stemEnd(s, sp.Start, sp.End)]))
	}
	return b.String()
}

func (r *Recognizer) set(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		if k := r.entryKey(w); k != "" {
			m[k] = true
		}
	}
	return m
}

// Find returns the named entities of text ordered by Start, then by
// descending length. Invalid UTF-8 separates words and never fails.
//
// Find time is O(n) in the length of text for any input, however long its
// runs of capitalised words: a look-up of a run of words in the gazetteer
// or the memory never spans more words than their longest entry.
func (r *Recognizer) Find(text string) []Entity {
	return r.AppendEntities(nil, text)
}

// AppendEntities appends the entities of text to dst as [Recognizer.Find]
// orders them and returns the extended slice.
func (r *Recognizer) AppendEntities(dst []Entity, text string) []Entity {
	d := r.analyse(text)
	dst = append(dst, d.out...)
	r.release(d)
	return dst
}

// analyse runs the recogniser on text and returns its state, with the
// entities in d.out, sorted and without duplicates.
func (r *Recognizer) analyse(text string) *doc {
	d, _ := r.docs.Get().(*doc)
	if d == nil {
		d = &doc{lower: map[string]bool{}, apos: map[string]bool{}, mem: memory{}}
	}
	d.text = text
	d.words = slices.Grow(d.words[:0], len(text)/5+4) // English news: about one word per 6 bytes
	r.tokenize(d)
	r.index(d)
	r.pass(d)
	if r.cfg.WholeText {
		// Beyond Uyar 2009 §3.3: partial matching against every entity of
		// the document, not only the earlier ones ("Yılmaz ... Mesut
		// Yılmaz"). The first pass collects the entities; the second
		// classifies again with all of them known.
		d.out, d.unknown = d.out[:0], d.unknown[:0]
		for k := range d.words {
			d.words[k].ent = 0
		}
		r.pass(d)
	}
	r.listPersons(d)
	out := d.out
	slices.SortStableFunc(out, func(a, b Entity) int {
		if c := cmp.Compare(a.Start, b.Start); c != 0 {
			return c
		}
		return cmp.Compare(b.End, a.End)
	})
	d.out = slices.CompactFunc(out, func(a, b Entity) bool { return a == b })
	return d
}
