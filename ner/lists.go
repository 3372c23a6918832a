package ner

import (
	"strings"
	"unicode/utf8"
)

// listPersons takes the unknown one-word names that stand in a list next to
// a person for persons too: "Karhan, Leitner, Kristofik" after a known
// "Karhan", sports line-ups ("Hidayet ( ) 14 , Naumoski ( ) 8"). A forward
// pass fills a list rightwards from a known member, a backward pass
// leftwards, so that the work stays linear in the number of unknown names.
func (r *Recognizer) listPersons(d *doc) {
	if r.lang != "tr" || len(d.unknown) == 0 {
		return
	}
	try := func(i, dir int) {
		if d.words[i].ent == 0 && r.nameLike(d, i) && r.listNeighbour(d, i, dir) == Person {
			r.emit(d, Person, i, i+1)
		}
	}
	for _, u := range d.unknown {
		try(u[0], -1)
	}
	for k := len(d.unknown) - 1; k >= 0; k-- {
		try(d.unknown[k][0], +1)
	}
}

// nameLike reports whether word i may be a name no list knows: not written
// in lower case in the document, no word that names no person, at least
// three letters, not all capitals.
func (r *Recognizer) nameLike(d *doc, i int) bool {
	w := d.words[i]
	return !w.allCaps && !d.lower[w.key] && !r.notPersons[w.key] && !r.locSuf[w.key] && !r.orgSuf[w.key] &&
		utf8.RuneCountInString(w.key) >= 3
}

// listNeighbour returns the entity type of the list item next to word i in
// direction dir (-1 before, +1 after), or 0: the nearest capitalised word
// across list punctuation (, ( ) and numbers) or a "ve" / "ile" in one
// sentence.
func (r *Recognizer) listNeighbour(d *doc, i, dir int) Type {
	ws := d.words
	sep := false
	for k := i + dir; k >= 0 && k < len(ws); k += dir {
		a, b := k, k+1 // the gap between word k and the word before it in the walk
		if dir > 0 {
			a, b = k-1, k
		}
		gap := d.text[ws[a].end:ws[b].start]
		if strings.Contains(gap, "\n\n") || strings.ContainsAny(gap, ".:;!?\"") {
			return 0
		}
		if strings.Contains(gap, ",") {
			sep = true
		}
		w := ws[k]
		switch {
		case isDigitStart(w.key):
			continue
		case !w.capital && (w.key == "ve" || w.key == "ile"):
			sep = true
			continue
		case w.capital && sep:
			return w.ent
		}
		return 0
	}
	return 0
}
