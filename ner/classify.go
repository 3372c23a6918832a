package ner

import (
	"strings"
	"unicode/utf8"
)

// pass classifies every candidate of the document. Candidates (Uyar 2009
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
			if k := r.connectorJoins(d, i, j); !split && k > j {
				j = k
				continue
			}
			break
		}
		// No name is that long: classifying a longer run in pieces keeps
		// the depth of the recursion of classify bounded (a rule splits a
		// candidate and classifies the rest again).
		for s := i; s < j; s += maxRunWords {
			r.splitTitles(d, s, min(j, s+maxRunWords))
		}
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

// connectorJoins returns the end of the capitalised words that follow the
// candidate [i, j) across a connector at word j, when they end in an
// organization or location suffix word, so that the connector belongs to
// the name; it returns j when the connector does not join. Connectors: a
// number, with a "No'lu" after it ("Ankara 5. Asliye Ceza Mahkemesi",
// "Diyarbakır 3 No'lu DGM", where an acronym also ends the name); "ve"
// after words that are no name by themselves ("Kredi ve Yurtlar Kurumu",
// but not "Türkiye ve Avrupa Birliği"); a hyphen written between spaces,
// after such words too ("Boşnak - Hırvat Federasyonu", but not "Oregon -
// Demokrat Parti" or "Fenerbahçe - Galatasaray").
func (r *Recognizer) connectorJoins(d *doc, i, j int) int {
	ws := d.words
	if r.lang != "tr" || j == 0 || j+1 >= len(ws) {
		return j
	}
	key := ws[j].key
	k := j + 1
	switch {
	case ws[j].capital:
		if ws[j].join || !r.candidateWord(d, j) || strings.TrimSpace(d.text[ws[j-1].end:ws[j].start]) != "-" ||
			!r.bareWords(d, i, j) {
			return j
		}
		k = j // the hyphen is in the gap: the run starts at j
	case !ws[j].join:
		return j
	case key == "ve":
		if !r.bareWords(d, i, j) {
			return j
		}
	case isDigitStart(key):
		if numberWords[ws[k].key] && ws[k].join {
			k++ // "3 No'lu DGM", "2 Nolu Asliye Ceza Mahkemesi"
		}
	default:
		return j
	}
	end := j
	for ; k < len(ws) && (k == j || ws[k].join) && r.candidateWord(d, k); k++ {
		if r.locSuf[ws[k].key] || r.orgSuf[ws[k].key] || isDigitStart(key) && r.acronym(d, k) {
			end = k + 1
		}
		if ws[k].apos {
			break
		}
	}
	return end
}

// bareWords reports whether the candidate words [i, j) are no name by
// themselves: no suffix word, no place or organization of the gazetteer,
// no given name.
func (r *Recognizer) bareWords(d *doc, i, j int) bool {
	if r.hasSuffixWord(d, i, j) {
		return false
	}
	for k := i; k < j; k++ {
		d.steps++
		w := d.words[k]
		if r.locations[w.key] || r.orgs[w.key] || r.givenNames[w.key] || w.allCaps && !w.shouting {
			return false
		}
	}
	return !r.isLocation(d, i, j) && !r.isOrg(d, i, j)
}

// numberWords follow a number in the names of Turkish courts and offices
// ("Ankara 2 No'lu DGM", "6. Nolu Bölge Şubesi").
var numberWords = map[string]bool{"no": true, "nolu": true, "numaralı": true, "sayılı": true}

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
	// Beyond Uyar 2009 §3.3: a sentence-initial capital is ordinary
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
// Canan Ediboğlu" → "Canan Ediboğlu", Uyar 2009 Fig. 3.1).
func (r *Recognizer) splitTitles(d *doc, i, j int) {
	ws := d.words
	// A title word that starts a name ending in a suffix word belongs to
	// it: "General Motors Corp", "General Electric Co".
	if r.prefixes[ws[i].key] && r.hasSuffixWord(d, i+1, j) && !d.hasWordIn(r.prefixes, i+1, j) {
		r.classify(d, i, j)
		return
	}
	seg := i
	for k := i; k < j; {
		d.steps++
		if !r.prefixes[ws[k].key] {
			k++
			continue
		}
		t := k
		for t > seg && (r.modifiers[ws[t-1].key] || r.prefixes[ws[t-1].key]) {
			d.steps++
			t--
		}
		r.classify(d, seg, t)
		e := r.titleEnd(d, k+1, j)
		n := e
		for n < j && !r.prefixes[ws[n].key] {
			d.steps++
			n++
		}
		m := n
		if n < j {
			for m > e && r.modifiers[ws[m-1].key] {
				d.steps++
				m--
			}
		}
		if e < m {
			// A suffix word ends a name: first after the title it is the
			// person's given name ("Başkanı Doğu Perinçek").
			// In a headline every word is a capital: the title proves
			// nothing there.
			if m-e <= MaxPersonWords && !r.hasSuffixWord(d, e+1, m) && !ws[e].shouting {
				r.emit(d, Person, e, m)
			} else {
				r.classify(d, e, m)
			}
		}
		seg, k = m, n
	}
	r.classify(d, seg, j)
}

// titleEnd returns the end of the title words that start at e, before j:
// more titles, and modifiers followed by a title ("Başkanı Genel
// Müdürü"). A modifier followed by a name is the name's: "Genel Başkanı
// Devlet Bahçeli".
func (r *Recognizer) titleEnd(d *doc, e, j int) int {
	ws := d.words
	for e < j {
		d.steps++
		if r.prefixes[ws[e].key] {
			e++
			continue
		}
		m := e
		for m < j && r.modifiers[ws[m].key] {
			d.steps++
			m++
		}
		if m == e || m == j || !r.prefixes[ws[m].key] {
			return e
		}
		e = m
	}
	return e
}

// hasWordIn reports whether a word of [i, j) is in set, counting a step
// per word it reads.
func (d *doc) hasWordIn(set map[string]bool, i, j int) bool {
	for k := i; k < j; k++ {
		d.steps++
		if set[d.words[k].key] {
			return true
		}
	}
	return false
}

// hasSuffixWord reports whether a word of [i, j) is a location or
// organization suffix word.
func (r *Recognizer) hasSuffixWord(d *doc, i, j int) bool {
	return i < j && int(d.idx[j-1].prevSuf) >= i
}

// classify assigns a type to the candidate words [i, j), category-major as
// in Uyar 2009, "TuNER", §3.3: location, then organization, then person,
// each by rule list, gazetteer and the document's memory; an unclassified
// candidate is dropped. Each step emits what it recognises, classifies the
// rest of the candidate and reports true, or leaves the candidate to the
// next step.
func (r *Recognizer) classify(d *doc, i, j int) {
	if i >= j {
		return
	}
	switch {
	case r.ofName(d, i, j):
	case r.rememberedPerson(d, i, j):
	case r.bySuffixWord(d, i, j, true):
	case r.orgCue(d, i, j):
	case r.asLocation(d, i, j):
	case r.bySuffixWord(d, i, j, false):
	case r.byline(d, i, j):
	case r.asOrganization(d, i, j):
	case r.asPerson(d, i, j):
	case r.containsRemembered(d, i, j):
	case r.splitParts(d, i, j):
	default:
		r.asUnknown(d, i, j)
	}
}

// ofName handles English "X of Y" with a suffix word X: one organization
// or place ("Bank of England").
func (r *Recognizer) ofName(d *doc, i, j int) bool {
	ws := d.words
	if j-i < 3 || ws[i+1].key != "of" || ws[i+1].capital || !r.locSuf[ws[i].key] && !r.orgSuf[ws[i].key] {
		return false
	}
	typ := Organization
	if r.locSuf[ws[i].key] {
		typ = Location
	}
	r.emit(d, typ, i, j)
	return true
}

// bySuffixWord applies the rule lists (Tables A.3, A.4 of Uyar 2009): the
// entity runs from the candidate's start through its last suffix word; what
// follows is a new candidate. The last suffix word decides the category; a
// word in both lists ("Merkezi") is a location, location rules being tried
// first (loc true), organization rules after the location gazetteer (loc
// false). A suffix word alone is no entity.
func (r *Recognizer) bySuffixWord(d *doc, i, j int, loc bool) bool {
	ws := d.words
	suf := int(d.idx[j-1].prevSuf) // the last suffix word, if after i
	if suf <= i || loc && !r.locSuf[ws[suf].key] {
		return false
	}
	typ := Organization
	if loc {
		typ = Location
	}
	if k := r.personBeforePlace(d, i, suf); k > i {
		// "Orgeneral İsmail Hakkı Karadayı Türkiye Emekli Subaylar
		// Derneği": a person, then the place that opens the name.
		r.emit(d, Person, i, k)
		i = k
	}
	r.emit(d, typ, i, suf+1)
	r.classify(d, suf+1, j)
	return true
}

// personBeforePlace returns the index of a place of the gazetteer that
// follows a person at the start of [i, e): a given name first, then up to
// two more words, then the place. It returns i when there is none.
func (r *Recognizer) personBeforePlace(d *doc, i, e int) int {
	ws := d.words
	if r.lang != "tr" || !r.givenNames[ws[i].key] || r.ambiguous[ws[i].key] || r.locations[ws[i].key] {
		return i
	}
	for k := i + 2; k < e && k <= i+3; k++ {
		if r.locations[ws[k].key] && !r.givenNames[ws[k].key] {
			return k
		}
	}
	return i
}

// asLocation: the place gazetteer (a given name that is also a place is a
// place only with a locative or ablative suffix), or the memory.
func (r *Recognizer) asLocation(d *doc, i, j int) bool {
	if r.isLocation(d, i, j) && !(j-i == 1 && r.personNotPlace(d.words[i])) || r.remembered(d, i, j) == Location ||
		j-i >= 2 && directions[d.words[i].key] && r.isLocation(d, i+1, j) {
		r.emit(d, Location, i, j)
		return true
	}
	return false
}

// directions are the Turkish words of compass and region that make one
// place with the place after them ("Kuzey Londra", "Güney Almanya",
// "Latin Amerika").
var directions = map[string]bool{
	"kuzey": true, "güney": true, "doğu": true, "batı": true, "orta": true, "kuzeydoğu": true,
	"kuzeybatı": true, "güneydoğu": true, "güneybatı": true, "uzakdoğu": true, "ortadoğu": true,
	"latin": true, "yukarı": true, "aşağı": true, "iç": true,
}

// asOrganization: a place before an organization of the gazetteer ("Ankara
// Emniyet", "Diyarbakır DGM"), an organization of the gazetteer at the
// start, an acronym, a club or bank name ("Trabzonspor", "Yurtbank"), or
// the memory.
func (r *Recognizer) asOrganization(d *doc, i, j int) bool {
	ws := d.words
	for k := i + 1; k < j && k-i <= r.locMaxWords; k++ {
		d.steps++
		if r.isLocation(d, i, k) && (r.isOrg(d, k, j) || j-k == 1 && r.acronym(d, k)) {
			r.emit(d, Organization, i, j)
			return true
		}
	}
	if j-i >= 2 && int(d.idx[j-1].prevDigit) > i && r.acronym(d, j-1) {
		// A numbered court or office that connectorJoins took in:
		// "Diyarbakır 3 No'lu DGM".
		r.emit(d, Organization, i, j)
		return true
	}
	if n := r.orgPrefix(d, i, j); n > 0 {
		r.emit(d, Organization, i, i+n)
		r.classify(d, i+n, j)
		return true
	}
	single := j-i == 1
	key := ws[i].key
	if single && r.acronym(d, i) || r.lang == "tr" && single && clubOrBank(key) ||
		r.remembered(d, i, j) == Organization {
		r.emit(d, Organization, i, j)
		return true
	}
	return false
}

// clubOrBank reports whether a Turkish one-word name is a club or a bank
// by its ending: "Trabzonspor", "Yurtbank", "Dışbank".
func clubOrBank(key string) bool {
	return strings.HasSuffix(key, "spor") && len(key) > len("spor") || strings.HasSuffix(key, "bank") && len(key) > len("bank")
}

// personEnd returns the end of a person name starting at word i of the
// candidate [i, j): a person ends at its first apostrophe suffix ("Mesut
// Yılmaz'ın" closes the name).
func (d *doc) personEnd(i, j int) int {
	if k := int(d.idx[i].nextApos); k < j-1 {
		return k + 1
	}
	return j
}

// asPerson: the suffix rule (Table A.2 of Uyar 2009, title excluded), a
// given name first (after an optional initial), a full name of the
// gazetteer, the memory, or a Turkish surname in -oğlu.
func (r *Recognizer) asPerson(d *doc, i, j int) bool {
	ws := d.words
	if j-i >= 2 {
		if k := int(d.idx[i+1].nextPSuf); k < j {
			r.emit(d, Person, i, k)
			r.classify(d, k+1, j)
			return true
		}
	}
	end := d.personEnd(i, j)
	n := end - i
	first := i
	if n >= 2 && n <= MaxPersonWords && utf8.RuneCountInString(ws[i].key) == 1 {
		first = i + 1 // an initial: "B. Hakan", "J. Smith"
	}
	if n <= MaxPersonWords && r.givenNames[ws[first].key] && !r.commonWordStart(d, first, end) && !(n == 1 && r.notPersons[ws[i].key]) ||
		r.isFullPerson(d, i, end) || r.remembered(d, i, end) == Person ||
		r.lang == "tr" && n >= 2 && n <= MaxPersonWords && strings.HasSuffix(ws[end-1].key, "oğlu") {
		if k := r.trailingPlace(d, i, end); k > i {
			// A missing comma: "Hüseyin İstanbul'da, Yuko Tokyo'da".
			r.emit(d, Person, i, k)
			r.emit(d, Location, k, end)
			r.classify(d, end, j)
			return true
		}
		r.emit(d, Person, i, end)
		r.classify(d, end, j)
		return true
	}
	return false
}

// trailingPlace returns the start of a place of the gazetteer that ends the
// person candidate [i, end) before an apostrophe suffix ("Hüseyin
// İstanbul'da", "Kohl Almanya'ya"), or i when there is none. Unless the
// suffix is a locative or ablative, a place that is also a given name or
// surname of the lists stays with the person ("İsmet İnönü'nün").
func (r *Recognizer) trailingPlace(d *doc, i, end int) int {
	if r.lang != "tr" || !d.words[end-1].apos {
		return i
	}
	for k := max(i+1, end-r.locMaxWords); k < end; k++ {
		d.steps++
		if r.isLocation(d, k, end) && (d.words[end-1].placeCase || !d.hasWordIn(r.givenNames, k, end)) {
			return k
		}
	}
	return i
}

// splitParts handles a candidate no rule classified as a whole. A missing
// comma joins names ("Türkiye Almanya ilişkileri", Uyar 2009 §3.3): the
// longest leading place or organization of the gazetteer is split off, or
// an acronym before a place ("CHP İzmir Milletvekili").
// Otherwise the parts are retried when the candidate spans an apostrophe
// ("Bursa'nın Orhangazi" with JoinAtApostrophe), or without a leading
// sentence-initial word.
func (r *Recognizer) splitParts(d *doc, i, j int) bool {
	ws := d.words
	for k := min(j-1, i+max(r.locMaxWords, r.orgMaxWords, 1)); k > i; k-- {
		d.steps++
		if r.isLocation(d, i, k) || r.isOrg(d, i, k) || k == i+1 && r.lang == "tr" && clubOrBank(ws[i].key) {
			r.classify(d, i, k)
			r.classify(d, k, j)
			return true
		}
	}
	if r.acronym(d, i) && r.isLocation(d, i+1, j) {
		r.emit(d, Organization, i, i+1)
		r.classify(d, i+1, j)
		return true
	}
	if k := int(d.idx[i].nextApos); k < j-1 {
		r.classify(d, i, k+1)
		r.classify(d, k+1, j)
		return true
	}
	if ws[i].sentStart && j-i > 1 {
		r.classify(d, i+1, j)
		return true
	}
	return false
}

// acronym reports whether word k is an all-capital abbreviation that is no
// known place or person: such words are organizations in news ("CHP",
// "NATO"). The capitals alone are weak evidence (bylines, speaker labels,
// headlines are written in capitals too), so none is an acronym in a
// sentence written all in capitals (a headline), nor before a colon (a
// speaker's label in an interview, "UCHE : ...").
func (r *Recognizer) acronym(d *doc, k int) bool {
	w := d.words[k]
	n := utf8.RuneCountInString(w.key)
	if !w.allCaps || w.shouting || r.locations[w.key] || r.givenNames[w.key] || r.notPersons[w.key] {
		return false
	}
	// Capitals of more than four letters are an acronym only with an
	// apostrophe suffix, which a word in a headline rarely has
	// ("UNSCOM'un", "TÜPRAŞ'ın").
	if n > 4 && !(r.lang == "tr" && w.apos && n <= 7) {
		return false
	}
	if k+1 < len(d.words) && !w.apos && strings.HasPrefix(strings.TrimSpace(d.text[w.end:d.words[k+1].start]), ":") {
		return false
	}
	return true
}

// orgPrefix returns the length of the organization of the gazetteer that
// the candidate [i, j) starts with, or 0. A longer candidate is the
// organization only if the words after the entry are place names
// ("Microsoft Türkiye", Uyar 2009 Fig. 3.1); otherwise the entry alone is.
func (r *Recognizer) orgPrefix(d *doc, i, j int) int {
	for n := min(j-i, r.orgMaxWords); n >= 1; n-- {
		if !r.isOrg(d, i, i+n) {
			continue
		}
		if i+n < j && !(n == 1 && d.words[i].allCaps) && r.isLocation(d, i+n, j) {
			return j - i
		}
		return n
	}
	return 0
}
