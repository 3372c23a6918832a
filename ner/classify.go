package ner

import (
	"strings"
	"unicode/utf8"
)

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
			// chairman"); Turkish case suffixes unless JoinAtApostrophe.
			split := ws[j-1].apos && (!r.cfg.JoinAtApostrophe || r.lang == "en")
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
		typ := Person
		if end-i == 1 && ws[i].placeCase {
			// "Kilyos'ta": a locative or ablative on an unknown name
			// points at a place.
			typ = Location
		}
		r.emit(d, typ, i, end)
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
	return r.commaAfter(d, end)
}

// commaAfter reports whether a comma follows the word before end.
func (r *Recognizer) commaAfter(d *doc, end int) bool {
	if end <= 0 || end >= len(d.words) {
		return false
	}
	return strings.TrimSpace(d.text[d.words[end-1].end:d.words[end].start]) == ","
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
	if end-i > 2 {
		return false
	}
	if ws[i].sentStart {
		// First in its sentence, the capital proves nothing: only an
		// apostrophe suffix on this very word marks a proper noun, and a
		// person's name unless it is a locative or ablative
		// ("Kohl'un", not "Bonn'da").
		if !ws[end-1].apos {
			return false
		}
	} else if !d.apos[ws[end-1].key] && !r.subjectSlot(d, i, end) {
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
	if end-i == 1 {
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
