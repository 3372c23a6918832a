package textproc

import (
	"bytes"
	"iter"
	"slices"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

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
// original text (Varol 2012 §2.1):
//
//  1. Sentences are split at '.', '!', '?', '…' followed by white space and a
//     word that does not start in lower case, and at paragraph breaks (an
//     empty line). A text without any capital letter (a lower-cased copy)
//     gives no such signal, so there the next word's case is ignored and
//     any single letter before '.' counts as an initial: a copy is split
//     where its original is. A '.' after a known abbreviation ("Dr.", "Prof.", "vs.")
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
// The zero Analyzer is ready to use: it is the Analyzer of the zero
// [Config] (language-neutral, no stopwords, no stemming). An Analyzer is not
// safe for concurrent use: it reuses its buffers. Use one per goroutine, or
// guard it with a lock.
type Analyzer struct {
	cfg   Config // with defaults filled in
	ready bool   // false in the zero Analyzer until its first use
	lang  string // RuleSet(cfg.Language): "tr", "en" or ""
	stem  bool   // first-N prefix stemming
	caser cases.Caser
	split splitter
	stop  map[string]struct{}

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
	tbuf []byte // Terms scratch
	sbuf []byte // sentence splitter scratch
}

// NewAnalyzer returns an Analyzer for cfg. It returns an error, naming the
// field and wrapping [detector.ErrInvalidConfig], only for an unknown
// Stemmer or Content or a negative PrefixLen.
func NewAnalyzer(cfg Config) (*Analyzer, error) {
	cfg = cfg.setDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	a := new(Analyzer)
	a.init(cfg)
	return a, nil
}

// init sets a up for the defaulted, valid cfg, with an empty vocabulary
// and no buffers.
func (a *Analyzer) init(cfg Config) {
	*a = Analyzer{cfg: cfg, ready: true, lang: RuleSet(cfg.Language), stem: cfg.Stemmer == StemPrefix,
		vocab: make(map[string]uint32)}
	a.caser = newCaser(a.lang)
	a.split = newSplitter(cfg.Language)
	if cfg.Content == ContentMain {
		a.filter = NewContentFilter(cfg.Language)
	}
	if cfg.RemoveStopwords || a.stem {
		a.surface = make(map[string]int32)
	}
	if cfg.RemoveStopwords {
		a.stop = wordSet(Stopwords(cfg.Language))
	}
}

// ensure makes the zero Analyzer the Analyzer of the zero Config.
func (a *Analyzer) ensure() {
	if !a.ready {
		a.initZero()
	}
}

// initZero sets the zero Analyzer up (out of ensure, which stays small
// enough to be inlined into the per-word calls).
func (a *Analyzer) initZero() { a.init(Config{}.setDefaults()) }

// Config returns the Analyzer's effective configuration: the Config it was
// made with, with every default filled in (Stemmer StemNone for
// StemDefault, PrefixLen [DefaultPrefixLen] for 0, Content ContentAll for
// ContentDefault).
func (a *Analyzer) Config() Config {
	if !a.ready {
		return Config{}.setDefaults()
	}
	return a.cfg
}

// Reset empties the Analyzer's vocabulary and releases every buffer it
// holds, keeping its configuration: the memory that a huge document's
// distinct terms took comes back. Term strings returned before stay valid
// (they are ordinary strings), but term IDs start again from 0 and are
// reissued to other terms, so a caller that keeps IDs must drop them at the
// same time. The vocabulary is the only part of an Analyzer that outlives a
// document; everything else is scratch, which a huge document does not
// leave behind (each buffer above about 1 MiB is released by the next
// call).
func (a *Analyzer) Reset() {
	if !a.ready {
		return
	}
	a.init(a.cfg)
}

// ContentSpans returns the spans of text that the Analyzer reads, in order:
// the whole text, or with ContentMain its main-content blocks (an empty text
// has none). The slice is valid until the next call of ContentSpans,
// Analyze or Tokens. Stages that scan text without an Analyzer's tokens
// (character n-grams, named entities) read these spans to honour Content.
func (a *Analyzer) ContentSpans(text string) []Span {
	a.ensure()
	a.spans = release(a.spans, maxScratchSpans)
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
	defer a.releaseScratch()
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
	a.ensure()
	d := &a.doc
	// Size the token buffer from the text (news averages 6-7 bytes a
	// word), up to 2^16 tokens (append grows it beyond), and let go of a
	// huge buffer a huge document left behind.
	est := min(len(text)/6+16, 1<<16)
	if c := cap(d.Tokens); c < est || c > 1<<16 && c > 8*est {
		d.Tokens = make([]Token, 0, est)
	}
	d.Tokens = d.Tokens[:0]
	// Stale sentences would keep their token sub-slices, and so an old
	// token buffer, alive.
	clear(d.Sentences)
	if c := cap(d.Sentences); c > 1<<12 && c > 8*(len(text)/64+4) {
		d.Sentences = nil // a huge document's sentences, or many tiny ones
	}
	d.Sentences = d.Sentences[:0]
	return d
}

// releaseScratch drops the internal buffers a huge document left behind.
// Buffers the caller holds until the next call (Document, ContentSpans) are
// released by that call instead.
func (a *Analyzer) releaseScratch() {
	a.buf = release(a.buf, maxScratchBytes)
	a.buf2 = release(a.buf2, maxScratchBytes)
	a.sbuf = release(a.sbuf, maxScratchBytes)
	a.tbuf = release(a.tbuf, maxScratchBytes)
}

// Tokens returns the tokens [Analyzer.Analyze] would return for text, without
// finding sentences: for callers that use the token sequence alone it
// saves the sentence splitter's pass (FuzzAnalyze checks the two agree).
// The slice is valid until the next call of Tokens or Analyze.
func (a *Analyzer) Tokens(text string) []Token {
	d := a.reset(text)
	defer a.releaseScratch()
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
	a.ensure()
	term, _, ok = a.term(word)
	a.releaseScratch()
	return term, ok
}

// AppendTerm appends the processed form of one surface word to dst, as
// [Analyzer.Term] computes it (stopword removal and stemming included), but
// without interning: the term is not added to the vocabulary. It returns dst
// unchanged and false for a stopword or an empty word. It allocates nothing
// once dst has room, so a caller that only hashes terms (a MinHash sketch
// over Words) runs the pipeline's rules without the vocabulary's map.
func (a *Analyzer) AppendTerm(dst []byte, word string) ([]byte, bool) {
	a.ensure()
	n := len(dst)
	b := a.fold(dst, word)
	a.buf2 = release(a.buf2, maxScratchBytes)
	t, ok := a.finishTerm(b[n:])
	if !ok {
		return dst, false
	}
	return b[:n+len(t)], true
}

// finishTerm applies step 5 of the pipeline to a folded word: it returns
// false for an empty word or a stopword, else the (stemmed) term, a prefix
// of t.
func (a *Analyzer) finishTerm(t []byte) ([]byte, bool) {
	if len(t) == 0 {
		return t, false
	}
	if a.stop != nil {
		if _, stop := a.stop[string(t)]; stop {
			return t, false
		}
	}
	if a.stem {
		t = a.stemmed(t)
	}
	return t, true
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
	if len(a.surface) >= maxSurface {
		// The cache only saves work: start it afresh rather than let a
		// stream of new words grow it without bound.
		a.surface = make(map[string]int32)
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
	buf, apos, ascii := appendFoldedASCII(dst, word, a.lang == "tr")
	if !ascii {
		buf, apos = appendFoldedUnicode(dst, word, a.lang, &a.caser, &a.buf2)
	}
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
	return prefixRunes(t, a.cfg.PrefixLen)
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

// TermOf returns the term of a dense ID. It panics if id was never issued
// (or not since the last [Analyzer.Reset]).
func (a *Analyzer) TermOf(id uint32) string { return a.terms[id] }

// VocabularySize returns the number of distinct terms interned so far (since
// the last [Analyzer.Reset]). The vocabulary only grows: over an endless
// stream it grows as the number of distinct words does (sublinearly in
// practice, Heaps' law, but without bound over a stream of new
// identifiers), about 60 bytes per term plus the term's bytes. A caller
// that can drop its term IDs bounds it with Reset. With stopwords or
// stemming on, a cache of surface forms adds at most 2^16 entries (about
// 4 MB).
func (a *Analyzer) VocabularySize() int { return len(a.terms) }

// Stopwords returns a sorted copy of the stopword list of lang: for Turkish
// the list of Varol 2012 Table 2.1, for English the Snowball list; nil for
// other languages.
func Stopwords(lang language.Tag) []string {
	var l []string
	switch RuleSet(lang) {
	case "tr":
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
