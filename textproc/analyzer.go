package textproc

import (
	"bytes"
	"fmt"
	"iter"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// DefaultPrefixLen is the length, in runes, of the first-N prefix stemmer:
// "first-5 characters of each word is treated as its root. Words with less
// than 5 characters are not reduced at all" (Varol 2012 §2.1.1, after Can et
// al. 2008).
const DefaultPrefixLen = 5

// Stemmer selects how terms are reduced to stems.
type Stemmer int

const (
	// StemNone keeps every term whole.
	StemNone Stemmer = iota
	// StemPrefix truncates every term to its first PrefixLen runes (seed 000
	// §2.1.1, "first-5").
	StemPrefix
)

// Config configures an [Analyzer]. The zero value analyses language-neutral
// text, tokenises and lower-cases only: no stopword removal, no stemming.
type Config struct {
	// Language selects case-folding rules, the apostrophe rule, the stopword
	// list and sentence abbreviations. language.Turkish and language.English
	// (and their regional variants) have full support; any other tag, and
	// the zero tag, get the neutral default (Unicode lower-casing, no
	// stopwords, apostrophes kept inside words).
	Language language.Tag
	// RemoveStopwords drops the language's stopwords (see [Stopwords]).
	RemoveStopwords bool
	// Stemmer selects the stemmer; zero is StemNone.
	Stemmer Stemmer
	// PrefixLen is the prefix length for StemPrefix; zero means
	// DefaultPrefixLen.
	PrefixLen int
	// Content selects the part of a text that is analysed: the whole text
	// (ContentDefault, ContentAll) or its main-content blocks (ContentMain,
	// see [ContentFilter]). Tokens and sentences keep their offsets into
	// the whole text either way.
	Content Content
}

// FullConfig returns the configuration of seed 000 §2.1 and §5.1 for lang:
// stopwords removed and first-5 stemming, the preprocessing every detector of
// the CoDet study used.
func FullConfig(lang language.Tag) Config {
	return Config{Language: lang, RemoveStopwords: true, Stemmer: StemPrefix, PrefixLen: DefaultPrefixLen}
}

// Token is one term of an analysed text.
type Token struct {
	// Term is the processed term: normalised to NFC, apostrophe suffix
	// handled, case-folded, stemmed. It is interned by the Analyzer, so it
	// stays valid (and shares memory) across calls.
	Term string
	// ID is the dense ID of Term in the Analyzer's vocabulary.
	ID uint32
	// Start and End are the byte offsets of the surface word in the
	// original text, apostrophe suffix included.
	Start, End int
}

// Sentence is one sentence of an analysed text.
type Sentence struct {
	// Start and End are the byte offsets of the sentence in the original
	// text, trimmed of white space.
	Start, End int
	// Tokens are the sentence's tokens: a sub-slice of Document.Tokens.
	Tokens []Token
}

// Document is the result of [Analyzer.Analyze]. Its slices belong to the
// Analyzer and are overwritten by the next call; copy what you keep (the
// Term strings themselves are interned and can be kept).
type Document struct {
	// Tokens holds every token of the text in order.
	Tokens []Token
	// Sentences holds the sentences that have at least one token.
	Sentences []Sentence
}

// Analyzer turns text into sentences of tokens with byte offsets into the
// original text (seed 000 §2.1; DESIGN.md "The text pipeline"):
//
//  1. Sentences are split at '.', '!', '?', '…' followed by white space and a
//     word that does not start in lower case, and at paragraph breaks (an
//     empty line). A '.' after a known abbreviation ("Dr.", "Prof.", "vs.")
//     or an initial ("J.") does not end a sentence, nor does one inside a
//     number ("3.5", "1.500'ün").
//  2. Words are runs of letters, digits and combining marks, joined across an
//     apostrophe between letters and across '.' and ',' between digits.
//     Invalid UTF-8 and control characters separate words.
//  3. Each word is normalised to NFC, its apostrophes unified, and then the
//     language's apostrophe rule applies: Turkish drops the suffix from the
//     apostrophe on ("Türkiye'de", "Türkiye’de" → "türkiye"); English drops a
//     possessive "'s"; other languages keep the word whole.
//  4. Case is folded with the language's rules (golang.org/x/text/cases):
//     Turkish "İSTANBUL" → "istanbul", "IĞDIR" → "ığdır".
//  5. Stopwords are dropped and terms stemmed, as configured.
//  6. Terms are interned to dense uint32 IDs.
//
// In the steady state (every term seen before) Analyze allocates nothing.
//
// An Analyzer is not safe for concurrent use: it reuses its buffers. Use one
// per goroutine, or guard it with a lock.
type Analyzer struct {
	cfg       Config
	lang      string // "tr", "en" or ""
	caser     cases.Caser
	split     splitter
	stop      map[string]struct{}
	prefixLen int

	vocab map[string]uint32
	terms []string
	// surface caches, for a folded word, its term ID or stopSurface, so a
	// word seen before costs one map lookup (no stopword check, no stemming).
	surface map[string]int32

	filter *ContentFilter // nil unless Content is ContentMain
	spans  []Span

	doc  Document
	buf  []byte
	buf2 []byte
	sbuf []byte // sentence splitter scratch
}

func base(tag language.Tag) string {
	// The zero tag (und) guesses "en" with Low confidence: neutral, not
	// English.
	b, conf := tag.Base()
	if conf < language.High {
		return ""
	}
	switch s := b.String(); s {
	case "tr", "az", "en":
		return s
	}
	return ""
}

// NewAnalyzer returns an Analyzer for cfg. It returns an error only for an
// unknown Stemmer or a negative PrefixLen.
func NewAnalyzer(cfg Config) (*Analyzer, error) {
	if cfg.Stemmer != StemNone && cfg.Stemmer != StemPrefix {
		return nil, fmt.Errorf("textproc: unknown Stemmer %d", cfg.Stemmer)
	}
	if cfg.PrefixLen < 0 {
		return nil, fmt.Errorf("textproc: PrefixLen (%d) must be ≥ 0", cfg.PrefixLen)
	}
	if !cfg.Content.Valid() {
		return nil, fmt.Errorf("textproc: unknown Content %d", cfg.Content)
	}
	a := &Analyzer{cfg: cfg, lang: base(cfg.Language), prefixLen: cfg.PrefixLen, vocab: make(map[string]uint32)}
	if a.lang == "az" {
		a.lang = "tr" // same dotted/dotless i and apostrophe conventions
	}
	if a.prefixLen == 0 {
		a.prefixLen = DefaultPrefixLen
	}
	switch a.lang {
	case "tr":
		a.caser = cases.Lower(language.Turkish)
	case "en":
		a.caser = cases.Lower(language.English)
	default:
		a.caser = cases.Lower(language.Und)
	}
	a.split = newSplitter(cfg.Language)
	if cfg.Content == ContentMain {
		a.filter = NewContentFilter(cfg.Language)
	}
	if cfg.RemoveStopwords || cfg.Stemmer != StemNone {
		a.surface = make(map[string]int32)
	}
	if cfg.RemoveStopwords {
		a.stop = make(map[string]struct{})
		for _, w := range Stopwords(cfg.Language) {
			a.stop[w] = struct{}{}
		}
	}
	return a, nil
}

// Config returns the Analyzer's configuration.
func (a *Analyzer) Config() Config { return a.cfg }

// ContentSpans returns the spans of text that the Analyzer reads, in order:
// the whole text, or with ContentMain its main-content blocks (an empty text
// has none). The slice is valid until the next call of ContentSpans,
// Analyze or Tokens. Stages that scan text without an Analyzer's tokens
// (character n-grams, named entities) read these spans to honour Content.
func (a *Analyzer) ContentSpans(text string) []Span {
	a.spans = a.spans[:0]
	if a.filter != nil {
		a.spans = a.filter.Spans(a.spans, text)
	} else if len(text) > 0 {
		a.spans = append(a.spans, Span{0, len(text)})
	}
	return a.spans
}

// Words yields the spans of the words of text that the Analyzer reads: the
// words of [Words] inside [Analyzer.ContentSpans], with offsets into the
// whole text. A caller that hashes terms with [Analyzer.AppendTerm] reads
// them to honour Content. Like ContentSpans, it uses the Analyzer's buffers.
func (a *Analyzer) Words(text string) iter.Seq[Span] {
	return func(yield func(Span) bool) {
		for _, c := range a.ContentSpans(text) {
			for i := c.Start; ; {
				sp, ok := nextWord(text[:c.End], i)
				if !ok {
					break
				}
				if !yield(sp) {
					return
				}
				i = sp.End
			}
		}
	}
}

// Analyze analyses text. The returned Document is valid until the next call.
func (a *Analyzer) Analyze(text string) *Document {
	d := a.reset(text)
	for _, c := range a.ContentSpans(text) {
		a.split.each(text[c.Start:c.End], &a.sbuf, func(s Span) bool {
			s.Start += c.Start
			s.End += c.Start
			first := len(d.Tokens)
			d.Tokens = a.appendTokens(d.Tokens, text, s.Start, s.End)
			if len(d.Tokens) > first {
				// Tokens are attached below, once d.Tokens no longer grows.
				d.Sentences = append(d.Sentences, Sentence{Start: s.Start, End: s.End})
			}
			return true
		})
	}
	// Attach token sub-slices now that d.Tokens no longer moves.
	k := 0
	for i := range d.Sentences {
		s := &d.Sentences[i]
		for k < len(d.Tokens) && d.Tokens[k].Start < s.Start {
			k++
		}
		j := k
		for j < len(d.Tokens) && d.Tokens[j].End <= s.End {
			j++
		}
		s.Tokens = d.Tokens[k:j:j]
		k = j
	}
	return d
}

// reset empties the document buffer for text.
func (a *Analyzer) reset(text string) *Document {
	d := &a.doc
	// Size the token buffer from the text (news averages 6-7 bytes a
	// word), and let go of a huge buffer a huge document left behind.
	est := len(text)/6 + 16
	if c := cap(d.Tokens); c < est || c > 1<<16 && c > 8*est {
		d.Tokens = make([]Token, 0, est)
	}
	d.Tokens = d.Tokens[:0]
	d.Sentences = d.Sentences[:0]
	return d
}

// Tokens returns the tokens [Analyze] would return for text, without
// finding sentences: for callers that use the token sequence alone it
// saves the sentence splitter's pass (FuzzAnalyze checks the two agree).
// The slice is valid until the next call of Tokens or Analyze.
func (a *Analyzer) Tokens(text string) []Token {
	d := a.reset(text)
	for _, c := range a.ContentSpans(text) {
		d.Tokens = a.appendTokens(d.Tokens, text, c.Start, c.End)
	}
	return d.Tokens
}

// appendTokens appends the tokens of the words of text[start:end].
func (a *Analyzer) appendTokens(toks []Token, text string, start, end int) []Token {
	for i := start; ; {
		w, ok := nextWord(text[:end], i)
		if !ok {
			return toks
		}
		i = w.End
		if term, id, ok := a.term(text[w.Start:w.End]); ok {
			toks = append(toks, Token{Term: term, ID: id, Start: w.Start, End: w.End})
		}
	}
}

// Term processes one surface word (steps 3-6 of the pipeline) and returns
// its interned term, or ok = false if the word is a stopword or empty.
func (a *Analyzer) Term(word string) (term string, ok bool) {
	term, _, ok = a.term(word)
	return term, ok
}

// fold appends word after steps 3-4 of the pipeline (NFC, apostrophes
// unified, case folded, the language's apostrophe rule) to dst.
func (a *Analyzer) fold(dst []byte, word string) []byte {
	n := len(dst)
	buf := dst
	ascii := true
	for i := 0; i < len(word); i++ {
		if word[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		tr := a.lang == "tr"
		buf = slices.Grow(buf, len(word))
		apos := false
		for i := 0; i < len(word); i++ {
			c := word[i]
			if c <= 'Z' && c >= 'A' {
				if c == 'I' && tr {
					buf = append(buf, "ı"...) // Turkish: I → ı
					continue
				}
				c += 'a' - 'A'
			} else if c == '`' || c == '\'' {
				c, apos = '\'', true
			}
			buf = append(buf, c)
		}
		if !apos {
			return buf // no apostrophe: no suffix rule to apply
		}
	} else if fast, ok := a.lowerLatin(buf, word); ok {
		// Every rune is below U+0300, so the word is already NFC (all
		// such code points have NFC_QC=Yes) and lower-cases rune by rune.
		buf = fast
	} else {
		src := word
		if norm.NFC.QuickSpanString(src) != len(src) {
			a.buf2 = norm.NFC.AppendString(a.buf2[:0], src)
			src = string(a.buf2) // rare path: input not in NFC
		}
		// Unify apostrophes while copying into a.buf2, then lower-case into buf.
		tmp := a.buf2[:0]
		for _, r := range src {
			if isApostrophe(r) {
				r = '\''
			}
			tmp = utf8.AppendRune(tmp, r)
		}
		a.buf2 = tmp
		buf = a.lower(buf, tmp)
		if !loweredIsNFC(buf[n:]) {
			// Lower-casing can undo NFC: neutral "İ̱" (U+0130 U+0331)
			// becomes i U+0307 U+0331, whose marks NFC reorders, and
			// Turkish "İ̆" becomes i U+0306, which composes to ĭ (both
			// found by FuzzAnalyze).
			a.buf2 = norm.NFC.Append(a.buf2[:0], buf[n:]...)
			buf = append(buf[:n], a.buf2...)
		}
	}
	return buf[:n+len(a.apostrophe(buf[n:]))] // the rule keeps a prefix
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

// AppendTerm appends the processed form of one surface word to dst, as
// [Analyzer.Term] computes it (stopword removal and stemming included), but
// without interning: the term is not added to the vocabulary. It returns dst
// unchanged and false for a stopword or an empty word. It allocates nothing
// once dst has room, so a caller that only hashes terms (a MinHash sketch
// over Words) runs the pipeline's rules without the vocabulary's map.
func (a *Analyzer) AppendTerm(dst []byte, word string) ([]byte, bool) {
	n := len(dst)
	b := a.fold(dst, word)
	t := b[n:]
	if len(t) == 0 {
		return dst, false
	}
	if a.stop != nil {
		if _, stop := a.stop[string(t)]; stop {
			return dst, false
		}
	}
	if a.cfg.Stemmer == StemPrefix {
		t = prefixRunes(t, a.prefixLen)
	}
	return b[:n+len(t)], true
}

// term returns the interned term of word and its dense ID, or ok = false.
func (a *Analyzer) term(word string) (string, uint32, bool) {
	buf := a.fold(a.buf[:0], word)
	a.buf = buf
	if len(buf) == 0 {
		return "", 0, false
	}
	if a.surface == nil {
		term, id := a.intern(buf)
		return term, id, true
	}
	if id, ok := a.surface[string(buf)]; ok {
		if id == stopSurface {
			return "", 0, false
		}
		return a.terms[id], uint32(id), true
	}
	key := string(buf)
	if _, stop := a.stop[key]; stop {
		a.surface[key] = stopSurface
		return "", 0, false
	}
	if a.cfg.Stemmer == StemPrefix {
		buf = prefixRunes(buf, a.prefixLen)
	}
	term, id := a.intern(buf)
	a.surface[key] = int32(id)
	return term, id, true
}

// stopSurface marks a stopword in Analyzer.surface.
const stopSurface = -1

// lowerLatin lower-cases word into dst rune by rune when every rune is below
// U+0300 (Latin, including all Turkish letters), where the language's
// lower-casing is context-free: Turkish maps İ → i and I → ı
// (unicode.TurkishCase), which is what cases.Lower(language.Turkish) does for
// these runes. Other languages map İ to "i̇" with a combining dot, so a word
// containing İ outside Turkish takes the general path. It reports false,
// with dst unchanged in length, when the word needs the general path.
func (a *Analyzer) lowerLatin(dst []byte, word string) ([]byte, bool) {
	n := len(dst)
	table := latinLower()
	for _, r := range word {
		switch {
		case r >= 0x300 || r == utf8.RuneError:
			return dst[:n], false
		case isApostrophe(r):
			dst = append(dst, '\'')
			continue
		case r == 'İ' && a.lang != "tr":
			return dst[:n], false
		case r == 'I' && a.lang == "tr":
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
	return dst, true
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

// lower appends the language-folded src to dst using the reused Caser.
func (a *Analyzer) lower(dst, src []byte) []byte {
	for {
		a.caser.Reset()
		n, _, err := a.caser.Transform(dst[len(dst):cap(dst)], src, true)
		if err == nil {
			return dst[:len(dst)+n]
		}
		dst = slices.Grow(dst, 2*len(src)+16)
	}
}

// apostrophe applies the language's apostrophe rule to a folded term.
func (a *Analyzer) apostrophe(b []byte) []byte {
	if a.lang != "tr" && a.lang != "en" {
		return b // no rule: skip the search
	}
	i := bytes.IndexByte(b, '\'')
	if i < 0 {
		return b
	}
	switch a.lang {
	case "tr":
		// "Türkiye'de" → "türkiye": the case suffix follows the apostrophe.
		return b[:i]
	case "en":
		if n := len(b); n >= 2 && b[n-2] == '\'' && b[n-1] == 's' {
			return b[:n-2]
		}
	}
	return b
}

// prefixRunes truncates b to its first n runes.
func prefixRunes(b []byte, n int) []byte {
	for i := range b {
		if utf8.RuneStart(b[i]) {
			if n == 0 {
				return b[:i]
			}
			n--
		}
	}
	return b
}

func (a *Analyzer) intern(b []byte) (string, uint32) {
	if id, ok := a.vocab[string(b)]; ok {
		return a.terms[id], id
	}
	s := string(b)
	id := uint32(len(a.terms))
	a.vocab[s] = id
	a.terms = append(a.terms, s)
	return s, id
}

// Lookup returns the dense ID of an already interned term.
func (a *Analyzer) Lookup(term string) (uint32, bool) {
	id, ok := a.vocab[term]
	return id, ok
}

// TermOf returns the term of a dense ID. It panics if id was never issued.
func (a *Analyzer) TermOf(id uint32) string { return a.terms[id] }

// VocabularySize returns the number of distinct terms interned so far. The
// vocabulary (and, with stopwords or stemming on, a cache of the surface forms
// that map to each term) only grows; over an endless stream it grows as the
// number of distinct words does (sublinearly in practice, Heaps' law).
func (a *Analyzer) VocabularySize() int { return len(a.terms) }

// Stopwords returns a sorted copy of the stopword list of lang: for Turkish
// the list of Varol 2012 Table 2.1, for English the Snowball list; nil for
// other languages.
func Stopwords(lang language.Tag) []string {
	var l []string
	switch base(lang) {
	case "tr", "az":
		l = turkishStopwords
	case "en":
		l = englishStopwords
	default:
		return nil
	}
	out := slices.Clone(l)
	slices.Sort(out)
	return out
}
