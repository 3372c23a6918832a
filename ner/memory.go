package ner

import (
	"strings"
	"unicode/utf8"
)

// The document-level memory (Uyar 2009, "TuNER", §3.3, partial matching,
// carried across sentences and tokenisations): every entity recognised in
// a call registers its word sequences with its type, so that a later
// mention of part of it inherits the type. A person's surname or given
// name alone ("Kohl" after "Helmut Kohl"), an organization's short form
// ("Yapı Kredi" after "Yapı Kredi Bankası"), and an organization's acronym,
// written in parentheses after it ("Kürdistan Demokrat Partisi (KDP)") or
// made of the initials of its words ("Türkiye Büyük Millet Meclisi" →
// "TBMM"), are recognised with the earlier type. Keys are folded stems,
// so "Kohl'un", "Kohl’un" and "Kohl 'un" all find "kohl". The memory lives
// in the per-call doc, never in the Recognizer.

// memory maps folded word sequences to the type of the entity they were
// part of; the first registration wins.
type memory map[string]Type

// keyBytes returns the folded words [i, j) joined by spaces in a scratch
// buffer that the next call overwrites: for map look-ups (m[string(b)] does
// not allocate), where key would allocate a string per candidate sub-span.
func (d *doc) keyBytes(i, j int) []byte {
	b := d.kbuf[:0]
	d.steps += j - i + 1
	for k := i; k < j; k++ {
		if k > i {
			b = append(b, ' ')
		}
		b = append(b, d.words[k].key...)
	}
	d.kbuf = b
	return b
}

// emit records the entity made of words [i, j) and registers its word
// sequences of up to memMaxWords words for partial matching (Uyar 2009
// §3.3: "Garanti" inherits the type of an earlier "Garanti Bankası").
func (r *Recognizer) emit(d *doc, typ Type, i, j int) {
	if i >= j {
		return
	}
	ws := d.words
	d.out = append(d.out, Entity{Type: typ, Start: ws[i].start, End: ws[j-1].stemEnd, Text: d.canonical(i, j)})
	for k := i; k < j; k++ {
		ws[k].ent = typ
	}
	for a := i; a < j; a++ {
		for e := a + 1; e <= min(j, a+memMaxWords); e++ {
			kb := d.keyBytes(a, e)
			if _, ok := d.mem[string(kb)]; ok || r.notNames[string(kb)] || r.locSuf[string(kb)] || r.orgSuf[string(kb)] ||
				e-a == 1 && (r.notPersons[string(kb)] || d.lower[string(kb)] || r.modifiers[string(kb)] || utf8.RuneCount(kb) == 1) {
				continue
			}
			d.mem[string(kb)] = typ
		}
	}
	if typ != Person {
		r.nested(d, i, j)
	}
	if typ == Organization && j-i >= 2 {
		r.rememberAcronyms(d, i, j)
	}
}

// rememberAcronyms registers the acronyms of the organization [i, j): the
// one written in parentheses right after it ("Kürdistan Demokrat Partisi
// (KDP)") and the initials of its capitalised words ("Türkiye Büyük Millet
// Meclisi" → "TBMM"), so that a later acronym of any length is recognised
// as the organization, also where the capitals rule does not apply (five
// letters or more, or in a headline).
func (r *Recognizer) rememberAcronyms(d *doc, i, j int) {
	ws := d.words
	if j < len(ws) && ws[j].allCaps && !ws[j-1].apos && strings.TrimSpace(d.text[ws[j-1].end:ws[j].start]) == "(" &&
		(j+1 == len(ws) || strings.HasPrefix(strings.TrimSpace(d.text[ws[j].end:ws[j+1].start]), ")")) {
		if _, ok := d.mem[ws[j].key]; !ok {
			d.mem[ws[j].key] = Organization
		}
	}
	var b strings.Builder
	for k := i; k < j; k++ {
		d.steps++
		if ws[k].capital {
			c, _ := utf8.DecodeRuneInString(ws[k].key)
			b.WriteRune(c)
		}
	}
	if utf8.RuneCountInString(b.String()) >= 3 {
		if _, ok := d.mem[b.String()]; !ok {
			d.mem[b.String()] = Organization
		}
	}
}

// nested finds places inside the location or organization [i, j) ("Mersin"
// in "Mersin Üniversitesi", Uyar 2009 Fig. 3.1), reports them if
// Config.Nested, and registers them for partial matching either way.
func (r *Recognizer) nested(d *doc, i, j int) {
	for a := i; a < j; a++ {
		for e := min(j, a+r.locMaxWords); e > a; e-- {
			d.steps++
			if e-a == j-i {
				continue
			}
			kb := d.keyBytes(a, e)
			if !r.locations[string(kb)] {
				continue
			}
			d.mem[string(kb)] = Location
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

// rememberedPerson recognises a candidate the memory holds as a person
// ("Kohl" after "Helmut Kohl"), before the gazetteers: a surname that is
// also a place ("Koç", "Ayaş") is the person the document spoke of, unless
// a locative or ablative suffix marks the place.
func (r *Recognizer) rememberedPerson(d *doc, i, j int) bool {
	if r.remembered(d, i, j) != Person || j-i == 1 && d.words[i].placeCase {
		return false
	}
	r.emit(d, Person, i, j)
	return true
}

// containsRemembered splits a candidate no rule classified that ends in a
// person the memory holds, when the words before it name no person ("İranlı Dabir", "Tabii
// Ahıskalıoğlu"); any other word before it may be a given name the lists
// lack ("Berna Yılmaz" after "Mesut Yılmaz").
func (r *Recognizer) containsRemembered(d *doc, i, j int) bool {
	// The words before the person must all name no person: a ends at the
	// first word that may (d.idx.nextName); and the memory holds no span
	// longer than memLookupMax.
	for a := max(i+1, j-r.memLookupMax); a < j && a <= int(d.idx[i].nextName); a++ {
		d.steps++
		if r.remembered(d, a, j) == Person {
			r.classify(d, i, a)
			r.emit(d, Person, a, j)
			return true
		}
	}
	return false
}
