package tweezer

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/ner"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Digest is the 128-bit xxh3 digest of a document's sorted, deduplicated
// shingles, in place of the SHA1 of Uyar 2009 Fig. 4.2 (only
// equality of digests matters).
type Digest [16]byte

// Signature is the Tweezer signature of one document.
type Signature struct {
	// Shingles are the document's pNEs shingles (Uyar 2009 §4.1), sorted in
	// ascending byte order with duplicates removed (Fig. 4.2 steps 2-3):
	// the p words before an entity, the entity's canonical form, the s words
	// after it, joined by single spaces. For a document without entities it
	// holds one shingle, the fallback words (§4.2). Empty for a text
	// without words.
	Shingles []string
	// Fallback reports that the document had no named entity.
	Fallback bool
	// Digest is the xxh3-128 digest of Shingles in an unambiguous encoding
	// (each shingle length-prefixed, after a tag saying whether it is the
	// fallback), zero for a text without words.
	Digest Digest
	// Caseless reports a text written without case distinctions: it has
	// letters with a case, all in lower case or all in capitals. Its named
	// entities cannot be told by their capitals, so it is signed by its
	// fallback words (Uyar 2009 §4.2) folded to lower case, and it matches
	// the documents with its Key.
	Caseless bool
	// Key is the xxh3-128 digest of the document's fallback words folded
	// to lower case by the language's rules, with dotted and dotless i
	// taken as one letter: a text and its copies in lower case or in
	// capitals, made by Turkish or by language-blind rules, have one Key.
	// Zero for a text without words.
	Key Digest
}

// Empty reports whether the signature has no shingles (a text without
// words); such documents match nothing.
func (s Signature) Empty() bool { return len(s.Shingles) == 0 }

// Signer computes Tweezer signatures without an index: the pure,
// per-document part of Tweezer, callable by a worker of a data-parallel
// engine.
//
// A Signer is immutable and safe for concurrent use by multiple goroutines.
type Signer struct {
	cfg     Config
	rec     *ner.Recognizer
	tag     language.Tag
	folder  textproc.Folder
	filters engine.Pool[*textproc.ContentFilter] // for ContentMain
}

// NewSigner returns a Signer for cfg. It returns an error wrapping
// detector.ErrInvalidConfig, naming the field, for a Language that is not a
// BCP 47 tag, a Prefix or Suffix outside [0, MaxContext], a negative or too
// large FallbackWords, an unknown Mode, a Threshold outside (0, 1] in the
// set modes, a MinOverlap above MaxMinOverlap, a negative MaxTextBytes or MaxResults,
// or an unknown Content; nil otherwise.
func NewSigner(cfg Config) (*Signer, error) {
	cfg.setDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	t, _ := textproc.ParseLanguage(cfg.Language) // validate has checked it
	// ner has Turkish and English rules only.
	tag := language.Turkish
	if textproc.RuleSet(t) == "en" {
		tag = language.English
	}
	rec := ner.New(ner.Config{Language: tag, JoinAtApostrophe: true}) // Uyar 2009 Fig. 4.1
	sg := &Signer{cfg: cfg, rec: rec, tag: tag, folder: textproc.NewFolder(tag)}
	// The content filter reads the caller's language (neutral for ""),
	// not the recogniser's.
	sg.filters.New = func() (*textproc.ContentFilter, error) { return textproc.NewContentFilter(t), nil }
	return sg, nil
}

// Config returns the Signer's configuration with every default filled in.
func (s *Signer) Config() Config { return s.cfg }

// span is a word of the text with its sentence number.
type span struct {
	start, end int
	sent       int
}

// Sign returns the signature of text. Sign time is O(n) in the length of the
// text (named-entity recognition dominates) plus O(m log m) to sort its m
// shingles.
//
// A text written all in lower case or all in capitals is signed by its
// fallback words folded to lower case (see [Signature].Caseless): without
// capitals the recogniser finds no entity, or different ones.
func (s *Signer) Sign(text string) Signature {
	if s.cfg.Content == textproc.ContentMain {
		f, _ := s.filters.Get() // New never fails
		text = f.Text(text)
		s.filters.Put(f)
	}
	folded, ok := s.foldedFallback(make([]byte, 0, 256), text)
	if !ok {
		return Signature{}
	}
	if caseless(text) {
		sig := finish([]string{string(folded)}, true)
		sig.Caseless, sig.Key = true, caseKey(folded)
		return sig
	}
	sig := s.signCased(text)
	sig.Key = caseKey(folded)
	return sig
}

// signCased returns the signature of a text with case information, without
// its Key: its NE shingles, or its fallback words as written.
func (s *Signer) signCased(text string) Signature {
	ents := s.rec.Find(text)
	if s.cfg.ClipSentences || len(ents) == 0 {
		return s.signWords(text, ents)
	}
	// Context windows are read around each entity only, so the text is
	// tokenised once, by the recogniser.
	var b arena
	var pre []textproc.Span
	for _, e := range ents {
		var ok bool
		if pre, ok = wordsBefore(text, e.Start, s.cfg.Prefix, pre[:0]); !ok {
			return s.signWords(text, ents)
		}
		for _, w := range pre {
			b.buf = append(append(b.buf, text[w.Start:w.End]...), ' ')
		}
		b.buf = append(b.buf, e.Text...)
		n := 0
		for w := range textproc.Words(text[e.Start:]) {
			if e.Start+w.Start < e.End {
				continue // the entity's own words
			}
			if n == s.cfg.Suffix {
				break
			}
			b.buf = append(append(b.buf, ' '), text[e.Start+w.Start:e.Start+w.End]...)
			n++
		}
		b.end()
	}
	return finish(b.strings(), false)
}

// arena builds a list of strings in one buffer: a document's shingles cost
// two allocations (and the buffer's growth) instead of one each.
type arena struct {
	buf  []byte
	ends []int // end of each string in buf
}

// end closes the string written since the last end.
func (a *arena) end() { a.ends = append(a.ends, len(a.buf)) }

// strings returns the closed strings, which share one backing string.
func (a *arena) strings() []string {
	all := string(a.buf)
	out := make([]string, len(a.ends))
	start := 0
	for i, e := range a.ends {
		out[i], start = all[start:e], e
	}
	return out
}

// maxWindow bounds the bytes wordsBefore reads per context word before
// giving up on a text with no word boundaries it can start from.
const maxWindow = 4096

// wordsBefore appends to dst the spans of the last p words of text[:pos],
// reading a window that starts after white space so that no word is cut. It
// reports false when no such start exists within p·maxWindow bytes.
func wordsBefore(text string, pos, p int, dst []textproc.Span) ([]textproc.Span, bool) {
	if p == 0 {
		return dst, true
	}
	for w := 32 * p; ; w *= 2 {
		lo := max(0, pos-w)
		if lo > 0 {
			k := strings.IndexAny(text[lo:pos], " \t\n\r")
			if k < 0 {
				if w > p*maxWindow {
					return dst, false
				}
				continue
			}
			lo += k + 1
		}
		// Keep the last p words in a ring, so that dst never holds more.
		dst = dst[:0]
		n := 0
		for sp := range textproc.Words(text[lo:pos]) {
			s := textproc.Span{Start: lo + sp.Start, End: lo + sp.End}
			if len(dst) < p {
				dst = append(dst, s)
			} else {
				dst[n%p] = s
			}
			n++
		}
		if n >= p || lo == 0 {
			if k := n % p; n > p && k > 0 { // rotate the oldest word to the front
				slices.Reverse(dst[:k])
				slices.Reverse(dst[k:])
				slices.Reverse(dst)
			}
			return dst, true
		}
		if w > p*maxWindow {
			return dst, false
		}
	}
}

// signWords computes the signature from the full word list of text and its
// entities ents: the path for ClipSentences, for documents without
// entities, and the reference the windowed path of Sign is tested against.
func (s *Signer) signWords(text string, ents []ner.Entity) Signature {
	words := s.words(text)
	if len(words) == 0 {
		return Signature{}
	}
	var b arena
	w := 0
	for _, e := range ents {
		// The entity's words: those starting inside [Start, End).
		for w < len(words) && words[w].start < e.Start {
			w++
		}
		a := w
		z := a
		for z < len(words) && words[z].start < e.End {
			z++
		}
		if a == z {
			continue
		}
		lo, hi := max(0, a-s.cfg.Prefix), min(len(words), z+s.cfg.Suffix)
		if s.cfg.ClipSentences {
			for lo < a && words[lo].sent != words[a].sent {
				lo++
			}
			for hi > z && words[hi-1].sent != words[z-1].sent {
				hi--
			}
		}
		for k := lo; k < a; k++ {
			b.buf = append(append(b.buf, text[words[k].start:words[k].end]...), ' ')
		}
		b.buf = append(b.buf, e.Text...)
		for k := z; k < hi; k++ {
			b.buf = append(append(b.buf, ' '), text[words[k].start:words[k].end]...)
		}
		b.end()
	}
	if len(b.ends) > 0 {
		return finish(b.strings(), false)
	}
	// §4.2: first and last FallbackWords words, or the whole document if it
	// has fewer than twice as many.
	n := s.cfg.FallbackWords
	for k, wd := range words {
		if len(words) >= 2*n && k >= n && k < len(words)-n {
			continue
		}
		if len(b.buf) > 0 {
			b.buf = append(b.buf, ' ')
		}
		b.buf = append(b.buf, text[wd.start:wd.end]...)
	}
	b.end()
	return finish(b.strings(), true)
}

// caseless reports whether text has letters with a case and all of them in
// one case. A lower-case letter without a capital of its own (ß, which
// capitals write SS) counts as neither.
func caseless(text string) bool {
	upper, lower := false, false
	for _, r := range text {
		switch {
		case r < utf8.RuneSelf:
			upper = upper || 'A' <= r && r <= 'Z'
			lower = lower || 'a' <= r && r <= 'z'
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsLower(r):
			lower = lower || unicode.ToUpper(r) != r
		}
		if upper && lower {
			return false
		}
	}
	return upper || lower
}

// foldedFallback appends to dst the fallback words of text (Uyar 2009
// §4.2: the first and last FallbackWords words, or all of them when there
// are fewer than twice as many) folded to lower case and joined by single
// spaces. It reports false for a text without words.
func (s *Signer) foldedFallback(dst []byte, text string) ([]byte, bool) {
	n := s.cfg.FallbackWords
	var stack [3 * DefaultFallbackWords]textproc.Span
	words := stack[:0] // the last n words go to [2n, 3n)
	if 3*n > len(stack) {
		words = make([]textproc.Span, 0, 3*n)
	}
	more := false
	for w := range textproc.Words(text) {
		if len(words) == 2*n {
			more = true
			break
		}
		words = append(words, w)
	}
	if len(words) == 0 {
		return dst, false
	}
	if more {
		last, ok := wordsBefore(text, len(text), n, words[2*n:2*n])
		if !ok { // no white space to start from: read every word
			last = last[:0]
			for w := range textproc.Words(text) {
				last = append(last, w)
			}
			last = last[len(last)-n:]
		}
		words = append(words[:n], last...)
	}
	for i, w := range words {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = s.folder.AppendFold(dst, text[w.Start:w.End])
	}
	return dst, true
}

// caseKey digests folded fallback words into a Key, overwriting folded.
// Dotted and dotless i count as one letter, and a combining dot above is
// dropped, so that copies cased by Turkish rules ("İ" ↔ "i", "I" ↔ "ı")
// and by language-blind ones ("I" ↔ "i", "İ" → "i̇") have the Key of the
// original. Beyond ASCII a letter stands for the lower case of its capital
// (micro sign µ and Greek μ, both Μ in capitals, are one letter), and ß
// for the ss its capitals write.
func caseKey(folded []byte) Digest {
	out := folded[:0] // each rune is rewritten no longer than it was
	for i := 0; i < len(folded); {
		r, w := utf8.DecodeRune(folded[i:])
		i += w
		switch r {
		case 'ı':
			out = append(out, 'i')
		case '\u0307': // combining dot above
		case 'ß', 'ẞ':
			out = append(out, "ss"...)
		default:
			if r >= utf8.RuneSelf {
				if c := unicode.ToLower(unicode.ToUpper(r)); c != r && utf8.RuneLen(c) <= w {
					out = utf8.AppendRune(out, c)
					break
				}
			}
			out = append(out, folded[i-w:i]...)
		}
	}
	return Digest(hashtab.Bytes128(append(out, 'K')))
}

// finish sorts and deduplicates the shingles (Uyar 2009 Fig. 4.2 steps 2-3)
// and digests them.
func finish(shingles []string, fallback bool) Signature {
	slices.Sort(shingles)
	shingles = slices.Compact(shingles)
	return Signature{Shingles: shingles, Fallback: fallback, Digest: digest(shingles, fallback)}
}

// words returns the words of text with their sentence numbers. Invalid UTF-8
// separates words.
func (s *Signer) words(text string) []span {
	out := make([]span, 0, len(text)/6+1)
	if !s.cfg.ClipSentences {
		for w := range textproc.Words(text) {
			out = append(out, span{start: w.Start, end: w.End})
		}
		return out
	}
	n := 0
	for sent := range textproc.Sentences(text, s.tag) {
		for w := range textproc.Words(text[sent.Start:sent.End]) {
			out = append(out, span{start: sent.Start + w.Start, end: sent.Start + w.End, sent: n})
		}
		n++
	}
	return out
}

// digest hashes the sorted shingles: a tag byte for the fallback, then each
// shingle as a length-prefixed field (hashtab.AppendField), so that different
// shingle lists never encode alike.
func digest(shingles []string, fallback bool) Digest {
	n := 1
	for _, sh := range shingles {
		n += len(sh) + 4
	}
	buf := make([]byte, 0, n)
	if fallback {
		buf = append(buf, 'F')
	} else {
		buf = append(buf, 'N')
	}
	for _, sh := range shingles {
		buf = hashtab.AppendField(buf, sh)
	}
	return Digest(hashtab.Bytes128(buf))
}

// Similarity returns the similarity of the shingle sets of two signatures
// under mode: the Jaccard similarity |A ∩ B| / |A ∪ B| for [Jaccard], the
// overlap coefficient |A ∩ B| / min(|A|, |B|) for [Overlap], and 1 or 0 for
// equal or different digests for [Exact]. In every mode it is 1 when either
// signature is [Signature].Caseless and their Keys are equal (a text and its
// copy in lower case or in capitals). It is 0 when either signature is
// empty. It is the verification step of each mode, callable without an
// index. Similarity time is O(|A| + |B|).
func Similarity(mode Mode, a, b Signature) float64 {
	if a.Empty() || b.Empty() {
		return 0
	}
	if (a.Caseless || b.Caseless) && a.Key == b.Key {
		return 1
	}
	if mode == Exact {
		if a.Digest == b.Digest {
			return 1
		}
		return 0
	}
	inter := 0
	i, j := 0, 0
	for i < len(a.Shingles) && j < len(b.Shingles) {
		switch c := cmp.Compare(a.Shingles[i], b.Shingles[j]); {
		case c == 0:
			inter++
			i++
			j++
		case c < 0:
			i++
		default:
			j++
		}
	}
	return score(mode, inter, len(a.Shingles), len(b.Shingles))
}

// score is the similarity of two sets of sizes na and nb sharing inter
// elements.
func score(mode Mode, inter, na, nb int) float64 {
	if mode == Overlap {
		return float64(inter) / float64(min(na, nb))
	}
	return float64(inter) / float64(na+nb-inter)
}
