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

// asciiWord marks the ASCII letters and digits. It has an entry for every
// byte (false from 0x80 up), so a scan indexes it with any byte of a text
// without a bounds check or a test for ASCII first.
var asciiWord = func() (t [256]bool) {
	for c := range utf8.RuneSelf {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// asciiEnds marks the ASCII bytes that end a word when they follow one:
// every ASCII byte but the letters and digits, which continue it, and the
// apostrophes (' `) and '.' and ',', which may join it to the next word
// run. Bytes from 0x80 up, the start or continuation of a longer rune, are
// not marked: the rune decides.
var asciiEnds = func() (t [256]bool) {
	for c := range utf8.RuneSelf {
		t[c] = !asciiWord[c] && c != '\'' && c != '`' && c != '.' && c != ','
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
// "3.5", "1,000"). A letter of a script written without spaces is a word of
// its own, with the combining marks after it ([isNoSpace]): "東京" is two
// words, and "ABC株" is "ABC" and "株".
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
	// The rules below look at the rune before i: it exists whenever
	// i > start (a word starts with a word rune), and it is an ASCII digit
	// exactly when the byte before i is one.
	for i < len(text) {
		// A run of ASCII letters and digits, the bulk of most text, with
		// one table lookup a byte.
		for i < len(text) && asciiWord[text[i]] {
			i++
		}
		if i == len(text) || asciiEnds[text[i]] {
			break // space, punctuation, control: no rule below can join
		}
		r, w := decode(text, i)
		if isWordRune(r) && !isNoSpace(r) {
			i += w
			continue
		}
		if i+w < len(text) {
			next, _ := decode(text, i+w)
			if isApostrophe(r) && isWordRune(next) && !isNoSpace(next) && i > start ||
				(r == '.' || r == ',') && i > start && isDigit(rune(text[i-1])) && isDigit(next) {
				i += w
				continue
			}
		}
		break
	}
	return Span{start, i}, true
}

// nextUnitAt returns the unit that starts with the word w and where the scan
// resumes: w itself, or the bigram w starts.
func nextUnitAt(text string, w Span) (sp Span, next int) {
	if r, _ := utf8.DecodeRuneInString(text[w.Start:]); !isNoSpace(r) {
		return w, w.End
	}
	return nextBigram(text, w.Start)
}

// Words yields the byte spans of the words of text in order (see the word
// rule of [Analyzer]); in scripts written without spaces each character is
// a word. It yields substrings' positions only and does not allocate.
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

// TermSpans yields the byte spans the [Analyzer] makes terms of, in order:
// the [Words] of text, except that in scripts written without spaces (Han,
// Hiragana, Katakana, Thai, Lao, Khmer, Myanmar) every two adjacent
// characters form one overlapping bigram ("東京都" → "東京", "京都"; a lone
// character stays a unigram), so a span may start before the previous one
// ends. A caller that hashes terms with [Analyzer.AppendTerm] iterates
// these. It does not allocate.
func TermSpans(text string) iter.Seq[Span] {
	return func(yield func(Span) bool) {
		for i := 0; ; {
			w, ok := nextWord(text, i)
			if !ok {
				return
			}
			// The unit of w: w itself, or, in a script without spaces,
			// the bigram it starts (the test here saves a call per word).
			sp, next := w, w.End
			if text[w.Start] >= 0xe0 { // a rune ≥ U+0800: maybe a script without spaces
				sp, next = nextUnitAt(text, w)
			}
			if !yield(sp) {
				return
			}
			i = next
		}
	}
}
