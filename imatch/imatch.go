package imatch

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/zeebo/xxh3"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
	"github.com/seed-9ef9c1df/neardup/internal/textcfg"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Defaults. A zero Config field takes the constant of the same name.
const (
	// DefaultSkip is the number of highest-idf terms SelectRank drops:
	// "First two words with the highest idf values are ignored since they
	// are likely to be misspellings" (Varol 2012 §4.1.3).
	DefaultSkip = 2
	// DefaultKeep is the number of terms SelectRank keeps after the skipped
	// ones: "ten words with the highest idf values are used to create a
	// fingerprint" (Varol 2012 §4.1.3).
	DefaultKeep = 10
	// DefaultBandLow and DefaultBandHigh bound the normalised idf of the
	// terms SelectBand keeps, nidf = ln((N+1)/df) / ln(N+1): the I-Match mode
	// of the SpotSigs release (Theobald et al. 2008), also the idf band of
	// Alonso et al. 2013 §4.1 (ALGORITHMS.md §3).
	DefaultBandLow  = 0.2
	DefaultBandHigh = 0.85
	// DefaultMinTerms is the fewest selected terms a signature needs; a
	// document with fewer gets none under that lexicon, so that near-empty
	// documents do not all collide (ALGORITHMS.md §3 pitfalls; the value is
	// our proposal [P]).
	DefaultMinTerms = 5
	// DefaultLexiconKeep is the fraction of the lexicon each random
	// sub-lexicon keeps (FreeDiscovery's rand_lexicon_ratio = 0.7; Kołcz et
	// al. 2004 do not state theirs, ALGORITHMS.md §3 [GAP]).
	DefaultLexiconKeep = 0.7
	// DefaultPrefixLen is the first-N stemming length (Varol 2012 §2.1.1).
	DefaultPrefixLen = textproc.DefaultPrefixLen
)

// Selection says which terms of a document enter its signature.
type Selection int

const (
	// SelectRank ranks the document's unique terms by idf, highest first,
	// drops the first Skip and keeps the next Keep (Varol 2012 §4.1.3,
	// Varol et al. 2011 §4): CoDet's adaptation of I-Match. The default.
	SelectRank Selection = iota
	// SelectBand keeps every unique term whose normalised idf lies in
	// [BandLow, BandHigh]: the collection-statistics lexicon of I-Match
	// (Chowdhury et al. 2002) with the cut-offs of the SpotSigs release.
	SelectBand
)

// Encoding says how the sorted terms are serialised before hashing.
type Encoding int

const (
	// EncodeLengthPrefixed writes each term as a uvarint length and its
	// bytes: no two term lists encode alike. The default.
	EncodeLengthPrefixed Encoding = iota
	// EncodeConcat concatenates the terms with no separator, as the
	// SpotSigs release does ("ab"+"c" and "a"+"bc" collide): for fidelity
	// experiments only.
	EncodeConcat
)

// Config configures I-Match. The zero value is CoDet's adaptation (seed 000
// §4.1.3) over language-neutral text: stopword removal (where the language
// has a list), first-5 stemming, rank selection skipping 2 and keeping 10
// terms, no lexicon randomisation, length-prefixed encoding.
type Config struct {
	// Language is a BCP 47 tag ("en", "tr", ...) selecting case folding,
	// stopwords and sentence rules; "" is language-neutral, as is any
	// language without rules of its own (textproc.RuleSet).
	Language string
	// KeepStopwords keeps the language's stopwords (seed 000 §2.1 removes
	// them).
	KeepStopwords bool
	// Stemmer selects the stemmer; zero (textproc.StemDefault) is
	// textproc.StemPrefix, first-N stemming (Varol 2012 §2.1.1, the
	// preprocessing of every detector in its §5.1). Terms of scripts
	// written without spaces (character bigrams) are never cut.
	Stemmer textproc.Stemmer
	// PrefixLen is the StemPrefix length; 0 means DefaultPrefixLen.
	PrefixLen int

	// Selection picks the term selection rule (default SelectRank).
	Selection Selection
	// Skip is how many highest-idf terms SelectRank drops; 0 means
	// DefaultSkip, a negative value drops none.
	Skip int
	// Keep is how many terms SelectRank keeps; 0 means DefaultKeep.
	Keep int
	// BandLow and BandHigh bound SelectBand's normalised idf; 0 means
	// DefaultBandLow and DefaultBandHigh.
	BandLow, BandHigh float64
	// MinTerms is the fewest selected terms a signature needs; 0 means
	// DefaultMinTerms.
	MinTerms int

	// Lexicons is the number K of extra random sub-lexicons (Kołcz et al.
	// 2004): each document gets K+1 digests and two documents match when
	// any of them agree. 0 is plain I-Match.
	Lexicons int
	// LexiconKeep is the fraction of terms each random sub-lexicon keeps;
	// 0 means DefaultLexiconKeep.
	LexiconKeep float64
	// Seed derives the random sub-lexicons.
	Seed uint64

	// Encoding serialises the sorted terms (default EncodeLengthPrefixed).
	Encoding Encoding
	// Content selects the part of each text that is read: its main-content
	// blocks (textproc.ContentMain: navigation, menus and other
	// boilerplate blocks skipped, see textproc.ContentFilter) or the whole
	// text (textproc.ContentAll); zero means DefaultContent.
	Content textproc.Content
	// MaxTextBytes is the largest text Add accepts; 0 means
	// detector.DefaultMaxTextBytes.
	MaxTextBytes int
}

// DefaultContent is the part of a text read by default: the main content,
// boilerplate blocks skipped (textproc.ContentFilter).
const DefaultContent = textproc.ContentMain

// maxLexicons bounds Config.Lexicons: each lexicon costs one digest per
// document.
const maxLexicons = 1024

// resolve fills defaults and validates cfg.
func (cfg Config) resolve() (Config, textproc.Config, error) {
	bad := func(format string, args ...any) (Config, textproc.Config, error) {
		return cfg, textproc.Config{}, fmt.Errorf("imatch: "+format+": %w", append(args, detector.ErrInvalidConfig)...)
	}
	tc, err := textcfg.Pipeline(cfg.Language, cfg.KeepStopwords, cfg.Stemmer, textproc.StemPrefix, cfg.PrefixLen)
	if err != nil {
		return cfg, textproc.Config{}, fmt.Errorf("%s: %w", "imatch", err)
	}
	cfg.Stemmer, cfg.PrefixLen = tc.Stemmer, tc.PrefixLen
	if cfg.Selection != SelectRank && cfg.Selection != SelectBand {
		return bad("Selection (%d) must be SelectRank (0) or SelectBand (1)", cfg.Selection)
	}
	switch {
	case cfg.Skip == 0:
		cfg.Skip = DefaultSkip
	case cfg.Skip < 0:
		cfg.Skip = 0
	}
	if cfg.Keep < 0 {
		return bad("Keep (%d) must be ≥ 0", cfg.Keep)
	}
	if cfg.Keep == 0 {
		cfg.Keep = DefaultKeep
	}
	if cfg.BandLow == 0 {
		cfg.BandLow = DefaultBandLow
	}
	if cfg.BandHigh == 0 {
		cfg.BandHigh = DefaultBandHigh
	}
	if !(cfg.BandLow >= 0 && cfg.BandLow <= cfg.BandHigh && cfg.BandHigh <= 1) {
		return bad("BandLow (%g) and BandHigh (%g) must satisfy 0 ≤ BandLow ≤ BandHigh ≤ 1", cfg.BandLow, cfg.BandHigh)
	}
	if cfg.MinTerms < 0 {
		return bad("MinTerms (%d) must be ≥ 0", cfg.MinTerms)
	}
	if cfg.MinTerms == 0 {
		cfg.MinTerms = DefaultMinTerms
	}
	if cfg.Selection == SelectRank && cfg.MinTerms > cfg.Keep {
		return bad("MinTerms (%d) must not exceed Keep (%d)", cfg.MinTerms, cfg.Keep)
	}
	if cfg.Lexicons < 0 || cfg.Lexicons > maxLexicons {
		return bad("Lexicons (%d) must be in [0, %d]", cfg.Lexicons, maxLexicons)
	}
	if cfg.LexiconKeep == 0 {
		cfg.LexiconKeep = DefaultLexiconKeep
	}
	if !(cfg.LexiconKeep > 0 && cfg.LexiconKeep <= 1) {
		return bad("LexiconKeep (%g) must be in (0, 1]", cfg.LexiconKeep)
	}
	if cfg.Encoding != EncodeLengthPrefixed && cfg.Encoding != EncodeConcat {
		return bad("Encoding (%d) must be EncodeLengthPrefixed (0) or EncodeConcat (1)", cfg.Encoding)
	}
	if cfg.MaxTextBytes < 0 {
		return bad("MaxTextBytes (%d) must be ≥ 0", cfg.MaxTextBytes)
	}
	if cfg.Content, err = textcfg.Content(cfg.Content, DefaultContent); err != nil {
		return bad("%v", err)
	}
	tc.Content = cfg.Content
	return cfg, tc, nil
}

// Digest is a 128-bit xxh3 digest of a document's selected terms (the
// papers used SHA1; DESIGN.md "Hashing").
type Digest [16]byte

// Key is one signature of a document: the digest of its selected terms under
// one lexicon. Lexicon 0 is the base lexicon, 1..K the random sub-lexicons.
// Two documents are near-duplicates when they share a Key; a Key is the
// shuffle key of a distributed deduplication (DESIGN.md "Beyond one
// machine").
type Key struct {
	Lexicon int
	Digest  Digest
}

// exactLexicon marks the detector's exact-content key (see Detector).
const exactLexicon = -1

// Signer computes I-Match signatures of single documents, without an index.
// A Signer is not safe for concurrent use (it owns an analyzer and scratch
// buffers); use one per goroutine. The IDF table it reads is.
type Signer struct {
	cfg Config
	an  *textproc.Analyzer
	idf *textproc.IDF

	toks    []textproc.Token // of the text being signed
	stamp   []uint32         // per term ID: serial of the last document it was seen in
	serial  uint32
	uniq    []uint32 // unique term IDs of the current document, first-seen order
	terms   []string // the same as strings
	dfCache []int64  // per term ID, when the table is frozen; -1 = not cached
	hcache  []uint64 // per term ID: lexicon hash of the term; valid when hset
	hset    []bool
	sel     []cand
	all     []cand
	buf     []byte
}

type cand struct {
	df   int64
	term string
	id   uint32
}

// NewSigner returns a Signer for cfg reading idf, which must not be nil. The
// table is read, never written: freeze it for stable signatures (a frozen
// table also lets the Signer cache its document frequencies). NewSigner
// returns an error wrapping detector.ErrInvalidConfig for an invalid Config
// or a nil table.
func NewSigner(cfg Config, idf *textproc.IDF) (*Signer, error) {
	cfg, tc, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	if idf == nil {
		return nil, fmt.Errorf("imatch: NewSigner: nil IDF table: %w", detector.ErrInvalidConfig)
	}
	an, err := textproc.NewAnalyzer(tc)
	if err != nil {
		return nil, fmt.Errorf("imatch: %v: %w", err, detector.ErrInvalidConfig)
	}
	return &Signer{cfg: cfg, an: an, idf: idf}, nil
}

// Config returns the Signer's configuration with every default filled in.
func (s *Signer) Config() Config { return s.cfg }

// Sign returns the signatures of text: one Key per lexicon (base first, then
// the random sub-lexicons in order) that selects at least MinTerms terms. A
// text with too few terms has none and matches nothing. Sign time is
// O(n + u·(K+1)·log u) for n tokens and u unique terms.
func (s *Signer) Sign(text string) []Key {
	return s.AppendSign(nil, text)
}

// AppendSign appends the signatures of text to dst, as Sign does.
func (s *Signer) AppendSign(dst []Key, text string) []Key {
	s.analyze(text)
	return s.appendKeys(dst)
}

// analyze tokenises text and collects its unique terms.
func (s *Signer) analyze(text string) {
	s.toks = s.an.Tokens(text)
	if n := s.an.VocabularySize(); n > len(s.stamp) {
		s.stamp = append(s.stamp, make([]uint32, n-len(s.stamp))...)
	}
	s.serial++
	if s.serial == 0 { // wrapped: reset stamps
		clear(s.stamp)
		s.serial = 1
	}
	s.uniq, s.terms = s.uniq[:0], s.terms[:0]
	for _, t := range s.toks {
		if s.stamp[t.ID] != s.serial {
			s.stamp[t.ID] = s.serial
			s.uniq = append(s.uniq, t.ID)
			s.terms = append(s.terms, t.Term)
		}
	}
}

// df returns the document frequency of term i of the current document,
// clamped to [1, n] as textproc.IDF weighs it (an unseen term counts as
// seen once), cached by term ID when the table is frozen.
func (s *Signer) df(i int, frozen bool, n int64) int64 {
	id := s.uniq[i]
	var df int64
	if frozen {
		s.growCaches()
		if df = s.dfCache[id]; df < 0 {
			df = s.idf.DF(s.terms[i])
			s.dfCache[id] = df
		}
	} else {
		df = s.idf.DF(s.terms[i])
	}
	return min(max(df, 1), max(n, 1))
}

// growCaches extends the per-term caches to the vocabulary.
func (s *Signer) growCaches() {
	n := s.an.VocabularySize()
	if n <= len(s.dfCache) {
		return
	}
	old := len(s.dfCache)
	s.dfCache = slices.Grow(s.dfCache, n-old)[:n]
	for j := old; j < n; j++ {
		s.dfCache[j] = -1
	}
	s.hset = append(s.hset, make([]bool, n-len(s.hset))...)
	s.hcache = append(s.hcache, make([]uint64, n-len(s.hcache))...)
}

// inLexicon reports whether candidate c belongs to random sub-lexicon j ≥ 1:
// a term is kept when a hash of it under the lexicon's seed falls below
// LexiconKeep (Kołcz et al. 2004: each sub-lexicon removes a random fraction
// of the lexicon; the hash makes the choice without storing the lexicon).
func (s *Signer) inLexicon(c cand, j int) bool {
	s.growCaches()
	if !s.hset[c.id] {
		s.hcache[c.id] = hashx.String64(c.term, s.cfg.Seed)
		s.hset[c.id] = true
	}
	h := hashx.Mix64(s.hcache[c.id] ^ hashx.Mix64(uint64(j)*0x9e3779b97f4a7c15))
	return float64(h>>11)/(1<<53) < s.cfg.LexiconKeep
}

func byTerm(a, b cand) int { return cmp.Compare(a.term, b.term) }

// appendKeys computes the signatures of the analysed document.
func (s *Signer) appendKeys(dst []Key) []Key {
	frozen := s.idf.Frozen()
	n := s.idf.N()
	switch s.cfg.Selection {
	case SelectBand:
		// The band does not depend on the lexicon: select and sort once,
		// then each sub-lexicon keeps a sorted subsequence.
		s.selectBand(frozen, n)
		slices.SortFunc(s.all, byTerm)
		for j := 0; j <= s.cfg.Lexicons; j++ {
			s.sel = s.sel[:0]
			for _, c := range s.all {
				if j == 0 || s.inLexicon(c, j) {
					s.sel = append(s.sel, c)
				}
			}
			dst = s.emit(dst, j)
		}
	case SelectRank:
		if s.cfg.Lexicons == 0 {
			s.selectRank(frozen, n)
			dst = s.emit(dst, 0)
			break
		}
		// Rank every term once; each lexicon takes its first Skip+Keep
		// members.
		s.all = s.all[:0]
		for i := range s.uniq {
			s.all = append(s.all, cand{df: s.df(i, frozen, n), term: s.terms[i], id: s.uniq[i]})
		}
		slices.SortFunc(s.all, func(a, b cand) int {
			return cmp.Or(cmp.Compare(a.df, b.df), cmp.Compare(a.term, b.term))
		})
		limit := s.cfg.Skip + s.cfg.Keep
		for j := 0; j <= s.cfg.Lexicons; j++ {
			s.sel = s.sel[:0]
			for _, c := range s.all {
				if len(s.sel) == limit {
					break
				}
				if j == 0 || s.inLexicon(c, j) {
					s.sel = append(s.sel, c)
				}
			}
			s.sel = append(s.sel[:0], s.sel[min(s.cfg.Skip, len(s.sel)):]...)
			dst = s.emit(dst, j)
		}
	}
	return dst
}

// emit appends the key of the selection s.sel under lexicon j, if it has at
// least MinTerms terms.
func (s *Signer) emit(dst []Key, j int) []Key {
	if len(s.sel) < s.cfg.MinTerms || len(s.sel) == 0 {
		return dst
	}
	// Fig. 2.4 step 4: "Insert relevant tokens into Unicode ascending ordered
	// tree of unique tokens" (Uyar 2009). Byte order of UTF-8 is code point
	// order.
	if !slices.IsSortedFunc(s.sel, byTerm) {
		slices.SortFunc(s.sel, byTerm)
	}
	s.buf = s.buf[:0]
	for _, c := range s.sel {
		if s.cfg.Encoding == EncodeConcat {
			s.buf = append(s.buf, c.term...)
		} else {
			s.buf = hashx.AppendField(s.buf, c.term)
		}
	}
	// Step 5: "add each unique token to the SHA1 digest" — xxh3-128, seeded
	// by the lexicon so that digests of different lexicons differ.
	var d xxh3.Uint128
	if j == 0 {
		d = xxh3.Hash128(s.buf)
	} else {
		d = xxh3.Hash128Seed(s.buf, uint64(j))
	}
	return append(dst, Key{Lexicon: j, Digest: d.Bytes()})
}

// better orders terms by idf, highest first (lowest document frequency),
// ties broken by ascending term.
func better(a, b cand) bool {
	return a.df < b.df || a.df == b.df && a.term < b.term
}

// selectRank implements seed 000 §4.1.3: "ignores first two words with the
// highest idf values. After that, ten words with the highest idf values are
// used to create a fingerprint". It keeps the best Skip+Keep terms in a
// small sorted array, then drops the first Skip.
func (s *Signer) selectRank(frozen bool, n int64) {
	s.sel = s.sel[:0]
	limit := s.cfg.Skip + s.cfg.Keep
	for i := range s.uniq {
		c := cand{df: s.df(i, frozen, n), term: s.terms[i], id: s.uniq[i]}
		if len(s.sel) == limit && !better(c, s.sel[limit-1]) {
			continue
		}
		k := len(s.sel)
		if k < limit {
			s.sel = append(s.sel, c)
		} else {
			k--
		}
		for k > 0 && better(c, s.sel[k-1]) {
			s.sel[k] = s.sel[k-1]
			k--
		}
		s.sel[k] = c
	}
	skip := min(s.cfg.Skip, len(s.sel))
	s.sel = append(s.sel[:0], s.sel[skip:]...)
}

// selectBand puts in s.all the terms with BandLow ≤ nidf ≤ BandHigh, where
// nidf = ln((N+1)/df) / ln(N+1) (SpotSigs release, I-Match mode;
// ALGORITHMS.md §3). nidf decreases with df, so the band is a range of
// document frequencies, computed once per document.
func (s *Signer) selectBand(frozen bool, n int64) {
	s.all = s.all[:0]
	if n <= 0 {
		return
	}
	den := math.Log(float64(n + 1))
	nidf := func(df int64) float64 { return math.Log(float64(n+1)/float64(df)) / den }
	in := func(df int64) bool { v := nidf(df); return v >= s.cfg.BandLow && v <= s.cfg.BandHigh }
	// dfLo and dfHi bracket the band; the formula decides at the edges.
	dfLo := int64(math.Floor(math.Pow(float64(n+1), 1-s.cfg.BandHigh))) - 1
	dfHi := int64(math.Ceil(math.Pow(float64(n+1), 1-s.cfg.BandLow))) + 1
	for i := range s.uniq {
		df := s.df(i, frozen, n)
		if df < dfLo || df > dfHi {
			continue
		}
		if df > dfLo+1 && df < dfHi-1 || in(df) {
			s.all = append(s.all, cand{df: df, term: s.terms[i], id: s.uniq[i]})
		}
	}
}

// exactKey returns the digest of the analysed document's whole term
// sequence, and false for a document without terms.
func (s *Signer) exactKey() (Key, bool) {
	if len(s.toks) == 0 {
		return Key{}, false
	}
	var dig hashx.Digest
	s.buf, dig = hashx.TokensDigest(s.buf, s.toks)
	return Key{Lexicon: exactLexicon, Digest: Digest(dig)}, true
}
