package textproc

import (
	"iter"
	"unicode"
	"unicode/utf8"
)

// Span is a half-open byte range [Start, End) of a text.
type Span struct {
	Start, End int
}

// isWordRune reports whether r belongs inside a word: letters, digits and
// combining marks.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiWord[r]
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}

// asciiWord marks the ASCII letters and digits.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// isApostrophe reports whether r is one of the apostrophes the pipeline
// unifies: ' ’ ʼ ‘ and the backtick some keyboards produce.
func isApostrophe(r rune) bool {
	return r == '\'' || r == '\u2019' || r == '\u02bc' || r == '\u2018' || r == '`'
}

func isDigit(r rune) bool { return '0' <= r && r <= '9' }

// decode returns the rune at text[i] and its width. Invalid UTF-8 decodes as
// utf8.RuneError of width 1, which no rule treats as part of a word: invalid
// bytes become separators.
func decode(text string, i int) (rune, int) {
	if c := text[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(text[i:])
}

// nextWord finds the first word of text at or after byte i and returns its
// span, or ok = false. A word is a maximal run of letters, digits and
// combining marks, also joined across an apostrophe between two word runes
// ("Türkiye'de", "don't") and across '.' or ',' between two digits ("1.500",
// "3.5", "1,000").
func nextWord(text string, i int) (sp Span, ok bool) {
	for i < len(text) {
		if c := text[i]; c < utf8.RuneSelf {
			if asciiWord[c] {
				break
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(text[i:])
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
		// ASCII letters and digits, the bulk of most text, without a call.
		if c := text[i]; c < utf8.RuneSelf && asciiWord[c] {
			prev = rune(c)
			i++
			continue
		}
		r, w := decode(text, i)
		if isWordRune(r) {
			prev = r
			i += w
			continue
		}
		if i+w < len(text) {
			next, _ := decode(text, i+w)
			if isApostrophe(r) && isWordRune(next) && prev != 0 ||
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

// Words yields the byte spans of the words of text in order (see the word
// rule of [Analyzer]). It yields substrings' positions only and does not
// allocate.
func Words(text string) iter.Seq[Span] {
	return func(yield func(Span) bool) {
		for i := 0; ; {
			sp, ok := nextWord(text, i)
			if !ok || !yield(sp) {
				return
			}
			i = sp.End
		}
	}
}
