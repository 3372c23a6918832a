package ner

import (
	"strings"
	"unicode/utf8"
)

// Heuristics for names that no list knows, beyond Uyar 2009, "TuNER": where
// the text itself marks a capitalised word as a name (an apostrophe
// suffix, the slot of a quoted speaker, a byline, a company cue), and the
// word shapes that mark a noun instead. They are chosen on the training
// part of the Turkish NER gold standard (Tür, Hakkani-Tür, Oflazer 2003).

// asUnknown takes an unknown name for a person when the text marks it as a
// proper noun (unknownIsPerson), or for a place when the mark is a
// locative or ablative suffix on a single word ("Kilyos'ta").
func (r *Recognizer) asUnknown(d *doc, i, j int) {
	end := d.personEnd(i, j)
	if r.lang == "tr" && end-i == 2 && r.locations[d.words[i+1].key] {
		// "Napolyon Paris'e", "Yuko Tokyo'da": a missing comma before a
		// known place; the unknown word before it stands alone.
		r.classify(d, i, i+1)
		r.classify(d, i+1, j)
		return
	}
	if !r.unknownIsPerson(d, i, end) {
		if end-i == 1 && !d.words[i].sentStart {
			d.unknown = append(d.unknown, [2]int{i, end})
		}
		return
	}
	typ := Person
	if end-i == 1 && d.words[i].placeCase {
		typ = Location
	}
	r.emit(d, typ, i, end)
	r.classify(d, end, j)
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
	return strings.TrimSpace(d.text[d.words[end-1].end:d.words[end].start]) == ","
}

// unknownIsPerson reports whether the unclassified candidate [i, end) of
// one or two words is taken for a person anyway: marked as a name by the
// text (markedAsName), written like a name (nameWords) and, in Turkish, not
// shaped like a noun (nounShaped). Such a name that no list knows is most
// often a person's surname or a foreign name ("Lewinsky'nin"), which TuNER
// would drop as unclassified.
func (r *Recognizer) unknownIsPerson(d *doc, i, end int) bool {
	if end-i > 2 || !r.markedAsName(d, i, end) || !r.nameWords(d, i, end) {
		return false
	}
	return r.lang != "tr" || !nounShaped(d, i, end)
}

// markedAsName reports whether the text marks the candidate [i, end) as a
// name. The marks: the last word written somewhere in the document with an
// apostrophe suffix, the sign of a proper noun in Turkish ("the possibility
// that a word containing an apostrophe to be a proper noun is high", Uyar
// 2009 §3.3); the slot of a quoted speaker; in Turkish, two capitalised
// words in mid-sentence, or one with a surname's shape or in a person's
// context (personContext). First in a sentence, where a capital proves
// nothing, only a Turkish word's own apostrophe suffix ("Kohl'un"; a place
// with a locative one, "Bonn'da") or a surname's shape counts.
func (r *Recognizer) markedAsName(d *doc, i, end int) bool {
	ws := d.words
	single := end-i == 1
	if ws[i].sentStart {
		return r.lang == "tr" && (ws[end-1].apos || single && surnameShape(ws[i].key))
	}
	return d.apos[ws[end-1].key] || r.subjectSlot(d, i, end) ||
		r.lang == "tr" && (!single || surnameShape(ws[i].key) || r.personContext(d, i, end))
}

// nameWords reports whether every word of [i, end) is written like a name:
// in ordinary capitalisation, of at least three letters, never written in
// lower case in the document, and no rule word (a title, a person, place or
// organization suffix word) or listed non-person.
func (r *Recognizer) nameWords(d *doc, i, end int) bool {
	for _, w := range d.words[i:end] {
		if w.allCaps || d.lower[w.key] || r.notPersons[w.key] || r.personSuf[w.key] || r.prefixes[w.key] ||
			r.locSuf[w.key] || r.orgSuf[w.key] || utf8.RuneCountInString(w.key) < 3 {
			return false
		}
	}
	return true
}

// nounShaped reports whether the Turkish candidate [i, end) of one or two
// words is shaped like a noun, not a name: its last word a plural, a
// possessive compound ("Dünya Kupası"), a demonym ("Tibetli") or a
// language name ("Türkçe"); or two words ending in a possessive vowel, a
// compound noun ("Starr Raporu", "Borçlar Kanunu"); or two words opening
// with an adjective in -li, a noun phrase ("Kalemli Çete").
func nounShaped(d *doc, i, end int) bool {
	last := d.words[end-1].key
	for _, suf := range nounEndings {
		if strings.HasSuffix(last, suf) && !strings.HasSuffix(last, "oğlu") {
			return true
		}
	}
	if end-i != 2 {
		return false
	}
	if c, _ := utf8.DecodeLastRuneInString(last); strings.ContainsRune("ıiuü", c) {
		return true
	}
	first := d.words[i].key
	return strings.HasSuffix(first, "li") || strings.HasSuffix(first, "lı") ||
		strings.HasSuffix(first, "lu") || strings.HasSuffix(first, "lü")
}

// nounEndings end Turkish nouns, not names: plurals, possessives (also
// after a softened or doubled consonant: "Kanunu", "İmparatorluğu",
// "Hattı", "Marşı"), demonyms and language names.
var nounEndings = []string{
	"lar", "ler", "ları", "leri", "sı", "si", "su", "sü", "lı", "li", "lu", "lü", "ca", "ce", "ça", "çe",
	"ğı", "ği", "ğu", "ğü", "nu", "nü", "tı", "ti", "tu", "tü", "şı", "şi", "şu", "şü",
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
	if end-i == 1 || r.lang != "tr" && ws[i].sentStart {
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

// byline recognises a name written with its surname in capitals, the way
// news signs articles and photographs ("Neslihan CUYAR", "Barçın YİNANÇ -
// ANKARA", "Leyla ATAMAN DİLEK"): a word in ordinary capitalisation and
// one or two words of at least three capitals that no list knows.
func (r *Recognizer) byline(d *doc, i, j int) bool {
	ws := d.words
	if r.lang != "tr" || ws[i].allCaps || ws[i].shouting || j-i < 2 || !ws[i+1].allCaps {
		return false
	}
	if utf8.RuneCountInString(ws[i].key) < 3 || r.notNames[ws[i].key] || r.notPersons[ws[i].key] || ws[i].apos {
		return false
	}
	end := i + 1
	for end < j && end-i <= 2 && ws[end].allCaps && !ws[end-1].apos {
		w := ws[end]
		if utf8.RuneCountInString(w.key) < 3 || r.locations[w.key] || r.orgs[w.key] || r.notNames[w.key] || d.mem[w.key] == Organization {
			break
		}
		end++
	}
	if end == i+1 {
		return false
	}
	r.emit(d, Person, i, end)
	r.classify(d, end, j)
	return true
}

// orgCues are lower-case nouns that, right after a name, say it names an
// organization: "Organon firması", "Omron şirketi", "Mahi gazetesi".
var orgCues = map[string]bool{
	"firması": true, "firmaları": true, "firmasının": true, "firmasına": true, "şirketi": true, "şirketleri": true,
	"şirketinin": true, "şirketine": true, "gazetesi": true, "gazetesinin": true, "gazetesinde": true, "dergisi": true,
	"dergisinde": true, "holdingi": true, "markası": true, "markalı": true,
}

// orgCue recognises a name of up to three words followed by a lower-case
// noun of orgCues: an organization, even when the name is a place or a
// person of the lists.
func (r *Recognizer) orgCue(d *doc, i, j int) bool {
	if r.lang != "tr" || j-i > 3 || j >= len(d.words) || d.words[j].capital || !orgCues[d.words[j].key] ||
		d.words[j-1].apos || !d.words[j].join {
		return false
	}
	for i < j-1 && r.notPersons[d.words[i].key] {
		i++ // "Japon Omron firması": the nationality is no part of the name
	}
	r.emit(d, Organization, i, j)
	return true
}

// surnameShape reports whether a Turkish word ends the way many surnames
// do, in a word of surname morphology such as -oğlu, -soy, -taş, -kaya,
// -türk, -demir, -can, -kurt, -aslan ("Kafaoğlu", "Ersoy", "Öztürk"):
// evidence enough for an unknown single word with no other mark.
func surnameShape(key string) bool {
	for _, suf := range []string{"oğlu", "gil", "soy", "taş", "kaya", "türk", "demir", "tekin", "han", "can", "doğan", "yıldız", "ören", "gün", "öz", "kurt", "aslan", "arslan", "çelik", "bay", "alp", "kök"} {
		if strings.HasSuffix(key, suf) && len(key) > len(suf)+2 {
			return true
		}
	}
	return false
}

// personContext reports whether the words around the unknown name [i, end)
// mark a person in Turkish news: "ile" after it ("Clinton ile görüştü"), a
// quotation after a comma ("Akşener, 'Biz ...'"), an age or a rating in
// parentheses ("Ohen (27)"), or a participle of saying before it
// ("belirten Akşener").
func (r *Recognizer) personContext(d *doc, i, end int) bool {
	ws := d.words
	if end < len(ws) {
		gap := strings.TrimSpace(d.text[ws[end-1].end:ws[end].start])
		if gap == "" && ws[end].key == "ile" && !ws[end-1].apos {
			return true
		}
		if strings.HasPrefix(gap, ",") && strings.ContainsAny(gap, "'\"`‘“") || strings.HasPrefix(gap, "(") {
			return true
		}
	}
	if i > 0 && !ws[i-1].capital && speechParticiples[ws[i-1].key] &&
		strings.TrimSpace(d.text[ws[i-1].end:ws[i].start]) == "" {
		return true
	}
	return false
}

// speechParticiples are the participles of saying that Turkish news puts
// before the name of whoever is quoted.
var speechParticiples = map[string]bool{
	"belirten": true, "söyleyen": true, "kaydeden": true, "vurgulayan": true, "anlatan": true,
	"bildiren": true, "açıklayan": true, "diyen": true, "savunan": true, "hatırlatan": true,
	"ekleyen": true, "yanıtlayan": true, "eden": true, "değerlendiren": true,
}
