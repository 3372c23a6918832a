package textproc

import (
	"unicode"
	"unicode/utf8"
)

// Scripts written without spaces between words. Their text is tokenised
// into overlapping character bigrams, the unit of Lucene's CJK bigram
// analysis (CJKBigramFilter): a word segmenter needs a dictionary per
// language, while bigrams need none and, for Chinese, retrieve about as
// well as words (Kwok 1997, "Comparing representations in Chinese
// information retrieval", SIGIR '97). Hangul is not among them: Korean
// separates words with spaces, so it is tokenised into words like Latin.
var noSpaceScripts = []*unicode.RangeTable{
	unicode.Han, unicode.Hiragana, unicode.Katakana,
	unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar,
}

// isNoSpace reports whether r is a letter of a script written without
// spaces ([noSpaceScripts]), or the katakana-hiragana prolonged sound mark
// (ー, U+30FC, and its half-width form U+FF70, both of the Common script).
func isNoSpace(r rune) bool {
	if r < 0x0E00 { // below Thai: the Latin, Cyrillic, Greek, ... fast path
		return false
	}
	if commonNoSpace(r) || r == 0x30FC || r == 0xFF70 {
		return true
	}
	return unicode.IsLetter(r) && unicode.In(r, noSpaceScripts...)
}

// commonNoSpace reports, without a table search, the bulk of the letters of
// scripts without spaces: CJK Unified Ideographs and Extension A, whose
// every code point is an assigned letter (Lo), hiragana ぁ-ゖ and katakana
// ァ-ヺ.
func commonNoSpace(r rune) bool {
	return 0x4E00 <= r && r <= 0x9FFF || 0x3400 <= r && r <= 0x4DBF ||
		0x3041 <= r && r <= 0x3096 || 0x30A1 <= r && r <= 0x30FA
}

// isMark reports whether r is a combining mark (Mn or Mc).
func isMark(r rune) bool {
	if r < 0x300 || commonNoSpace(r) {
		return false
	}
	return unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}

// isNoSpaceMark reports whether r is a combining mark (Mn, Mc) of one of
// the scripts without spaces, or of the Inherited script (the kana voicing
// marks U+3099, U+309A, variation selectors): marks belong to the
// character before them.
func isNoSpaceMark(r rune) bool {
	return r >= 0x0E00 && isMark(r)
}

// charEnd returns the end of the character that starts at text[i], a letter
// of a script without spaces: the letter and the combining marks after it.
func charEnd(text string, i int) int {
	_, w := utf8.DecodeRuneInString(text[i:])
	i += w
	for i < len(text) && text[i] >= utf8.RuneSelf {
		r, w := utf8.DecodeRuneInString(text[i:])
		if !isMark(r) {
			break
		}
		i += w
	}
	return i
}

// nextBigram returns the token that starts at text[i], a letter of a script
// without spaces, and where the scan resumes: the character bigram of the
// letter and the next one when the next is also such a letter, else the
// lone character (a unigram). The scan resumes at the second character of
// a bigram when a third follows, so bigrams overlap ("東京都" → "東京",
// "京都"), and after it otherwise, so a run of n ≥ 2 characters yields
// exactly n−1 bigrams.
func nextBigram(text string, i int) (sp Span, next int) {
	e1 := charEnd(text, i)
	if e1 >= len(text) || text[e1] < 0xe0 { // the next rune is < U+0800
		return Span{i, e1}, e1
	}
	if r, _ := utf8.DecodeRuneInString(text[e1:]); !isNoSpace(r) {
		return Span{i, e1}, e1
	}
	e2 := charEnd(text, e1)
	next = e2
	if e2 < len(text) && text[e2] >= 0xe0 {
		if r, _ := utf8.DecodeRuneInString(text[e2:]); isNoSpace(r) {
			next = e1
		}
	}
	return Span{i, e2}, next
}
