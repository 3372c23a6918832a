package textproc

import (
	"bytes"
	"fmt"
	"iter"
	"slices"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// DefaultPrefixLen is the length, in runes, of the first-N prefix stemmer:
// "first-5 characters of each word is treated as its root. Words with less
// than 5 characters are not reduced at all" (Varol 2012 §2.1.1, after Can et
// al. 2008).
const DefaultPrefixLen = 5

// Stemmer selects how terms are reduced to stems. It is the one stemming
// type of the module: every detector Config that stems has a Stemmer field
// of this type.
type Stemmer int

const (
	// StemDefault, the zero value, is the default of whatever is being
	// configured: no stemming for a [Config], and each detector's documented
	// default for its Config (first-N prefix stemming for the detectors that
	// follow Varol 2012 §5.1).
	StemDefault Stemmer = iota
	// StemNone keeps every term whole.
	StemNone
	// StemPrefix truncates every term to its first PrefixLen runes (Varol
	// 2012 §2.1.1, "first-5"). Terms of scripts written without spaces,
	// which are character bigrams, are never truncated.
	StemPrefix
)

// String returns "StemDefault", "StemNone", "StemPrefix" or "Stemmer(n)".
func (s Stemmer) String() string {
	switch s {
	case StemDefault:
		return "StemDefault"
	case StemNone:
		return "StemNone"
	case StemPrefix:
		return "StemPrefix"
	}
	return fmt.Sprintf("Stemmer(%d)", int(s))
}

// Resolve returns s with StemDefault replaced by def, or an error naming the
// field, wrapping [detector.ErrInvalidConfig], for a value that is not a
// Stemmer. Detectors use it to validate their Config.Stemmer.
func (s Stemmer) Resolve(def Stemmer) (Stemmer, error) {
	switch s {
	case StemDefault:
		if def == StemDefault {
			def = StemNone
		}
		return def.Resolve(StemNone)
	case StemNone, StemPrefix:
		return s, nil
	}
	return s, fmt.Errorf("Stemmer (%d) must be StemDefault (0), StemNone (1) or StemPrefix (2): %w", int(s), detector.ErrInvalidConfig)
}

// Config configures an [Analyzer]. The zero value analyses language-neutral
// text, tokenises and lower-cases only: no stopword removal, no stemming.
type Config struct {
	// Language selects case-folding rules, the apostrophe rule, the stopword
	// list and sentence abbreviations ([RuleSet]). language.Turkish and
	// language.English (and their regional variants) have full support; any
	// other tag, and the zero tag, get the neutral default (Unicode
	// lower-casing, no stopwords, apostrophes kept inside words). A
	// language without a stopword list (German, Chinese, Japanese, ...) is
	// accepted and processed as neutral text.
	Language language.Tag
	// RemoveStopwords drops the language's stopwords (see [Stopwords]).
	RemoveStopwords bool
	// Stemmer selects the stemmer; zero (StemDefault) is StemNone.
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
//     number ("3.5", "1.500'ün"). The full stops of scripts without spaces,
//     '。', '！', '？', '．' (but not between digits: "３．５") and '｡', end
//     a sentence whatever follows, closing quotes and brackets ('」', '”',
//     '）', ...) included.
//  2. Words are runs of letters, digits and combining marks, joined across an
//     apostrophe between letters and across '.' and ',' between digits.
//     Invalid UTF-8 and control characters separate words. Scripts written
//     without spaces between words (Han, Hiragana, Katakana, Thai, Lao,
//     Khmer, Myanmar) have no word boundaries to find: every two adjacent
//     characters (a letter and its combining marks) form a term, so
//     "東京都" gives "東京" and "京都" and a lone character stays a unigram,
//     the bigrams of Lucene's CJK analysis ([TermSpans]). Bigrams are never
//     stemmed. Hangul is tokenised into words, since Korean separates them
//     with spaces.
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
	lang      string // RuleSet(cfg.Language): "tr", "en" or ""
	stem      bool   // first-N prefix stemming
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

// NewAnalyzer returns an Analyzer for cfg. It returns an error only for an
// unknown Stemmer or a negative PrefixLen.
func NewAnalyzer(cfg Config) (*Analyzer, error) {
	st, err := cfg.Stemmer.Resolve(StemNone)
	if err != nil {
		return nil, fmt.Errorf("textproc: %w", err)
	}
	if cfg.PrefixLen < 0 {
		return nil, fmt.Errorf("textproc: PrefixLen (%d) must be ≥ 0: %w", cfg.PrefixLen, detector.ErrInvalidConfig)
	}
	if !cfg.Content.Valid() {
		return nil, fmt.Errorf("textproc: unknown Content %d: %w", cfg.Content, detector.ErrInvalidConfig)
	}
	a := &Analyzer{cfg: cfg, lang: RuleSet(cfg.Language), stem: st == StemPrefix, prefixLen: cfg.PrefixLen, vocab: make(map[string]uint32)}
	if a.prefixLen == 0 {
		a.prefixLen = DefaultPrefixLen
	}
	a.caser = newCaser(a.lang)
	a.split = newSplitter(cfg.Language)
	if cfg.Content == ContentMain {
		a.filter = NewContentFilter(cfg.Language)
	}
	if cfg.RemoveStopwords || a.stem {
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

// Words yields the spans the Analyzer makes terms of ([TermSpans]) inside
// [Analyzer.ContentSpans], with offsets into the whole text. A caller that
// hashes terms with [Analyzer.AppendTerm] iterates these to honour Content.
// Like ContentSpans, it uses the Analyzer's buffers.
func (a *Analyzer) Words(text string) iter.Seq[Span] {
	return func(yield func(Span) bool) {
		for _, c := range a.ContentSpans(text) {
			for sp := range TermSpans(text[c.Start:c.End]) {
				if !yield(Span{sp.Start + c.Start, sp.End + c.Start}) {
					return
				}
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
	text = text[:end]
	for i := start; ; {
		w, ok := nextWord(text, i)
		if !ok {
			return toks
		}
		i = w.End
		if text[w.Start] >= 0xe0 { // a rune ≥ U+0800: maybe a script without spaces
			w, i = nextUnitAt(text, w)
		}
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
	if a.stem {
		t = a.stemmed(t)
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
	if a.stem {
		buf = a.stemmed(buf)
	}
	term, id := a.intern(buf)
	a.surface[key] = int32(id)
	return term, id, true
}

// stopSurface marks a stopword in Analyzer.surface.
const stopSurface = -1

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

// fold appends word after steps 3-4 of the pipeline (NFC, apostrophes
// unified, case folded, the language's apostrophe rule) to dst.
func (a *Analyzer) fold(dst []byte, word string) []byte {
	n := len(dst)
	buf, apos := appendFolded(dst, word, a.lang, &a.caser, &a.buf2)
	if !apos {
		return buf // no apostrophe: no suffix rule to apply
	}
	return buf[:n+len(a.apostrophe(buf[n:]))] // the rule keeps a prefix
}

// stemmed returns the first-N stem of a folded term. A term of a script
// written without spaces is a character bigram (or a lone character) and is
// never cut: its first rune decides, since such runs are tokens of their
// own.
func (a *Analyzer) stemmed(t []byte) []byte {
	if len(t) > 0 && t[0] >= 0xe0 { // a rune ≥ U+0800
		if r, _ := utf8.DecodeRune(t); isNoSpace(r) {
			return t
		}
	}
	return prefixRunes(t, a.prefixLen)
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
