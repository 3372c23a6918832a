package textproc

import (
	"slices"
	"unicode/utf8"

	"golang.org/x/text/cases"
)

// The tokenising and ASCII folding code as it was before its fast paths
// (table lookups, an index-written copy, one pass over the word), kept
// unchanged as the reference that TestFastPathsMatchReference and
// FuzzFastPathsMatchReference compare the production code with. The shared
// helpers it calls (decode, isWordRune, lowerFast, lower, ...) are not part
// of that change.

func refNextWord(text string, i int) (sp Span, ok bool) {
	for i < len(text) {
		if c := text[i]; c < utf8.RuneSelf {
			if asciiWord[c] {
				break
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(text[i:])
		if isNoSpace(r) {
			return Span{i, charEnd(text, i)}, true
		}
		if isWordRune(r) {
			break
		}
		i += w
	}
	if i >= len(text) {
		return Span{}, false
	}
	start := i
	var prev rune
	for i < len(text) {
		if c := text[i]; c < utf8.RuneSelf && asciiWord[c] {
			prev = rune(c)
			i++
			continue
		}
		r, w := decode(text, i)
		if isWordRune(r) && !isNoSpace(r) {
			prev = r
			i += w
			continue
		}
		if i+w < len(text) {
			next, _ := decode(text, i+w)
			if isApostrophe(r) && isWordRune(next) && !isNoSpace(next) && prev != 0 ||
				(r == '.' || r == ',') && isDigit(prev) && isDigit(next) {
				prev = r
				i += w
				continue
			}
		}
		break
	}
	return Span{start, i}, true
}

func refNextUnit(text string, i int) (sp Span, next int, ok bool) {
	sp, ok = refNextWord(text, i)
	if !ok {
		return sp, 0, false
	}
	if text[sp.Start] < 0xe0 {
		return sp, sp.End, true
	}
	sp, next = nextUnitAt(text, sp)
	return sp, next, true
}

// refWords returns the spans of the old Words.
func refWords(text string) []Span {
	var out []Span
	for i := 0; ; {
		sp, ok := refNextWord(text, i)
		if !ok {
			return out
		}
		out = append(out, sp)
		i = sp.End
	}
}

// refTermSpans returns the spans of the old TermSpans.
func refTermSpans(text string) []Span {
	var out []Span
	for i := 0; ; {
		sp, next, ok := refNextUnit(text, i)
		if !ok {
			return out
		}
		out = append(out, sp)
		i = next
	}
}

func refAppendFolded(dst []byte, word, lang string, c *cases.Caser, tmp *[]byte) (out []byte, apos bool) {
	if isASCII(word) {
		tr := lang == "tr"
		dst = slices.Grow(dst, len(word))
		for i := 0; i < len(word); i++ {
			ch := word[i]
			if ch <= 'Z' && ch >= 'A' {
				if ch == 'I' && tr {
					dst = append(dst, "ı"...)
					continue
				}
				ch += 'a' - 'A'
			} else if ch == '`' || ch == '\'' {
				ch, apos = '\'', true
			}
			dst = append(dst, ch)
		}
		return dst, apos
	}
	// The path of a word that is not ASCII is unchanged.
	return appendFoldedUnicode(dst, word, lang, c, tmp)
}

// refFold is the old Analyzer.fold.
func (a *Analyzer) refFold(dst []byte, word string) []byte {
	n := len(dst)
	buf, apos := refAppendFolded(dst, word, a.lang, &a.caser, &a.buf2)
	if !apos {
		return buf
	}
	return buf[:n+len(a.apostrophe(buf[n:]))]
}

// refAppendTerm is the old Analyzer.AppendTerm.
func (a *Analyzer) refAppendTerm(dst []byte, word string) ([]byte, bool) {
	a.ensure()
	n := len(dst)
	b := a.refFold(dst, word)
	a.buf2 = release(a.buf2, maxScratchBytes)
	t := b[n:]
	if len(t) == 0 {
		return dst, false
	}
	if a.stop != nil {
		if _, stop := a.stop[string(t)]; stop {
			return dst, false
		}
	}
	if a.stem {
		t = a.stemmed(t)
	}
	return b[:n+len(t)], true
}
