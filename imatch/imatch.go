package imatch

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/zeebo/xxh3"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/internal/idftab"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Digest is a 128-bit xxh3 digest of a document's selected terms (the
// papers used SHA1; only equality of digests is meaningful).
type Digest [16]byte

// Key is one signature of a document: the digest of its selected terms under
// one lexicon. Lexicon 0 is the base lexicon, 1..K the random sub-lexicons.
// Two documents are near-duplicates when they share a Key; a Key is the
// shuffle key of a distributed deduplication (documents grouped by Key).
type Key struct {
	Lexicon int
	Digest  Digest
}

// exactLexicon marks the detector's exact-content key (see Detector).
const exactLexicon = -1

// Signer computes I-Match signatures of single documents, without an index.
// A Signer is not safe for concurrent use (it owns an analyzer and scratch
// buffers); use one per goroutine. The IDF table it reads is.
//
// A Signer interns the terms it sees: its analyzer keeps each distinct term
// and each distinct surface form of a word, and the Signer a few bytes of
// cache per term. So that an endless stream of new words (URLs, ids,
// numbers) does not grow them without bound, the Signer starts afresh when
// its vocabulary exceeds a limit that follows the recurring vocabulary (at
// least 65,536 terms), or after a single document of more tokens than the
// limit: a document of millions of distinct tokens is forgotten once it is
// signed. Buffers sized by one huge document are let go too.
type Signer struct {
	cfg Config
	tc  textproc.Config
	an  *textproc.Analyzer
	idf *textproc.IDF
	// extra is added to N and to the document frequency of each of the
	// document's terms: 1 when a Detector's Query weighs a document as its
	// own table would after counting it, 0 otherwise.
	extra int64
	// own is set while the Signer weighs a document against a Detector's
	// own online table as a turn left it: ownN documents, and ownDF, the
	// document frequency of each unique term (in the order of uniq).
	own   bool
	ownN  int64
	ownDF []int64
	// cellsOf is the table whose cells vocab.cells holds; resolvedIn the
	// table Resolve entered the current document's terms in, until it is
	// counted (index.go).
	cellsOf, resolvedIn *idftab.Table

	toks  []textproc.Token // of the text being signed
	uniq  []uint32         // unique term IDs of the current document, first-seen order
	terms []string         // the same as strings
	vocab vocabCache
	sel   []cand
	all   []cand
	buf   []byte
}

// vocabCache holds what a Signer caches per term ID of its analyzer.
type vocabCache struct {
	seen    engine.Vocab // first occurrences, and when to start afresh
	dfCache []int64      // when the table is frozen; -1 = not cached
	hcache  []uint64     // lexicon hash of the term; valid when hset
	hset    []bool
	cells   idftab.Cache // the Detector's own table: the term's count
}

// vocabFloor is the smallest vocabulary a Signer keeps before it starts
// afresh (a variable so that tests can shrink it).
var vocabFloor = 1 << 16

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
	return newSigner(cfg, tc, idf)
}

// newSigner returns a Signer for a resolved Config and its pipeline.
func newSigner(cfg Config, tc textproc.Config, idf *textproc.IDF) (*Signer, error) {
	an, err := textproc.NewAnalyzer(tc)
	if err != nil {
		return nil, fmt.Errorf("imatch: %v: %w", err, detector.ErrInvalidConfig)
	}
	return &Signer{cfg: cfg, tc: tc, an: an, idf: idf, vocab: vocabCache{seen: engine.NewVocab(vocabFloor)}}, nil
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
	dst = s.appendKeys(dst)
	s.tidy()
	return dst
}

// analyze tokenises text and collects its unique terms.
func (s *Signer) analyze(text string) {
	s.toks = s.an.Tokens(text)
	s.grow()
	seen := &s.vocab.seen
	seen.Begin(len(s.toks))
	s.uniq, s.terms = s.uniq[:0], s.terms[:0]
	for _, t := range s.toks {
		if seen.First(t.ID) {
			s.uniq = append(s.uniq, t.ID)
			s.terms = append(s.terms, t.Term)
		}
	}
}

// grow extends the per-term caches to the analyzer's vocabulary.
func (s *Signer) grow() {
	n := s.an.VocabularySize()
	v := &s.vocab
	if n <= len(v.dfCache) {
		return
	}
	v.seen.Grow(n)
	old := len(v.dfCache)
	v.dfCache = slices.Grow(v.dfCache, n-old)[:n]
	for j := old; j < n; j++ {
		v.dfCache[j] = -1
	}
	v.hset = append(v.hset, make([]bool, n-len(v.hset))...)
	v.hcache = append(v.hcache, make([]uint64, n-len(v.hcache))...)
}

// tidy runs after a document is signed and its analysis used: buffers a
// huge document grew are let go, and a vocabulary past its limit is
// forgotten (see [Signer]).
func (s *Signer) tidy() {
	n := len(s.uniq)
	big := s.vocab.seen.Big(len(s.toks))
	if big {
		n = 0 // an outlier: keep nothing of its size
	}
	s.uniq = engine.Shrink(s.uniq, n)
	s.terms = engine.Shrink(s.terms, n)
	s.all = engine.Shrink(s.all, n)
	s.sel = engine.Shrink(s.sel, n)
	s.buf = engine.Shrink(s.buf, 16*n)
	s.ownDF = engine.Shrink(s.ownDF, n)
	if s.vocab.seen.Renew(&s.an, s.tc, vocabFloor, big) {
		s.toks = nil // the old analyzer's buffer, and its terms
		s.vocab = vocabCache{seen: s.vocab.seen}
	}
}

// df returns the document frequency of term i of the current document,
// clamped to [1, n] as textproc.IDF weighs it (an unseen term counts as
// seen once), cached by term ID when the table is frozen.
func (s *Signer) df(i int, frozen bool, n int64) int64 {
	id := s.uniq[i]
	var df int64
	if s.own {
		df = s.ownDF[i]
	} else if frozen {
		if df = s.vocab.dfCache[id]; df < 0 {
			df = s.idf.DF(s.terms[i])
			s.vocab.dfCache[id] = df
		}
	} else {
		df = s.idf.DF(s.terms[i])
	}
	df += s.extra
	return min(max(df, 1), max(n, 1))
}

// inLexicon reports whether candidate c belongs to random sub-lexicon j ≥ 1:
// a term is kept when a hash of it under the lexicon's seed falls below
// LexiconKeep (Kołcz et al. 2004: each sub-lexicon removes a random fraction
// of the lexicon; the hash makes the choice without storing the lexicon).
func (s *Signer) inLexicon(c cand, j int) bool {
	v := &s.vocab
	if !v.hset[c.id] {
		v.hcache[c.id] = hashtab.String64(c.term, s.cfg.Seed)
		v.hset[c.id] = true
	}
	h := hashtab.Mix64(v.hcache[c.id] ^ hashtab.Mix64(uint64(j)*0x9e3779b97f4a7c15))
	return float64(h>>11)/(1<<53) < s.cfg.LexiconKeep
}

func byTerm(a, b cand) int { return cmp.Compare(a.term, b.term) }

// appendKeys computes the signatures of the analysed document.
func (s *Signer) appendKeys(dst []Key) []Key {
	var frozen bool
	var n int64
	if s.own {
		n = s.ownN + s.extra
	} else {
		frozen = s.idf.Frozen()
		n = s.idf.N() + s.extra
	}
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
		limit := s.cfg.skip() + s.cfg.Keep
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
			s.sel = append(s.sel[:0], s.sel[min(s.cfg.skip(), len(s.sel)):]...)
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
			s.buf = hashtab.AppendField(s.buf, c.term)
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

// selectRank implements Varol 2012 §4.1.3: "ignores first two words with the
// highest idf values. After that, ten words with the highest idf values are
// used to create a fingerprint". It keeps the best Skip+Keep terms in a
// small sorted array, then drops the first Skip.
func (s *Signer) selectRank(frozen bool, n int64) {
	s.sel = s.sel[:0]
	limit := s.cfg.skip() + s.cfg.Keep
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
	skip := min(s.cfg.skip(), len(s.sel))
	s.sel = append(s.sel[:0], s.sel[skip:]...)
}

// selectBand puts in s.all the terms with BandLow ≤ nidf ≤ BandHigh, where
// nidf = ln((N+1)/df) / ln(N+1) (the I-Match mode of the SpotSigs release
// of Theobald et al. 2008). nidf decreases with df, so the band is a range of
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

// ownTerms returns the analysed document's distinct terms as the
// Detector's own table t counts them, with the Signer's cache of t's
// cells (emptied when it held another table's: a ReadFrom replaces the
// table).
func (s *Signer) ownTerms(t *idftab.Table) idftab.Terms {
	if s.cellsOf != t {
		s.vocab.cells = idftab.Cache{}
		s.cellsOf = t
	}
	s.vocab.cells.Grow(s.an.VocabularySize()) // only a Detector's own table needs the cache
	return idftab.Terms{Terms: s.terms, IDs: s.uniq, Cache: &s.vocab.cells}
}

// appendOwnKeys computes the signatures of the analysed document against
// a Detector's own table of n documents in which its unique terms have
// the document frequencies s.ownDF, plus extra (1 for Query: the table as
// it would be once the document is counted). It reads no table.
func (s *Signer) appendOwnKeys(dst []Key, n, extra int64) []Key {
	s.own, s.ownN, s.extra = true, n, extra
	dst = s.appendKeys(dst)
	s.own, s.ownN, s.extra = false, 0, 0
	return dst
}

// content returns the exact-content digest: the digest of the analysed
// document's whole term sequence, and false for a document without terms.
func (s *Signer) content() (Digest, bool) {
	if len(s.toks) == 0 {
		return Digest{}, false
	}
	var dig hashtab.Digest
	s.buf, dig = hashtab.TokensDigest(s.buf, s.toks)
	return Digest(dig), true
}
