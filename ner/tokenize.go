package ner

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

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
	ent        Type // type of the entity the word was emitted in, or 0
}

// doc is the per-call state of Find.
type doc struct {
	text    string
	words   []word
	lower   map[string]bool // stems the document writes in lower case
	apos    map[string]bool // keys the document writes with an apostrophe suffix
	mem     memory          // the document-level memory (memory.go)
	unknown [][2]int        // one-word candidates no rule classified
	out     []Entity
	kbuf    []byte      // scratch of keyBytes
	idx     []wordIndex // per word, filled by index after tokenize
	kinds   []uint8     // scratch of index: rule lists per word
	steps   int         // words visited by keyBytes and the range scans (tests)
}

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
			if !first && r.attachSuffix(d, text[prevEnd:w.start], w) {
				prevEnd = w.end
				continue
			}
			w.stemEnd = r.stemEnd(text, w.start, w.end)
			w.apos = w.stemEnd < w.end
			c, _ := utf8.DecodeRuneInString(text[w.start:])
			w.capital = unicode.IsUpper(c) || unicode.IsTitle(c)
			stem := text[w.start:w.stemEnd]
			if w.capital {
				w.key = r.fold(stem)
				w.allCaps = isAllCaps(stem)
			} else if k := r.lostCapital(stem); k != "" {
				w.capital, w.key = true, k
			} else {
				w.key = stem
				d.lower[stem] = true
			}
			w.sentStart = first
			if !first && len(d.words) > 0 {
				gap := text[prevEnd:w.start]
				w.join = r.gapJoins(d.words[len(d.words)-1], gap) ||
					r.hyphenTails[w.key] && strings.TrimSpace(gap) == "-" && !strings.Contains(gap, "\n")
			} else if first && r.initialBreak(d, w) {
				w.sentStart, w.join = false, true
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

// lostCapital returns the key of a Turkish word whose capital İ was
// written as a lower-case dotless ı ("ıstanbul", "ızmir"), a damage of
// text converted between Turkish code pages, when the word so repaired is
// a place, given name or organization of the lists; otherwise "".
func (r *Recognizer) lostCapital(stem string) string {
	if r.lang != "tr" || !strings.HasPrefix(stem, "ı") || len(stem) <= len("ı") {
		return ""
	}
	k := r.fold("i" + stem[len("ı"):])
	if r.locations[k] || r.givenNames[k] || r.orgs[k] {
		return k
	}
	return ""
}

// initialBreak reports whether the sentence splitter ended a sentence
// inside a name, at the dot of an initial or a title written apart from its
// letter ("B . Hakan", "Prof . Dr . Ali Kaya"): w, a capitalised word, then
// continues the sentence of the word before.
func (r *Recognizer) initialBreak(d *doc, w word) bool {
	if len(d.words) == 0 || !w.capital {
		return false
	}
	prev := d.words[len(d.words)-1]
	gap := d.text[prev.end:w.start]
	if strings.TrimSpace(gap) != "." || strings.Contains(gap, "\n") || !prev.capital {
		return false
	}
	return utf8.RuneCountInString(prev.key) == 1 || r.prefixes[prev.key]
}

// attachSuffix handles an apostrophe suffix written as a word of its own,
// the convention of the Turkish NER gold standard (Tür et al. 2003: "Kohl
// 'un", "Almanya 'nın"): when gap, the text between the last word and w, is
// white space and an apostrophe and w reads as a case suffix, w becomes the
// suffix of the last word, so that "Kohl 'un" gives the same word as
// "Kohl'un" and "Kohl’un". It reports whether w was attached.
func (r *Recognizer) attachSuffix(d *doc, gap string, w word) bool {
	if len(d.words) == 0 {
		return false
	}
	g := strings.TrimLeft(gap, " \t")
	c, n := utf8.DecodeRuneInString(g)
	if n == 0 || n != len(g) || !isApostrophe(c) {
		return false
	}
	prev := &d.words[len(d.words)-1]
	if prev.apos || prev.end != prev.stemEnd {
		return false
	}
	suf := d.text[w.start:w.end]
	if r.lang == "en" {
		if suf != "s" && suf != "S" {
			return false
		}
	} else if !suffixShape(suf, prev.allCaps || isDigitStart(prev.key)) {
		return false
	}
	prev.end = w.end
	prev.apos = true
	if r.lang == "tr" {
		prev.placeCase = placeSuffix(d.text[w.start-n : w.end])
		if prev.capital {
			d.apos[prev.key] = true
		}
	}
	return true
}

// suffixShape reports whether s can be a Turkish case suffix: one to ten
// letters, all lower case, or all upper case after a word in capitals
// ("ANKARA 'DA").
func suffixShape(s string, caps bool) bool {
	n := 0
	for _, c := range s {
		n++
		if !unicode.IsLetter(c) || n > 10 {
			return false
		}
		if !unicode.IsLower(c) && !(caps && unicode.IsUpper(c)) {
			return false
		}
	}
	return n > 0
}

// isApostrophe reports whether c is one of the apostrophes that textproc's
// word rule joins a suffix with: ' ’ ʼ ‘ and the backtick.
func isApostrophe(c rune) bool {
	return c == '\'' || c == '\u2019' || c == '\u02bc' || c == '\u2018' || c == '`'
}

// placeSuffix reports whether the apostrophe suffix suf (apostrophe
// included) is a Turkish locative or ablative case ending: -da/-de/-ta/-te,
// -dan/-den/-tan/-ten, with or without the buffer n of third-person forms.
func placeSuffix(suf string) bool {
	i := strings.IndexFunc(suf, isApostrophe)
	if i < 0 {
		return false
	}
	_, n := utf8.DecodeRuneInString(suf[i:])
	s := suf[i+n:]
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
		if isApostrophe(c) {
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
