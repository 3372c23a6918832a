package textproc

import "iter"

// Terms yields, in order, each span of [Analyzer.Words] whose term
// [Analyzer.AppendTerm] keeps, with that term: the same spans and the same
// bytes as calling AppendTerm on every span of Words, without interning.
// The term slice is scratch space, valid until the next iteration; copy
// (or hash) what you keep. A caller that hashes every term (a MinHash
// sketch) iterates these: a word of ASCII letters and digits is found and
// folded in one pass over its bytes, where Words and AppendTerm read it
// twice. Like Words, it uses the Analyzer's buffers, and it allocates
// nothing once they have grown.
func (a *Analyzer) Terms(text string) iter.Seq2[Span, []byte] {
	return func(yield func(Span, []byte) bool) {
		for _, c := range a.ContentSpans(text) {
			if !a.termsOf(text[:c.End], c.Start, yield) {
				break
			}
		}
		a.tbuf = release(a.tbuf, maxScratchBytes)
		a.buf2 = release(a.buf2, maxScratchBytes)
	}
}

// termsOf yields the terms of text[start:] (see [Analyzer.Terms]), with
// offsets into text, and reports false when yield asked to stop.
func (a *Analyzer) termsOf(text string, start int, yield func(Span, []byte) bool) bool {
	tr := a.lang == "tr"
	for i := start; ; {
		// Separators before an ASCII word: most of the time one space.
		for i < len(text) && asciiSkip[text[i]] {
			i++
		}
		if i == len(text) {
			return true
		}
		if asciiWord[text[i]] {
			// An ASCII run: fold it while finding its end. If it is the
			// whole word (an ASCII separator or the end follows) and no
			// Turkish I needs the general fold, it is the folded word.
			j := i
			b := a.tbuf[:0]
			var flags byte
			for j < len(text) && asciiWord[text[j]] {
				c := text[j]
				flags |= asciiFoldFlags[c]
				b = append(b, asciiFold[c])
				j++
			}
			a.tbuf = b
			if (j == len(text) || asciiEnds[text[j]]) && !(tr && flags&foldCapI != 0) {
				if t, ok := a.finishTerm(b); ok && !yield(Span{i, j}, t) {
					return false
				}
				i = j
				continue
			}
		}
		// Any other word: Words and AppendTerm.
		w, ok := nextWord(text, i)
		if !ok {
			return true
		}
		sp, next := w, w.End
		if text[w.Start] >= 0xe0 { // a rune ≥ U+0800: maybe a script without spaces
			sp, next = nextUnitAt(text, w)
		}
		b, ok := a.AppendTerm(a.tbuf[:0], text[sp.Start:sp.End])
		a.tbuf = b
		if ok && !yield(sp, b) {
			return false
		}
		i = next
	}
}

// asciiSkip marks the ASCII bytes that separate words: every ASCII byte
// but the letters and digits. (Apostrophes, '.' and ',' only join inside
// a word; before one they separate.)
var asciiSkip = func() (t [256]bool) {
	for c := range 0x80 {
		t[c] = !asciiWord[c]
	}
	return t
}()
