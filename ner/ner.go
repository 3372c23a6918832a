package ner

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Type is the category of a named entity: one of the ENAMEX types of seed
// 001 §3 (dates and numbers are left out on purpose, as in the thesis).
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
	switch t {
	case Person:
		return "PER"
	case Location:
		return "LOC"
	case Organization:
		return "ORG"
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
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
	// Orhangazi İlçesi'nde" → "Bursa Orhangazi İlçesi", seed 001 Fig. 4.1).
	Text string
}

// Config configures a [Recognizer]. The zero value is TuNER for Turkish with
// the default rules and gazetteer.
type Config struct {
	// Language selects the rules, gazetteer, case folding and sentence
	// splitting. language.English (and its regional variants) selects the
	// English lists; every other tag, including the zero tag, selects
	// Turkish (seed 001).
	Language language.Tag
	// Rules replaces [DefaultRules] when non-nil. The Recognizer copies it.
	Rules *Rules
	// Gazetteer replaces [DefaultGazetteer] when non-nil. The Recognizer
	// copies it.
	Gazetteer *Gazetteer
	// SplitAtApostrophe ends a candidate after a word with an apostrophe
	// suffix, the convention of the Turkish NER gold standard (Tür et al.
	// 2003: "[LOC Bursa ] 'nın [LOC Orhangazi İlçesi ]"). The default
	// (false) follows seed 001 Fig. 4.1, where "Bursa'nın Orhangazi
	// İlçesi'nde" is one entity. English possessives ("Texaco Inc's")
	// always end a candidate.
	SplitAtApostrophe bool
	// Nested also reports entities nested inside longer ones: "Mersin" in
	// "Mersin Üniversitesi" (seed 001 Fig. 3.1). By default only maximal
	// entities are reported.
	Nested bool
	// WholeText matches candidates partially against the entities of the
	// whole text (a surname before the full name), at the cost of a second
	// pass. By default partial matching sees only the entities found
	// earlier in the text, as seed 001 §3.3 describes it.
	WholeText bool
}

// Recognizer finds person, location and organization names in text with the
// rules, gazetteer and partial matching of TuNER (seed 001 §3.3).
//
// A Recognizer is immutable once built and safe for concurrent use by
// multiple goroutines.
type Recognizer struct {
	cfg  Config
	lang string // "tr" or "en"
	tag  language.Tag

	prefixes, modifiers, personSuf, locSuf, orgSuf, notNames, ambiguous, notPersons map[string]bool

	givenNames, fullPersons, locations map[string]bool
	orgs                               map[string]bool
	orgMaxWords                        int
	acronymMax                         int
}

// New returns a Recognizer for cfg. The error is always nil today (every
// Config is valid); it is kept so that validation of future fields does not
// change the signature.
func New(cfg Config) (*Recognizer, error) {
	r := &Recognizer{cfg: cfg, lang: langOf(cfg.Language), acronymMax: 4}
	r.tag = language.Turkish
	if r.lang == "en" {
		r.tag = language.English
	}
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
		}
	}
	return r, nil
}

func langOf(tag language.Tag) string {
	// The zero tag's base is guessed as English with low confidence: only a
	// tag that names English selects it.
	if b, conf := tag.Base(); (conf == language.Exact || conf == language.High) && b.String() == "en" {
		return "en"
	}
	return "tr"
}

// fold lower-cases w with the language's rules and drops circumflexes.
func (r *Recognizer) fold(w string) string {
	ascii := true
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		lower := true
		for i := 0; i < len(w); i++ {
			c := w[i]
			if 'A' <= c && c <= 'Z' {
				lower = false
				break
			}
		}
		if lower {
			return w
		}
		if r.lang == "en" {
			return strings.ToLower(w)
		}
	}
	var s string
	if r.lang == "en" {
		s = strings.ToLower(w)
	} else {
		s = strings.ToLowerSpecial(unicode.TurkishCase, w)
	}
	if !ascii {
		s = strings.Map(func(c rune) rune {
			switch c {
			case 'â':
				return 'a'
			case 'î':
				return 'i'
			case 'û':
				return 'u'
			case '\u2019':
				return '\''
			}
			return c
		}, s)
	}
	return s
}

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

// word is one word of the text being analysed.
type word struct {
	start, end int // surface span
	stemEnd    int // end without the apostrophe suffix
	key        string
	capital    bool // first letter upper case
	allCaps    bool // at least two letters, none lower case
	apos       bool // carries an apostrophe suffix
	sentStart  bool // first word of its sentence
	join       bool // may continue a candidate begun by the previous word
	placeCase  bool // Turkish locative or ablative apostrophe suffix
	shouting   bool // in a sentence written in capitals
}

// doc is the per-call state of Find.
type doc struct {
	text    string
	words   []word
	lower   map[string]bool // stems the document writes in lower case
	apos    map[string]bool // keys the document writes with an apostrophe suffix
	partial map[string]Type // word sequences of entities found so far
	out     []Entity
	kbuf    []byte // scratch of keyBytes
}

// Find returns the named entities of text ordered by Start, then by
// descending length. Invalid UTF-8 separates words and never fails.
//
// Find time is O(n) in the length of text (each candidate of k words costs
// O(k²) map look-ups, and k is small in real text).
func (r *Recognizer) Find(text string) []Entity {
	return r.AppendEntities(nil, text)
}

// AppendEntities appends the entities of text to dst as [Recognizer.Find]
// orders them and returns the extended slice.
func (r *Recognizer) AppendEntities(dst []Entity, text string) []Entity {
	d := &doc{
		text:    text,
		words:   make([]word, 0, len(text)/5+4), // English news: about one word per 6 bytes
		lower:   make(map[string]bool, len(text)/16),
		apos:    map[string]bool{},
		partial: map[string]Type{},
	}
	r.tokenize(d)
	r.pass(d)
	if r.cfg.WholeText {
		// Beyond seed 001 §3.3: partial matching against every entity of
		// the document, not only the earlier ones ("Yılmaz ... Mesut
		// Yılmaz"). The first pass collects the entities; the second
		// classifies again with all of them known.
		d.out = d.out[:0]
		r.pass(d)
	}
	out := d.out
	slices.SortStableFunc(out, func(a, b Entity) int {
		if c := cmp.Compare(a.Start, b.Start); c != 0 {
			return c
		}
		return cmp.Compare(b.End, a.End)
	})
	out = slices.CompactFunc(out, func(a, b Entity) bool { return a == b })
	return append(dst, out...)
}

// pass classifies every candidate of the document. Candidates (seed 001
// §3.3) are maximal runs of consecutive capitalised words, classified in
// document order so that partial matching sees the entities found earlier.
func (r *Recognizer) pass(d *doc) {
	ws := d.words
	for i := 0; i < len(ws); {
		if !r.candidateWord(d, i) {
			i++
			continue
		}
		j := i + 1
		for j < len(ws) {
			// English possessives always close a name ("Texaco Inc's
			// chairman"); Turkish case suffixes only with SplitAtApostrophe.
			split := ws[j-1].apos && (r.cfg.SplitAtApostrophe || r.lang == "en")
			if ws[j].join && r.candidateWord(d, j) && !split {
				j++
				continue
			}
			if r.ofJoins(d, j) {
				j += 2
				continue
			}
			if k := r.connectorJoins(d, j); k > j {
				j = k
				continue
			}
			break
		}
		r.splitTitles(d, i, j)
		i = j
	}
}

// ofJoins reports whether the English word j is an "of" that joins a
// suffix word to a name: "Bank of England", "Gulf of Mexico".
func (r *Recognizer) ofJoins(d *doc, j int) bool {
	ws := d.words
	return r.lang == "en" && j > 0 && j+1 < len(ws) && ws[j].key == "of" && ws[j].join && ws[j+1].join &&
		(r.orgSuf[ws[j-1].key] || r.locSuf[ws[j-1].key]) && r.candidateWord(d, j+1)
}

// connectorJoins returns the end of the capitalised words after a Turkish
// "ve" or a number at word j when they end in an organization or location
// suffix word, so that the connector belongs to the name: "Sosyal Hizmetler
// ve Çocuk Esirgeme Kurumu", "Ankara 5. Asliye Ceza Mahkemesi". It returns j
// when the connector does not join.
func (r *Recognizer) connectorJoins(d *doc, j int) int {
	ws := d.words
	if r.lang != "tr" || j == 0 || j+1 >= len(ws) || !ws[j].join || ws[j].capital {
		return j
	}
	key := ws[j].key
	if !isDigitStart(key) {
		return j
	}
	end := j
	for k := j + 1; k < len(ws) && ws[k].join && r.candidateWord(d, k); k++ {
		if r.locSuf[ws[k].key] || r.orgSuf[ws[k].key] {
			end = k + 1
		}
		if ws[k].apos {
			break
		}
	}
	return end
}

func isDigitStart(s string) bool { return s != "" && '0' <= s[0] && s[0] <= '9' }

// tokenize fills d.words and d.lower.
func (r *Recognizer) tokenize(d *doc) {
	text := d.text
	for s := range textproc.Sentences(text, r.tag) {
		first := true
		prevEnd := -1
		firstWord := len(d.words)
		caps, words := 0, 0
		for sp := range textproc.Words(text[s.Start:s.End]) {
			w := word{start: s.Start + sp.Start, end: s.Start + sp.End}
			w.stemEnd = r.stemEnd(text, w.start, w.end)
			w.apos = w.stemEnd < w.end
			c, _ := utf8.DecodeRuneInString(text[w.start:])
			w.capital = unicode.IsUpper(c) || unicode.IsTitle(c)
			stem := text[w.start:w.stemEnd]
			if w.capital {
				w.key = r.fold(stem)
				w.allCaps = isAllCaps(stem)
			} else {
				w.key = stem
				d.lower[stem] = true
			}
			w.sentStart = first
			if !first && len(d.words) > 0 {
				w.join = r.gapJoins(d.words[len(d.words)-1], text[prevEnd:w.start])
			}
			if w.apos && r.lang == "tr" {
				w.placeCase = placeSuffix(text[w.stemEnd:w.end])
				if w.capital {
					d.apos[w.key] = true
				}
			}
			first = false
			prevEnd = w.end
			words++
			if w.allCaps {
				caps++
			}
			d.words = append(d.words, w)
		}
		if words >= 3 && caps*5 >= words*4 {
			for k := firstWord; k < len(d.words); k++ {
				d.words[k].shouting = true
			}
		}
	}
}

// placeSuffix reports whether the apostrophe suffix suf (apostrophe
// included) is a Turkish locative or ablative case ending: -da/-de/-ta/-te,
// -dan/-den/-tan/-ten, with or without the buffer n of third-person forms.
func placeSuffix(suf string) bool {
	_, s, ok := strings.Cut(suf, "'")
	if !ok {
		_, s, _ = strings.Cut(suf, "\u2019")
	}
	s = strings.TrimPrefix(s, "n")
	switch s {
	case "da", "de", "ta", "te", "dan", "den", "tan", "ten", "daki", "deki", "taki", "teki":
		return true
	}
	return false
}

// stemEnd returns the end of the word text[start:end] without its apostrophe
// suffix: Turkish drops everything from the apostrophe on ("Türkiye'de"),
// English a possessive "'s" only.
func (r *Recognizer) stemEnd(text string, start, end int) int {
	w := text[start:end]
	for i, c := range w {
		if c == '\'' || c == '\u2019' {
			if r.lang == "en" {
				rest := w[i+utf8.RuneLen(c):]
				if rest == "s" || rest == "S" {
					return start + i
				}
				return end
			}
			if i == 0 {
				return end
			}
			return start + i
		}
	}
	return end
}

func isAllCaps(s string) bool {
	n := 0
	for _, c := range s {
		if unicode.IsLower(c) {
			return false
		}
		if unicode.IsLetter(c) {
			n++
		}
	}
	return n >= 2
}

// gapJoins reports whether the bytes between two words let them belong to
// one candidate: white space, a hyphen or an ampersand ("Hewlett-Packard",
// "AT&T"), a dot after an initial or a title abbreviation ("J. Smith", "Dr.
// Ali Kaya"), or, in English, "of" after a suffix word ("Bank of England").
func (r *Recognizer) gapJoins(prev word, gap string) bool {
	g := strings.TrimSpace(gap)
	switch g {
	case "":
		return !strings.Contains(gap, "\n\n")
	case "-":
		return gap == g // "Türk-İş", but not "Fenerbahçe - Galatasaray"
	case "&":
		return true
	case ".":
		return utf8.RuneCountInString(prev.key) == 1 || r.prefixes[prev.key] || isDigitStart(prev.key)
	}
	return false
}

// candidateWord reports whether word i may be part of a candidate.
func (r *Recognizer) candidateWord(d *doc, i int) bool {
	w := &d.words[i]
	if !w.capital || w.key == "" {
		return false
	}
	if r.notNames[w.key] {
		return false
	}
	// Beyond seed 001 §3.3: a sentence-initial capital is ordinary
	// capitalisation, not a name, when the same document also writes the
	// word in lower case.
	if w.sentStart && d.lower[w.key] {
		return false
	}
	return true
}

// splitTitles handles the person-prefix rule (Table A.1) on the candidate
// words [i, j): the words after a title are a person; the title itself and
// the title modifiers before it belong to neither side ("Shell Genel Müdürü
// Canan Ediboğlu" → "Canan Ediboğlu", seed 001 Fig. 3.1).
func (r *Recognizer) splitTitles(d *doc, i, j int) {
	ws := d.words
	// A title word that starts a name ending in a suffix word belongs to
	// it: "General Motors Corp", "General Electric Co".
	if r.prefixes[ws[i].key] && r.hasSuffixWord(d, i+1, j) && !r.hasPrefixWord(d, i+1, j) {
		r.classify(d, i, j)
		return
	}
	seg := i
	for k := i; k < j; {
		if !r.prefixes[ws[k].key] {
			k++
			continue
		}
		t := k
		for t > seg && (r.modifiers[ws[t-1].key] || r.prefixes[ws[t-1].key]) {
			t--
		}
		r.classify(d, seg, t)
		e := k + 1
		for e < j && (r.prefixes[ws[e].key] || r.modifiers[ws[e].key]) {
			e++
		}
		n := e
		for n < j && !r.prefixes[ws[n].key] {
			n++
		}
		m := n
		if n < j {
			for m > e && r.modifiers[ws[m-1].key] {
				m--
			}
		}
		if e < m {
			if m-e <= MaxPersonWords && !r.hasSuffixWord(d, e, m) {
				r.emit(d, Person, e, m)
			} else {
				r.classify(d, e, m)
			}
		}
		seg, k = m, n
	}
	r.classify(d, seg, j)
}

func (r *Recognizer) hasPrefixWord(d *doc, i, j int) bool {
	for k := i; k < j; k++ {
		if r.prefixes[d.words[k].key] {
			return true
		}
	}
	return false
}

func (r *Recognizer) hasSuffixWord(d *doc, i, j int) bool {
	for k := i; k < j; k++ {
		if r.locSuf[d.words[k].key] || r.orgSuf[d.words[k].key] {
			return true
		}
	}
	return false
}

// classify assigns a type to the candidate words [i, j), category-major as
// in seed 001 §3.3: location, then organization, then person, each by rule
// list, gazetteer and partial matching; an unclassified candidate is
// dropped.
func (r *Recognizer) classify(d *doc, i, j int) {
	if i >= j {
		return
	}
	ws := d.words
	key := d.key(i, j)
	single := j-i == 1
	// English "X of Y" with a suffix word X names one organization or place.
	if j-i >= 3 && ws[i+1].key == "of" && !ws[i+1].capital && (r.locSuf[ws[i].key] || r.orgSuf[ws[i].key]) {
		typ := Organization
		if r.locSuf[ws[i].key] {
			typ = Location
		}
		r.emit(d, typ, i, j)
		return
	}
	// Rule lists (Tables A.3, A.4): the entity runs from the candidate's
	// start through its last suffix word; what follows is a new candidate.
	// The last suffix word decides the category; a word in both lists
	// ("Merkezi") is a location, location rules being tried first. A
	// suffix word alone is no entity.
	suf := -1
	for k := j - 1; k > i; k-- {
		if r.locSuf[ws[k].key] || r.orgSuf[ws[k].key] {
			suf = k
			break
		}
	}
	// Location: rule, gazetteer, partial matching.
	if suf >= 0 && r.locSuf[ws[suf].key] {
		r.emit(d, Location, i, suf+1)
		r.classify(d, suf+1, j)
		return
	}
	if r.locations[key] && !(single && r.personNotPlace(ws[i])) || d.partial[key] == Location {
		r.emit(d, Location, i, j)
		return
	}
	// Organization: rule, gazetteer (plus an acronym, a club name such as
	// "Trabzonspor"), partial matching.
	if suf >= 0 {
		r.emit(d, Organization, i, suf+1)
		r.classify(d, suf+1, j)
		return
	}
	// "Diyarbakır DGM", "Ankara Emniyet": a place before an organization of
	// the gazetteer names its branch.
	for k := i + 1; k < j; k++ {
		if r.locations[string(d.keyBytes(i, k))] && (r.orgs[string(d.keyBytes(k, j))] || j-k == 1 && r.acronym(d, ws[k])) {
			r.emit(d, Organization, i, j)
			return
		}
	}
	if n := r.orgPrefix(d, i, j); n > 0 {
		r.emit(d, Organization, i, i+n)
		r.classify(d, i+n, j)
		return
	}
	if single && r.acronym(d, ws[i]) || r.lang == "tr" && single && strings.HasSuffix(key, "spor") && len(key) > len("spor") ||
		d.partial[key] == Organization {
		r.emit(d, Organization, i, j)
		return
	}
	// Person: suffix rule (Table A.2), title excluded; gazetteer; partial
	// matching. A person ends at its first apostrophe suffix: "Mesut
	// Yılmaz'ın" closes the name.
	for k := i + 1; k < j; k++ {
		if r.personSuf[ws[k].key] {
			r.emit(d, Person, i, k)
			r.classify(d, k+1, j)
			return
		}
	}
	end := j
	for k := i; k < j-1; k++ {
		if ws[k].apos {
			end = k + 1
			break
		}
	}
	n := end - i
	first := i
	if n >= 2 && n <= MaxPersonWords && utf8.RuneCountInString(ws[i].key) == 1 {
		first = i + 1 // an initial: "B. Hakan", "J. Smith"
	}
	if n <= MaxPersonWords && r.givenNames[ws[first].key] && !r.commonWordStart(d, first, end) ||
		r.fullPersons[string(d.keyBytes(i, end))] || d.partial[string(d.keyBytes(i, end))] == Person ||
		r.lang == "tr" && n >= 2 && n <= MaxPersonWords && strings.HasSuffix(ws[end-1].key, "oğlu") {
		r.emit(d, Person, i, end)
		r.classify(d, end, j)
		return
	}
	// Unclassified. A missing comma joins names ("Türkiye Almanya
	// ilişkileri", seed 001 §3.3): split off the longest leading place or
	// organization of the gazetteer and go on with the rest.
	for k := j - 1; k > i; k-- {
		if pk := d.keyBytes(i, k); r.locations[string(pk)] || r.orgs[string(pk)] {
			r.classify(d, i, k)
			r.classify(d, k, j)
			return
		}
	}
	// Retry the parts when the candidate spans an apostrophe ("Bursa'nın
	// Orhangazi" → "Bursa", "Orhangazi"), or without a leading
	// sentence-initial word.
	for k := i; k < j-1; k++ {
		if ws[k].apos {
			r.classify(d, i, k+1)
			r.classify(d, k+1, j)
			return
		}
	}
	if ws[i].sentStart && j-i > 1 {
		r.classify(d, i+1, j)
		return
	}
	if r.unknownIsPerson(d, i, end) {
		r.emit(d, Person, i, end)
		r.classify(d, end, j)
	}
}

// subjectSlot reports whether the words [i, end) sit where Turkish news puts
// the speaker: after a participle and before a comma ("açıklama yapan
// Özdemir, ...", "dikkati çeken Koç, ...").
func (r *Recognizer) subjectSlot(d *doc, i, end int) bool {
	if r.lang != "tr" || i == 0 || end >= len(d.words) {
		return false
	}
	prev := d.words[i-1]
	if prev.capital || !d.words[i].join || utf8.RuneCountInString(prev.key) < 4 {
		return false
	}
	if !strings.HasSuffix(prev.key, "en") && !strings.HasSuffix(prev.key, "an") {
		return false
	}
	gap := d.text[d.words[end-1].end:d.words[end].start]
	return strings.TrimSpace(gap) == ","
}

// unknownIsPerson reports whether the unclassified candidate [i, end) is
// taken for a person anyway: one to three words in mid-sentence, written in
// ordinary capitalisation, none of them a word the document also writes in
// lower case, the last one written somewhere in the document with an
// apostrophe suffix, the mark of a proper noun in Turkish ("the possibility
// that a word containing an apostrophe to be a proper noun is high", seed
// 001 §3.3). Such a name that no list knows is most often a person's surname
// or a foreign name ("Lewinsky'nin"), which TuNER would drop as
// unclassified.
func (r *Recognizer) unknownIsPerson(d *doc, i, end int) bool {
	ws := d.words
	if end-i > 2 || ws[i].sentStart || !d.apos[ws[end-1].key] && !r.subjectSlot(d, i, end) {
		return false
	}
	for k := i; k < end; k++ {
		w := ws[k]
		if w.allCaps || d.lower[w.key] || r.notPersons[w.key] ||
			r.locSuf[w.key] || r.orgSuf[w.key] || utf8.RuneCountInString(w.key) < 3 {
			return false
		}
	}
	if r.lang == "tr" {
		// Nouns, not names: plurals, possessive compounds ("Dünya
		// Kupası"), demonyms ("Tibetli") and language names ("Türkçe").
		last := ws[end-1].key
		for _, suf := range []string{"lar", "ler", "ları", "leri", "sı", "si", "su", "sü", "lı", "li", "lu", "lü", "ca", "ce", "ça", "çe"} {
			if strings.HasSuffix(last, suf) {
				return false
			}
		}
	}
	return true
}

// commonWordStart reports whether the candidate [i, end) starts with a
// given name that is also a common word and does not read as a person:
// alone, first in its sentence, or followed by a plural or possessive noun
// ("Vergi Yasası", "Yerel Seçimler").
func (r *Recognizer) commonWordStart(d *doc, i, end int) bool {
	ws := d.words
	if !r.ambiguous[ws[i].key] {
		return false
	}
	if end-i == 1 || ws[i].sentStart {
		return true
	}
	last := ws[end-1].key
	for _, suf := range []string{"lar", "ler", "ları", "leri", "sı", "si", "su", "sü"} {
		if strings.HasSuffix(last, suf) {
			return true
		}
	}
	return false
}

// personNotPlace reports whether w, a single-word place name that is also a
// given name ("Fatih", "Aydın"), is read as the person: unless a locative or
// ablative case suffix marks the place ("Aydın'da", "Fatih'ten").
func (r *Recognizer) personNotPlace(w word) bool {
	if r.lang != "tr" || !r.givenNames[w.key] {
		return false
	}
	return !w.placeCase
}

// acronym reports whether w is an all-capital abbreviation that is no known
// place or person: such words are organizations in news ("CHP", "NATO").
// In a sentence written all in capitals (a headline) no word is taken for
// an acronym.
func (r *Recognizer) acronym(d *doc, w word) bool {
	return w.allCaps && !w.shouting && utf8.RuneCountInString(w.key) <= r.acronymMax &&
		!r.locations[w.key] && !r.givenNames[w.key]
}

// orgPrefix returns the length of the organization of the gazetteer that
// the candidate [i, j) starts with, or 0. A longer candidate is the
// organization only if the words after the entry are place names
// ("Microsoft Türkiye", seed 001 Fig. 3.1); otherwise the entry alone is.
func (r *Recognizer) orgPrefix(d *doc, i, j int) int {
	for n := min(j-i, r.orgMaxWords); n >= 1; n-- {
		if !r.orgs[string(d.keyBytes(i, i+n))] {
			continue
		}
		if i+n < j && r.locations[string(d.keyBytes(i+n, j))] {
			return j - i
		}
		return n
	}
	return 0
}

// keyBytes returns the folded words [i, j) joined by spaces in a scratch
// buffer that the next call overwrites: for map look-ups (m[string(b)] does
// not allocate), where key would allocate a string per candidate sub-span.
func (d *doc) keyBytes(i, j int) []byte {
	b := d.kbuf[:0]
	for k := i; k < j; k++ {
		if k > i {
			b = append(b, ' ')
		}
		b = append(b, d.words[k].key...)
	}
	d.kbuf = b
	return b
}

// key returns the folded words [i, j) joined by spaces.
func (d *doc) key(i, j int) string {
	if j-i == 1 {
		return d.words[i].key
	}
	var b strings.Builder
	for k := i; k < j; k++ {
		if k > i {
			b.WriteByte(' ')
		}
		b.WriteString(d.words[k].key)
	}
	return b.String()
}

// emit records the entity made of words [i, j) and registers its word
// sequences for partial matching (seed 001 §3.3: "Garanti" inherits the type
// of an earlier "Garanti Bankası").
func (r *Recognizer) emit(d *doc, typ Type, i, j int) {
	if i >= j {
		return
	}
	ws := d.words
	d.out = append(d.out, Entity{Type: typ, Start: ws[i].start, End: ws[j-1].stemEnd, Text: d.canonical(i, j)})
	for a := i; a < j; a++ {
		for e := a + 1; e <= j; e++ {
			kb := d.keyBytes(a, e)
			if _, ok := d.partial[string(kb)]; ok || r.notNames[string(kb)] || r.locSuf[string(kb)] || r.orgSuf[string(kb)] ||
				e-a == 1 && (r.notPersons[string(kb)] || d.lower[string(kb)] || r.modifiers[string(kb)]) {
				continue
			}
			d.partial[string(kb)] = typ
		}
	}
	if typ != Person {
		r.nested(d, i, j)
	}
}

// nested finds places inside the location or organization [i, j) ("Mersin"
// in "Mersin Üniversitesi", seed 001 Fig. 3.1), reports them if
// Config.Nested, and registers them for partial matching either way.
func (r *Recognizer) nested(d *doc, i, j int) {
	for a := i; a < j; a++ {
		for e := j; e > a; e-- {
			if e-a == j-i {
				continue
			}
			kb := d.keyBytes(a, e)
			if !r.locations[string(kb)] {
				continue
			}
			d.partial[string(kb)] = Location
			if r.cfg.Nested {
				ws := d.words
				d.out = append(d.out, Entity{Type: Location, Start: ws[a].start, End: ws[e-1].stemEnd, Text: d.canonical(a, e)})
			}
			a = e - 1
			break
		}
	}
}

// canonical returns the canonical form of words [i, j): stems joined by one
// space, or by the hyphen or ampersand that joined them.
func (d *doc) canonical(i, j int) string {
	var b strings.Builder
	for k := i; k < j; k++ {
		if k > i {
			gap := strings.TrimSpace(d.text[d.words[k-1].end:d.words[k].start])
			if gap == "" || gap == "." {
				b.WriteByte(' ')
			} else {
				b.WriteString(gap)
			}
		}
		b.WriteString(d.text[d.words[k].start:d.words[k].stemEnd])
	}
	return b.String()
}
