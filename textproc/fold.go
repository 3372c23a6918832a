package textproc

import (
	"errors"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// newCaser returns the lower-casing Caser of a rule set ("tr", "en" or "").
func newCaser(lang string) cases.Caser {
	switch lang {
	case "tr":
		return cases.Lower(language.Turkish)
	case "en":
		return cases.Lower(language.English)
	}
	return cases.Lower(language.Und)
}

// Bits of asciiFoldFlags.
const (
	foldApos     = 1 << iota // ' or `: unified to ', and a suffix rule may apply
	foldCapI                 // I: Turkish lowers it to the two-byte ı
	foldNotASCII             // a byte of a longer rune
)

// asciiFold maps each ASCII byte to its folded form: A-Z to a-z and the
// backtick to "'". asciiFoldFlags marks the bytes that need more than
// that mapping (see the fold flags above).
var asciiFold, asciiFoldFlags = func() (fold, flags [256]byte) {
	for c := range 256 {
		b := byte(c)
		switch {
		case b >= utf8.RuneSelf:
			flags[c] = foldNotASCII
		case b == '`' || b == '\'':
			b, flags[c] = '\'', foldApos
		case 'A' <= b && b <= 'Z':
			if b == 'I' {
				flags[c] = foldCapI
			}
			b += 'a' - 'A'
		}
		fold[c] = b
	}
	return fold, flags
}()

// appendFoldedASCII appends an ASCII word to dst with its apostrophes
// unified to "'" and lower-cased, by the Turkish rules when tr is set:
// steps 3-4 of the [Analyzer] pipeline without the apostrophe-suffix rule
// (appendFoldedUnicode folds every other word). apos reports whether the
// word holds an apostrophe (so a suffix rule may apply). Every byte is mapped
// through asciiFold into dst, pre-grown and written by index, while the
// flags of all bytes are gathered and checked once at the end. It reports
// ok = false, with dst unchanged in length, when word is not ASCII. In
// Turkish, a word with "I" takes a byte-by-byte loop, since ı is two bytes.
func appendFoldedASCII(dst []byte, word string, tr bool) (out []byte, apos, ok bool) {
	n := len(dst)
	dst = slices.Grow(dst, len(word))
	o := dst[n : n+len(word)]
	var flags byte
	for i := range o {
		c := word[i]
		flags |= asciiFoldFlags[c]
		o[i] = asciiFold[c]
	}
	switch {
	case flags&foldNotASCII != 0:
		return dst[:n], false, false
	case flags&foldCapI != 0 && tr:
		dst = dst[:n]
		for i := 0; i < len(word); i++ {
			if ch := word[i]; ch == 'I' {
				dst = append(dst, "ı"...) // Turkish: I → ı
			} else {
				dst = append(dst, asciiFold[ch])
			}
		}
		return dst, flags&foldApos != 0, true
	}
	return dst[:n+len(word)], flags&foldApos != 0, true
}

// appendFoldedUnicode is appendFoldedASCII of a word that is not ASCII,
// which it also normalises to NFC, by the rules of lang ("tr", "en" or "").
// c is a Caser for lang and tmp scratch space; nothing is allocated once dst
// and *tmp have room, unless word is not in NFC.
func appendFoldedUnicode(dst []byte, word, lang string, c *cases.Caser, tmp *[]byte) (out []byte, apos bool) {
	n := len(dst)
	if fast, ok := lowerFast(dst, word, lang); ok {
		return fast, true
	}
	src := word
	if norm.NFC.QuickSpanString(src) != len(src) {
		*tmp = norm.NFC.AppendString((*tmp)[:0], src)
		src = string(*tmp) // rare path: input not in NFC
	}
	// Unify apostrophes while copying into tmp, then lower-case into dst.
	t := (*tmp)[:0]
	for _, r := range src {
		if isApostrophe(r) {
			r = '\''
		}
		t = utf8.AppendRune(t, r)
	}
	*tmp = t
	dst = lower(c, dst, t, lang)
	if !loweredIsNFC(dst[n:]) {
		// Lower-casing can undo NFC: neutral "İ̱" (U+0130 U+0331)
		// becomes i U+0307 U+0331, whose marks NFC reorders, and
		// Turkish "İ̆" becomes i U+0306, which composes to ĭ (both
		// found by FuzzAnalyze).
		*tmp = norm.NFC.Append((*tmp)[:0], dst[n:]...)
		dst = append(dst[:n], *tmp...)
	}
	return dst, true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// resetTransformer is the part of a cases.Caser that lower uses (tests
// substitute a failing one).
type resetTransformer interface {
	Reset()
	Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error)
}

// lower appends the lower-cased src to dst using the reused Caser c. It
// gives c more room while it reports transform.ErrShortDst, up to four
// times the length of src (lower-casing at most doubles it: "Ⱥ", two bytes,
// becomes "ⱥ", three); on any other error, or if c still wants more room,
// it falls back to lowerRunes, which cannot fail.
func lower(c resetTransformer, dst, src []byte, lang string) []byte {
	for {
		c.Reset()
		n, _, err := c.Transform(dst[len(dst):cap(dst)], src, true)
		switch {
		case err == nil:
			return dst[:len(dst)+n]
		case errors.Is(err, transform.ErrShortDst) && cap(dst)-len(dst) < 4*len(src)+16:
			dst = slices.Grow(dst, 4*len(src)+16)
		default:
			return lowerRunes(dst, src, lang)
		}
	}
}

// lowerRunes appends src lower-cased rune by rune with the simple case
// mappings of lang (unicode.TurkishCase for "tr"): the Caser's result on
// every word but those with context-dependent rules (final sigma, a
// combining dot after I).
func lowerRunes(dst, src []byte, lang string) []byte {
	for _, r := range string(src) {
		if lang == "tr" {
			r = unicode.TurkishCase.ToLower(r)
		} else {
			r = unicode.ToLower(r)
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// loweredIsNFC reports, without allocating (norm's IsNormal, Append and
// Iter all allocate), that b, the lower-cased form of an NFC word, is
// still NFC: no rune after the first may combine with or reorder against
// what precedes it, except U+0307 after "i" and before a boundary, the
// "i̇" that the default lower-casing of İ produces and NFC leaves alone.
// A false answer may be conservative: the caller then normalises.
func loweredIsNFC(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	first := norm.NFC.Properties(b)
	for i := max(first.Size(), 1); i < len(b); {
		p := norm.NFC.Properties(b[i:])
		size := max(p.Size(), 1)
		if !p.BoundaryBefore() {
			dot := size == 2 && b[i] == 0xcc && b[i+1] == 0x87 && b[i-1] == 'i' &&
				(i+2 == len(b) || norm.NFC.Properties(b[i+2:]).BoundaryBefore())
			if !dot {
				return false
			}
		}
		i += size
	}
	return true
}

// lowerFast lower-cases word into dst rune by rune when every rune is below
// U+0300 (Latin, including all Turkish letters) or one that lower-casing
// keeps ([uncasedRune]: letters of the scripts without spaces, [isNoSpace],
// which have no case; punctuation).
// Below U+0300 the language's lower-casing is context-free: Turkish maps
// İ → i and I → ı (unicode.TurkishCase), which is what
// cases.Lower(language.Turkish) does for these runes. Other languages map
// İ to "i̇" with a combining dot, so a word containing İ outside Turkish
// takes the general path. It reports false, with dst unchanged in length,
// when the word needs the general path.
func lowerFast(dst []byte, word, lang string) ([]byte, bool) {
	n := len(dst)
	table := latinLower()
	tr := lang == "tr"
	uncased := false
	for _, r := range word {
		switch {
		case isApostrophe(r):
			dst = append(dst, '\'')
			continue
		case r >= 0x300 || r == utf8.RuneError:
			if commonNoSpace(r) {
				break // no case, always NFC: kept as is
			}
			if !uncasedRune(r) {
				return dst[:n], false
			}
			uncased = true // no case to fold: kept as is
		case r == 'İ' && !tr:
			return dst[:n], false
		case r == 'I' && tr:
			r = 'ı'
		default:
			r = table[r] // unicode.ToLower; Turkish İ → i
		}
		if r < utf8.RuneSelf {
			dst = append(dst, byte(r))
		} else {
			dst = utf8.AppendRune(dst, r)
		}
	}
	// Runes below U+0300 all have NFC_QC=Yes, and so do the CJK ideographs
	// and kana of commonNoSpace, which also never compose with what
	// precedes them; the others (CJK compatibility ideographs, kana voicing
	// marks, some Myanmar vowel signs) may not.
	if uncased && norm.NFC.QuickSpanString(word) != len(word) {
		return dst[:n], false
	}
	return dst, true
}

// uncasedRune reports whether r ≥ U+0300 is kept as is by every language's
// lower-casing, without context: a letter or mark of a script without
// spaces (which has no case), or a punctuation mark, symbol or space that
// lower-casing leaves alone (dashes, curly quotes, ...). Letters and marks
// of other scripts, and symbols with case (Ⓐ, Ⅰ), are not: they take the
// Caser.
func uncasedRune(r rune) bool {
	switch {
	case r == utf8.RuneError:
		return false
	case isNoSpace(r) || isNoSpaceMark(r):
		return true
	case unicode.IsLetter(r) || unicode.IsMark(r):
		return false
	}
	return unicode.ToLower(r) == r && unicode.ToUpper(r) == r
}

// latinLower maps every rune below U+0300 to its lower case
// (unicode.ToLower, which maps İ to i as unicode.TurkishCase does).
var latinLower = sync.OnceValue(func() *[0x300]rune {
	var t [0x300]rune
	for r := range t {
		t[r] = unicode.ToLower(rune(r))
	}
	return &t
})

// Folder folds case the way an [Analyzer] folds a word: the text is
// normalised to NFC, its apostrophes (' ’ ʼ ‘ `) are unified to "'", and
// it is lower-cased with the rules of the language ([RuleSet]): Turkish
// "KADIN İSTANBUL" → "kadın istanbul", English and neutral text
// "ISTANBUL" → "istanbul". Unlike the Analyzer it works on any text, not
// one word, applies no apostrophe-suffix rule, and removes no stopwords.
// Use it wherever text must be compared in the pipeline's folded form
// (gazetteers, character n-grams), so that no second copy of the folding
// rules exists.
//
// The zero Folder is language-neutral. A Folder is a small immutable value,
// safe for concurrent use by multiple goroutines.
type Folder struct {
	lang   string
	noCirc bool
}

// NewFolder returns the Folder of tag's rule set.
func NewFolder(tag language.Tag) Folder { return Folder{lang: RuleSet(tag)} }

// WithoutCircumflex returns a copy of f that also removes the circumflex
// from â, î and û (after lower-casing): Turkish writes the same words with
// and without it ("hâlâ" and "hala", "Kâzım" and "Kazım"), so names
// compare equal either way.
func (f Folder) WithoutCircumflex() Folder {
	f.noCirc = true
	return f
}

// foldScratch is the scratch space of the Folder's general path.
type foldScratch struct {
	caser    cases.Caser
	out, tmp []byte
}

// foldPools holds scratch per rule set: a Caser is stateful, and a new
// one costs four allocations.
var foldPools = [3]sync.Pool{
	{New: func() any { return &foldScratch{caser: newCaser("")} }},
	{New: func() any { return &foldScratch{caser: newCaser("tr")} }},
	{New: func() any { return &foldScratch{caser: newCaser("en")} }},
}

func (f Folder) pool() *sync.Pool {
	switch f.lang {
	case "tr":
		return &foldPools[1]
	case "en":
		return &foldPools[2]
	}
	return &foldPools[0]
}

// AppendFold appends the folded s to dst. It allocates nothing once dst has
// room, unless s is not in NFC.
func (f Folder) AppendFold(dst []byte, s string) []byte {
	n := len(dst)
	if isASCII(s) {
		dst, _, _ = appendFoldedASCII(dst, s, f.lang == "tr")
	} else if fast, ok := lowerFast(dst, s, f.lang); ok {
		dst = fast
	} else {
		sc := f.pool().Get().(*foldScratch)
		dst, _ = appendFoldedUnicode(dst, s, f.lang, &sc.caser, &sc.tmp)
		f.put(sc)
	}
	if f.noCirc {
		dst = append(dst[:n], stripCircumflex(dst[n:])...)
	}
	return dst
}

// Fold returns the folded s. It returns s itself, without allocating, when
// folding changes nothing.
func (f Folder) Fold(s string) string {
	if f.unchanged(s) {
		return s
	}
	if isASCII(s) {
		return string(f.AppendFold(make([]byte, 0, len(s)+1), s))
	}
	sc := f.pool().Get().(*foldScratch)
	sc.out = f.AppendFold(sc.out[:0], s)
	out := s
	if string(sc.out) != s {
		out = string(sc.out)
	}
	f.put(sc)
	return out
}

// put returns scratch to its pool, without the buffers a huge text grew.
func (f Folder) put(sc *foldScratch) {
	sc.out = release(sc.out, maxScratchBytes)
	sc.tmp = release(sc.tmp, maxScratchBytes)
	f.pool().Put(sc)
}

// unchanged reports, without allocating, that folding leaves s as it is:
// every rune is one lower-casing keeps (a lower-case Latin letter, which
// for Turkish is not "I", or an [uncasedRune]), no apostrophe needs
// unifying, no circumflex needs removing, and s is in NFC. A false answer
// may be conservative.
func (f Folder) unchanged(s string) bool {
	table := latinLower()
	nonLatin := false
	for _, r := range s {
		switch {
		case r == '\'':
		case isApostrophe(r):
			return false
		case r < 0x300:
			if table[r] != r || r == 'İ' || f.noCirc && (r == 'â' || r == 'î' || r == 'û') {
				return false
			}
		case uncasedRune(r):
			nonLatin = true
		default:
			return false
		}
	}
	return !nonLatin || norm.NFC.QuickSpanString(s) == len(s)
}

// stripCircumflex removes the circumflex of â, î and û in place (NFC text:
// each is one two-byte rune, replaced by one ASCII byte).
func stripCircumflex(b []byte) []byte {
	out := b[:0]
	for i := 0; i < len(b); i++ {
		if b[i] == 0xc3 && i+1 < len(b) {
			switch b[i+1] {
			case 0xa2: // â
				out = append(out, 'a')
				i++
				continue
			case 0xae: // î
				out = append(out, 'i')
				i++
				continue
			case 0xbb: // û
				out = append(out, 'u')
				i++
				continue
			}
		}
		out = append(out, b[i])
	}
	return out
}
