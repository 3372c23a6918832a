package textproc

import (
	"iter"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"
)

// Abbreviations that end in '.' without ending a sentence, lower-cased. The
// lists hold titles, honorifics and common shortenings of news text; initials
// (one capital letter and a dot) are handled by rule, not by list.
var (
	abbrevCommon = []string{"vs", "etc", "no", "nr", "st", "tel", "fig", "ca", "vol", "pp"}
	abbrevEN     = []string{
		"mr", "mrs", "ms", "dr", "prof", "sr", "jr", "gen", "gov", "sen", "rep", "rev",
		"col", "lt", "sgt", "capt", "cmdr", "adm", "maj", "hon", "pres", "supt",
		"inc", "corp", "ltd", "co", "bros", "dept", "univ", "assn", "est", "approx",
		"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
		"mon", "tue", "wed", "thu", "fri", "sat", "sun", "mt", "ft", "ave", "blvd", "e.g", "i.e",
	}
	abbrevTR = []string{
		"dr", "prof", "doç", "yrd", "öğr", "gör", "av", "vb", "vd", "bkz", "örn", "sn", "alb",
		"org", "gen", "müh", "cad", "sok", "mah", "apt", "ltd", "şti", "hz", "yy", "bşk", "uzm",
		"kor", "tuğg", "korg", "ord", "bnb", "yzb", "tğm", "ütğm", "a.ş",
	}
)

// abbrevSets holds the abbreviation set of each rule set ([RuleSet]): the
// common list with the language's own, or for neutral text with both.
// The sets are read-only once built.
var abbrevSets = sync.OnceValue(func() map[string]map[string]struct{} {
	return map[string]map[string]struct{}{
		"tr": wordSet(slices.Concat(abbrevCommon, abbrevTR)),
		"en": wordSet(slices.Concat(abbrevCommon, abbrevEN)),
		"":   wordSet(slices.Concat(abbrevCommon, abbrevEN, abbrevTR)),
	}
})

func isTerminator(r rune) bool {
	return r == '.' || r == '!' || r == '?' || r == '…' || r >= 0x3000 && isWideTerminator(r)
}

// isWideTerminator reports the sentence ends of text written without
// spaces: the ideographic full stop 。 (and its half-width form ｡), the
// full-width ！ and ？, and the full-width ．, which Japanese technical
// writing uses as its full stop. They end a sentence whatever follows,
// since no space separates the next sentence.
func isWideTerminator(r rune) bool {
	return r == '。' || r == '！' || r == '？' || r == '．' || r == '｡'
}

// isCloser reports runes that may follow a terminator and still belong to the
// sentence it ends: closing quotes and brackets.
func isCloser(r rune) bool {
	switch r {
	case '"', '\'', '’', '”', '»', ')', ']', '}', '›',
		'」', '』', '）', '】', '〕', '〉', '》', '〗', '〙', '〛', '］', '｝', '＂', '＇', '｣':
		return true
	}
	return false
}

func isHSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\u00a0' || r == '\r' }

// splitter finds sentence boundaries. It holds the abbreviation set of one
// language and is safe for concurrent use once built.
type splitter struct {
	abbrev map[string]struct{}
	// ordinals says a number of one to three digits before '.' is an
	// ordinal, not a sentence end: Turkish writes "5. Ceza Mahkemesi",
	// "3. Köprü".
	ordinals bool
}

func newSplitter(tag language.Tag) splitter {
	rules := RuleSet(tag)
	return splitter{abbrev: abbrevSets()[rules], ordinals: rules == "tr"}
}

// isOrdinal reports whether the word ending at end is one to three digits.
func isOrdinal(text string, end int) bool {
	i := end
	for i > 0 && end-i < 4 && isDigit(rune(text[i-1])) {
		i--
	}
	return i < end && end-i <= 3 && (i == 0 || !isDigit(rune(text[i-1])) && text[i-1] != '.' && text[i-1] != ',')
}

// prevWord writes the lower-cased word ending just before byte end into buf
// (letters and inner dots, "e.g", scanning back to the first other rune).
// A word of one letter is returned as that letter (single) and an empty
// word: it may be an initial.
func (s *splitter) prevWord(text string, end int, buf []byte) (word []byte, single rune) {
	i := end
	for i > 0 {
		r, w := utf8.DecodeLastRuneInString(text[:i])
		if !unicode.IsLetter(r) && r != '.' {
			break
		}
		i -= w
	}
	// Strip leading dots (". Dr" is not "dr" with a dot in front).
	for i < end && text[i] == '.' {
		i++
	}
	w := text[i:end]
	if r, n := utf8.DecodeRuneInString(w); n == len(w) && n > 0 && unicode.IsLetter(r) {
		return buf[:0], r
	}
	buf = buf[:0]
	for _, r := range w {
		buf = utf8.AppendRune(buf, unicode.ToLower(r))
	}
	return buf, 0
}

// caseUse records whether a text has upper-case letters: unknown until
// needed, then cased or uncased.
type caseUse uint8

const (
	caseUnknown caseUse = iota
	caseCased
	caseUncased
)

// uncased reports whether text has no upper-case (or title-case) letter,
// as a lower-cased copy of a text has none; *cu caches the answer for the
// text being split.
func uncased(text string, cu *caseUse) bool {
	return lacks(text, cu, 'A', 'Z', func(r rune) bool { return unicode.IsUpper(r) || unicode.IsTitle(r) })
}

// noLower reports whether text has no lower-case letter, as an upper-cased
// copy of a text has none; *cu caches the answer (caseUncased: none).
func noLower(text string, cu *caseUse) bool {
	return lacks(text, cu, 'a', 'z', unicode.IsLower)
}

// lacks reports whether text has no letter of one case: an ASCII byte in
// [lo, hi] or another rune is reports true for. *cu caches the answer
// (caseUncased: none), so text is read once.
func lacks(text string, cu *caseUse, lo, hi byte, is func(rune) bool) bool {
	if *cu == caseUnknown {
		*cu = caseUncased
		for i := 0; i < len(text); {
			if c := text[i]; c < utf8.RuneSelf {
				if lo <= c && c <= hi {
					*cu = caseCased
					break
				}
				i++
				continue
			}
			r, w := utf8.DecodeRuneInString(text[i:])
			if is(r) {
				*cu = caseCased
				break
			}
			i += w
		}
	}
	return *cu == caseUncased
}

// boundary decides whether the terminator run text[termStart:after] ends a
// sentence; after is the index just past the run and its closers. cu
// caches whether text uses case at all.
func (s *splitter) boundary(text string, termStart, after int, buf *[]byte, cu *caseUse) bool {
	// The run must be followed by white space or the end of the text:
	// "3.5", "1.500'ün", "a.b.com" are not boundaries.
	if after >= len(text) {
		return true
	}
	if s.wide(text, termStart, after) {
		return true
	}
	r, _ := decode(text, after)
	if !unicode.IsSpace(r) {
		return false
	}
	// The next word must not start in lower case: "2%. arttı", "15. yüzyıl".
	// Text without any upper-case letter (a lower-cased copy, a chat
	// message) gives no such signal: there the other rules decide alone,
	// so that a copy is split where its original is.
	j := after
	for j < len(text) {
		r, w := decode(text, j)
		if !unicode.IsSpace(r) {
			if unicode.IsLower(r) && !uncased(text, cu) {
				return false
			}
			break
		}
		j += w
	}
	// A single '.' after an abbreviation or an initial is not a boundary.
	if text[termStart] == '.' && (after-termStart == 1 || isCloserRun(text[termStart+1:after])) {
		if s.ordinals && isOrdinal(text, termStart) {
			return false
		}
		word, single := s.prevWord(text, termStart, (*buf)[:0])
		*buf = word
		// An initial: one capital letter, or in text without case any
		// one letter ("j. r. r. tolkien").
		if single != 0 && (unicode.IsUpper(single) || uncased(text, cu)) {
			return false
		}
		if _, ok := s.abbrev[string(word)]; ok && len(word) > 0 {
			return false
		}
	}
	return true
}

// wide reports whether the terminator run text[termStart:after] contains a
// wide terminator ([isWideTerminator]) that ends a sentence: every one does
// but a lone "．" between two digits ("３．５").
func (s *splitter) wide(text string, termStart, after int) bool {
	found := false
	for i := termStart; i < after; {
		r, w := decode(text, i)
		if r >= 0x3000 && isWideTerminator(r) {
			found = true
			if r == '．' && i == termStart && i+w < len(text) && i > 0 {
				prev, _ := utf8.DecodeLastRuneInString(text[:i])
				next, _ := decode(text, i+w)
				if unicode.IsDigit(prev) && unicode.IsDigit(next) {
					return false
				}
			}
		}
		i += w
	}
	return found
}

func isCloserRun(s string) bool {
	for _, r := range s {
		if !isCloser(r) {
			return false
		}
	}
	return true
}

// each calls fn with the span of every sentence of text, trimmed of white
// space; it stops early when fn returns false.
func (s *splitter) each(text string, scratch *[]byte, fn func(Span) bool) {
	buf := *scratch
	defer func() { *scratch = buf }()
	var cu caseUse
	start := 0
	emit := func(end int) bool {
		a, b := trimSpace(text, start, end)
		if a < b {
			return fn(Span{a, b})
		}
		return true
	}
	for i := 0; i < len(text); {
		r, w := decode(text, i)
		switch {
		case r == '\n':
			// A paragraph break: a newline, optional horizontal space, and
			// another newline.
			j := skip(text, i+w, isHSpace)
			if j < len(text) && text[j] == '\n' {
				if !emit(i) {
					return
				}
				start = j + 1
				i = j + 1
				continue
			}
			i += w
		case isTerminator(r):
			termStart := i
			j := skip(text, skip(text, i+w, isTerminator), isCloser)
			if s.boundary(text, termStart, j, &buf, &cu) {
				if !emit(j) {
					return
				}
				start = j
			}
			i = j
		default:
			i += w
		}
	}
	emit(len(text))
}

// skip returns the index of the first rune of text at or after j that in
// does not report true for, or len(text).
func skip(text string, j int, in func(rune) bool) int {
	for j < len(text) {
		r, w := decode(text, j)
		if !in(r) {
			break
		}
		j += w
	}
	return j
}

// Sentences yields the byte spans of the sentences of text, trimmed of white
// space, using the abbreviation list of lang (see [Analyzer] for the rules).
func Sentences(text string, lang language.Tag) iter.Seq[Span] {
	s := newSplitter(lang)
	return func(yield func(Span) bool) {
		var buf []byte
		s.each(text, &buf, yield)
	}
}
