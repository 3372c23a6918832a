package simhash

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/internal/idftab"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Signer computes SimHash fingerprints of single documents, without an
// index. A Signer is not safe for concurrent use (it owns an analyzer and
// scratch buffers); use one per goroutine. The IDF table it reads is.
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

	toks []textproc.Token // of the text being signed

	// Per token of the text being signed, what collect reads: the term's
	// feature hash, whether it is a FeatureSpots antecedent, its idf.
	th   []uint64
	st   []bool
	tidf []float64
	// The unique terms of the text being signed, first-seen order (not in
	// lite mode).
	uniq  []uint32
	terms []string

	// Per term ID of the analyzer's vocabulary.
	vocab vocabCache
	stop  map[string]struct{} // FeatureSpots antecedents

	// lite: features need neither idf nor term strings, so tokens are
	// hashed as they are scanned (Analyzer.Terms), without interning.
	lite  bool
	stopH map[uint64]struct{} // lite FeatureSpots: hashes of the antecedents

	feats  []feat
	seen   hashtab.Map // feature hash → its index in feats
	skip   []int32     // indexes of dropped features
	chars  []byte
	owner  []int32 // per byte of chars: token index
	digBuf []byte  // scratch of the exact-content digest
	dfs    []int64 // own table: per unique term, its document frequency
	next   []int32 // FeatureSpots: per token, the first non-stopword at or after it
	n      int64   // own table: the documents it counted at this document's turn
	// cellsOf is the own table whose cells vocab.cells holds (each index
	// of a Detector has its table); resolved is set while cells Resolve
	// entered for the document being added may await its count.
	cellsOf  *idftab.Table
	resolved bool

	// spotSteps counts the chain links and antecedents collectSpots has
	// visited, for tests: it grows linearly with the tokens signed.
	spotSteps int
}

// vocabCache holds what a Signer caches per term ID of its analyzer.
type vocabCache struct {
	hash   []uint64     // feature hash of the term; valid when hashed
	hashed []bool       //
	w      []float64    // idf of the term: for the current document, or for good when wset
	wset   []bool       // w is the weight in a frozen table
	isStop []int8       // 0 unknown, 1 stopword, 2 not
	seen   engine.Vocab // first occurrences, and when to start afresh
	cells  idftab.Cache // the Detector's own table: the term's count
}

// vocabFloor is the smallest vocabulary a Signer keeps before it starts
// afresh (a variable so that tests can shrink it).
var vocabFloor = 1 << 16

// NewSigner returns a Signer for cfg reading idf, which must not be nil when
// cfg uses idf (WeightIDF, WeightTFIDF, or SkipTop ≥ 0); it may be nil
// otherwise. The table is read, never written: freeze it for stable
// fingerprints (a frozen table also lets the Signer cache weights). NewSigner
// returns an error wrapping detector.ErrInvalidConfig for an invalid Config
// or a missing table.
func NewSigner(cfg Config, idf *textproc.IDF) (*Signer, error) {
	cfg, tc, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	if idf == nil && cfg.usesIDF() {
		return nil, fmt.Errorf("simhash: NewSigner: nil IDF table with Weights %d and SkipTop %d: %w", cfg.Weights, cfg.SkipTop, detector.ErrInvalidConfig)
	}
	return newSigner(cfg, tc, idf)
}

// newSigner returns a Signer for a resolved Config and its pipeline.
func newSigner(cfg Config, tc textproc.Config, idf *textproc.IDF) (*Signer, error) {
	an, err := textproc.NewAnalyzer(tc)
	if err != nil {
		return nil, fmt.Errorf("simhash: %v: %w", err, detector.ErrInvalidConfig)
	}
	sg := &Signer{cfg: cfg, tc: tc, an: an, idf: idf}
	sg.vocab.seen = engine.NewVocab(vocabFloor)
	sg.lite = !cfg.usesIDF() && cfg.Features != FeatureCharNGrams
	if cfg.Features == FeatureSpots {
		sg.stop = map[string]struct{}{}
		sg.stopH = map[uint64]struct{}{}
		for _, w := range textproc.Stopwords(tc.Language) {
			sg.stop[w] = struct{}{}
			sg.stopH[hashtab.String64(w, cfg.Seed)] = struct{}{}
		}
	}
	return sg, nil
}

// Config returns the Signer's configuration with every default filled in.
func (s *Signer) Config() Config { return s.cfg }

// Sign returns the 64-bit fingerprint of text, and false when the text has
// no features (or all its features weigh 0): such a document gets no
// fingerprint and matches nothing, since every empty document would
// otherwise have fingerprint 0 and match every other. Sign time is
// O(n + u·(64 + SkipTop)) for n tokens and u unique features, with no
// allocation in the steady state.
func (s *Signer) Sign(text string) (uint64, bool) {
	s.analyse(text)
	s.weigh()
	fp, ok := s.sign()
	s.tidy()
	return fp, ok
}

// analyse fills the per-token inputs of collect for text, except the idf
// weights (weigh). In lite mode it hashes each term as Analyzer.Terms
// yields it, which is the token sequence of Analyzer.Tokens
// (TestLiteMatchesTokens), and leaves s.toks empty; otherwise s.toks holds
// the interned tokens and s.uniq, s.terms the distinct terms.
func (s *Signer) analyse(text string) {
	s.th, s.st, s.tidf = s.th[:0], s.st[:0], s.tidf[:0]
	s.uniq, s.terms = s.uniq[:0], s.terms[:0]
	s.toks = s.toks[:0]
	if s.lite {
		s.analyseLite(text)
		return
	}
	s.toks = s.an.Tokens(text)
	s.grow()
	seen := &s.vocab.seen
	seen.Begin(len(s.toks))
	spots := s.cfg.Features == FeatureSpots
	for i := range s.toks {
		t := &s.toks[i]
		if seen.First(t.ID) {
			s.uniq = append(s.uniq, t.ID)
			s.terms = append(s.terms, t.Term)
		}
		s.th = append(s.th, s.termHash(t))
		if spots {
			s.st = append(s.st, s.stopword(t))
		}
	}
}

// analyseLite is analyse without interning.
func (s *Signer) analyseLite(text string) {
	spots := s.cfg.Features == FeatureSpots
	for _, term := range s.an.Terms(text) {
		h := hashtab.Bytes64(term, s.cfg.Seed)
		s.th = append(s.th, h)
		if spots {
			_, stop := s.stopH[h]
			s.st = append(s.st, stop)
		}
	}
}

// weigh fills s.tidf, the idf of each token of the analysed text, from the
// table as it is now: each distinct term is looked up once (and, in a
// frozen table, once for good).
func (s *Signer) weigh() {
	if s.lite || !s.cfg.usesIDF() || s.idf == nil {
		return
	}
	frozen := s.idf.Frozen()
	v := &s.vocab
	for i, id := range s.uniq {
		if frozen && v.wset[id] {
			continue
		}
		v.w[id] = s.idf.Weight(s.terms[i])
		v.wset[id] = frozen
	}
	for i := range s.toks {
		s.tidf = append(s.tidf, v.w[s.toks[i].ID])
	}
}

// sign returns the fingerprint of the analysed and weighed text.
func (s *Signer) sign() (uint64, bool) {
	s.collect()
	s.chooseSkip()
	return s.fingerprint()
}

// grow extends the per-term caches to the analyzer's vocabulary.
func (s *Signer) grow() {
	n := s.an.VocabularySize()
	v := &s.vocab
	if n <= len(v.hash) {
		return
	}
	v.hash = append(v.hash, make([]uint64, n-len(v.hash))...)
	v.hashed = append(v.hashed, make([]bool, n-len(v.hashed))...)
	v.w = append(v.w, make([]float64, n-len(v.w))...)
	v.wset = append(v.wset, make([]bool, n-len(v.wset))...)
	v.seen.Grow(n)
	if s.stop != nil {
		v.isStop = append(v.isStop, make([]int8, n-len(v.isStop))...)
	}
}

// termHash returns the feature hash of token t, cached by term ID.
func (s *Signer) termHash(t *textproc.Token) uint64 {
	v := &s.vocab
	if !v.hashed[t.ID] {
		v.hash[t.ID] = hashtab.String64(t.Term, s.cfg.Seed)
		v.hashed[t.ID] = true
	}
	return v.hash[t.ID]
}

// stopword reports whether token t is an antecedent of FeatureSpots.
func (s *Signer) stopword(t *textproc.Token) bool {
	v := &s.vocab
	if v.isStop[t.ID] == 0 {
		v.isStop[t.ID] = 2
		if _, ok := s.stop[t.Term]; ok {
			v.isStop[t.ID] = 1
		}
	}
	return v.isStop[t.ID] == 1
}

// tidy runs after a document is signed and its analysis used: buffers a
// huge document grew are let go, and a vocabulary past its limit is
// forgotten (see [Signer]).
func (s *Signer) tidy() {
	n := len(s.th)
	big := s.vocab.seen.Big(n)
	if big {
		n = 0 // an outlier: keep nothing of its size
	}
	s.th = engine.Shrink(s.th, n)
	s.st = engine.Shrink(s.st, n)
	s.tidf = engine.Shrink(s.tidf, n)
	s.uniq = engine.Shrink(s.uniq, n)
	s.terms = engine.Shrink(s.terms, n)
	s.feats = engine.Shrink(s.feats, n)
	if big {
		s.seen = hashtab.Map{} // an outlier's table goes now, not at the next collect's Reset
	}
	s.skip = engine.Shrink(s.skip, n)
	s.chars = engine.Shrink(s.chars, 8*n)
	s.owner = engine.Shrink(s.owner, 8*n)
	s.next = engine.Shrink(s.next, n)
	s.digBuf = engine.Shrink(s.digBuf, 8*n)
	s.dfs = engine.Shrink(s.dfs, n)
	if s.vocab.seen.Renew(&s.an, s.tc, vocabFloor, big) {
		s.toks = nil // the old analyzer's buffer, and its terms
		s.vocab = vocabCache{seen: s.vocab.seen}
	}
}

// contentDigest returns the 128-bit digest of the analysed text's term
// sequence, which identifies exact copies as the Detector reads them, and
// false for a text without terms. Outside lite mode it is the digest of
// the terms (hashtab.TokensDigest); in lite mode, where the terms are not
// kept, the digest of their 64-bit feature hashes in order, the only form
// in which lite signing reads them.
func (s *Signer) contentDigest() (hashtab.Digest, bool) {
	if len(s.th) == 0 {
		return hashtab.Digest{}, false
	}
	var dig hashtab.Digest
	if s.lite {
		s.digBuf = s.digBuf[:0]
		for _, h := range s.th {
			s.digBuf = binary.LittleEndian.AppendUint64(s.digBuf, h)
		}
		dig = hashtab.Bytes128(s.digBuf)
	} else {
		s.digBuf, dig = hashtab.TokensDigest(s.digBuf, s.toks)
	}
	return dig, true
}

// ownTerms returns the analysed text's distinct terms as the Detector's
// own table tbl counts them, with the Signer's cache of tbl's cells (a
// cache of another table's cells is dropped first).
func (s *Signer) ownTerms(tbl *idftab.Table) idftab.Terms {
	if s.cellsOf != tbl {
		s.vocab.cells, s.cellsOf = idftab.Cache{}, tbl
	}
	s.vocab.cells.Grow(s.an.VocabularySize()) // only a Detector's own table needs the cache
	return idftab.Terms{Terms: s.terms, IDs: s.uniq, Cache: &s.vocab.cells}
}

// weighOwn fills s.tidf from the Detector's own online table as a turn
// left it: n documents, and s.dfs, the document frequency of each
// distinct term of the analysed text (in the order of s.uniq). It reads
// no table, so it runs after the turn. Query passes the table's counts
// plus one (as the table would be once the text is counted, without
// counting it), so that it agrees with the Add that would count the text
// first.
func (s *Signer) weighOwn(n int64, plusOne bool) {
	if s.lite || !s.cfg.usesIDF() || len(s.uniq) == 0 {
		return
	}
	var one int64
	if plusOne {
		one = 1
	}
	v := &s.vocab
	for i, id := range s.uniq {
		v.w[id] = ownWeight(n+one, s.dfs[i]+one)
		v.wset[id] = false
	}
	for i := range s.toks {
		s.tidf = append(s.tidf, v.w[s.toks[i].ID])
	}
}

// ownWeight is the weight the Detector's own (smoothed) table gives a term
// of document frequency df among n documents: textproc.IDF's
// log(1 + N/df), with df clamped to [1, n] as the table clamps it.
// TestQueryWeightsMatchTable checks it against the table.
func ownWeight(n, df int64) float64 {
	if n <= 0 {
		return 0
	}
	df = min(max(df, 1), n)
	return math.Log1p(float64(n) / float64(df))
}
