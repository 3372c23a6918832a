package simhash

import (
	"fmt"
	"math/bits"
	"unicode/utf8"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
	"github.com/seed-9ef9c1df/neardup/internal/textcfg"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Defaults. A zero Config field takes the constant of the same name.
const (
	// DefaultK is the largest Hamming distance reported: Manku, Jain, Das
	// Sarma 2007 §3 chose k = 3 for 64-bit fingerprints; Varol 2012 §4.1.4
	// uses "Hamming distance less than three" (k = 2).
	DefaultK = 3
	// DefaultSkipTop is the number of highest-idf features dropped: "First
	// two words with the highest idf values are ignored" (Varol 2012
	// §4.1.4).
	DefaultSkipTop = 2
	// DefaultWordN is the n of FeatureWordNGrams (word 3-grams).
	DefaultWordN = 3
	// DefaultCharN is the n of FeatureCharNGrams (character 4-grams, the
	// width of the Python simhash package).
	DefaultCharN = 4
	// DefaultSpotN is the chain length of FeatureSpots: 1, the
	// CHAIN_LENGTH of the SpotSigs release configuration (ALGORITHMS.md §2),
	// also the best of 1, 2, 3 on goldset-dev (TestGoldSetQuality).
	DefaultSpotN = 1
	// DefaultPrefixLen is the first-N stemming length (Varol 2012 §2.1.1).
	DefaultPrefixLen = textproc.DefaultPrefixLen
	// MaxK is the largest K a Config accepts: at 64 every fingerprint is a
	// neighbour of every other.
	MaxK = 64
)

// Features selects what a document's features are.
type Features int

const (
	// FeatureWords uses the document's terms ("each unique term of a
	// document is hashed", Varol 2012 §4.1.4). The default.
	FeatureWords Features = iota
	// FeatureWordNGrams uses runs of N consecutive terms (word shingles).
	FeatureWordNGrams
	// FeatureCharNGrams uses runs of N characters of the analysed text (the
	// terms joined by one space).
	FeatureCharNGrams
	// FeatureSpots uses spot signatures (Theobald, Siddharth, Paepcke,
	// SIGIR 2008): after every stopword (the antecedent), the chain of the
	// next N non-stopwords; the antecedent itself is not part of the
	// feature, as in the SpotSigs release. Boilerplate (menus, link lists)
	// has few stopwords, prose many, so these features describe the story
	// rather than the page template. Needs a Language with a stopword list;
	// stopwords are kept for anchoring whatever KeepStopwords says.
	FeatureSpots
)

// Weights selects each feature's weight w in V_i ± w.
type Weights int

const (
	// WeightIDF weighs each unique feature by its idf ("decreased by the idf
	// of w", Varol 2012 §4.1.4 and Table 4.2). The default. A word n-gram
	// weighs the mean idf of its words, a character n-gram the idf of the
	// term it starts in.
	WeightIDF Weights = iota
	// WeightUnit weighs each unique feature 1 (Charikar 2002 over a set).
	WeightUnit
	// WeightTF weighs each feature by its count in the document (every
	// occurrence adds 1), as the Go and Python peers do.
	WeightTF
	// WeightTFIDF weighs each feature by count × idf.
	WeightTFIDF
)

// Config configures SimHash. The zero value is the variant of Varol 2012
// §4.1.4 with Manku et al.'s parameters: stopwords removed and first-5
// stemming, unique words weighted by idf, the 2 highest-idf words dropped,
// 64-bit fingerprints, neighbours within Hamming distance 3.
type Config struct {
	// Language is a BCP 47 tag ("en", "tr", ...) selecting case folding,
	// stopwords and sentence rules; "" is language-neutral, as is any
	// language without rules of its own (textproc.RuleSet).
	Language string
	// KeepStopwords keeps the language's stopwords (Varol 2012 §2.1 removes
	// them).
	KeepStopwords bool
	// Stemmer selects the stemmer; zero (textproc.StemDefault) is
	// textproc.StemPrefix, first-N stemming (Varol 2012 §2.1.1, the
	// preprocessing of every detector in its §5.1). Terms of scripts
	// written without spaces (character bigrams) are never cut.
	Stemmer textproc.Stemmer
	// PrefixLen is the StemPrefix length; 0 means DefaultPrefixLen.
	PrefixLen int

	// Features selects the features (default FeatureWords).
	Features Features
	// N is the n-gram length of FeatureWordNGrams and FeatureCharNGrams; 0
	// means DefaultWordN or DefaultCharN.
	N int
	// Weights selects the feature weights (default WeightIDF).
	Weights Weights
	// SkipTop drops the features of highest idf; 0 means DefaultSkipTop, a
	// negative value drops none (and, with WeightUnit or WeightTF, makes
	// signing read no IDF table at all).
	SkipTop int
	// Seed seeds the 64-bit xxh3 feature hash.
	Seed uint64

	// K is the largest Hamming distance at which two documents are
	// near-duplicates; 0 means DefaultK, a negative value means 0 (equal
	// fingerprints only). At most MaxK.
	K int
	// Blocks is the number of bit blocks of the index (see [NewIndex]); 0
	// derives it from K.
	Blocks int
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

func (cfg Config) resolve() (Config, textproc.Config, error) {
	bad := func(format string, args ...any) (Config, textproc.Config, error) {
		return cfg, textproc.Config{}, fmt.Errorf("simhash: "+format+": %w", append(args, detector.ErrInvalidConfig)...)
	}
	tc, err := textcfg.Pipeline(cfg.Language, cfg.KeepStopwords, cfg.Stemmer, textproc.StemPrefix, cfg.PrefixLen)
	if err != nil {
		return cfg, textproc.Config{}, fmt.Errorf("%s: %w", "simhash", err)
	}
	cfg.Stemmer, cfg.PrefixLen = tc.Stemmer, tc.PrefixLen
	switch cfg.Features {
	case FeatureWords:
	case FeatureWordNGrams:
		if cfg.N == 0 {
			cfg.N = DefaultWordN
		}
	case FeatureCharNGrams:
		if cfg.N == 0 {
			cfg.N = DefaultCharN
		}
	case FeatureSpots:
		if cfg.N == 0 {
			cfg.N = DefaultSpotN
		}
		if len(textproc.Stopwords(tc.Language)) == 0 {
			return bad("Features FeatureSpots needs a Language with stopwords (%q has none)", cfg.Language)
		}
		tc.RemoveStopwords = false
	default:
		return bad("Features (%d) must be FeatureWords (0), FeatureWordNGrams (1), FeatureCharNGrams (2) or FeatureSpots (3)", cfg.Features)
	}
	if cfg.N < 0 || cfg.N > 64 {
		return bad("N (%d) must be in [0, 64]", cfg.N)
	}
	if cfg.Weights < WeightIDF || cfg.Weights > WeightTFIDF {
		return bad("Weights (%d) must be WeightIDF (0), WeightUnit (1), WeightTF (2) or WeightTFIDF (3)", cfg.Weights)
	}
	switch {
	case cfg.SkipTop == 0:
		cfg.SkipTop = DefaultSkipTop
	case cfg.SkipTop < 0:
		cfg.SkipTop = -1
	}
	switch {
	case cfg.K == 0:
		cfg.K = DefaultK
	case cfg.K < 0:
		cfg.K = -1
	case cfg.K > MaxK:
		return bad("K (%d) must be at most %d", cfg.K, MaxK)
	}
	if _, err := indexLayout(cfg.k(), cfg.Blocks); err != nil {
		return bad("%v", err)
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

// k returns the Hamming radius of a resolved Config.
func (cfg Config) k() int { return max(cfg.K, 0) }

// skip returns the number of features dropped by a resolved Config.
func (cfg Config) skip() int { return max(cfg.SkipTop, 0) }

// usesIDF reports whether a resolved Config reads idf weights.
func (cfg Config) usesIDF() bool {
	return cfg.Weights == WeightIDF || cfg.Weights == WeightTFIDF || cfg.SkipTop > 0
}

// Distance returns the Hamming distance between two fingerprints. It does
// not allocate.
func Distance(a, b uint64) int { return bits.OnesCount64(a ^ b) }

// Score returns the similarity 1 − Distance(a, b)/64 that Detector reports.
func Score(a, b uint64) float64 { return 1 - float64(Distance(a, b))/64 }

// Fingerprint is Charikar's construction over explicit features (Varol 2012
// §4.1.4, Table 4.2): V_i starts at 0; for each feature, "If the i-th bit of
// the hash value of t is zero, then it is decreased by the idf of w. It is
// increased by the idf otherwise"; bit i of the result is 1 iff V_i > 0 (a
// tie, V_i = 0, gives 0, as in Table 4.2). Bit i is bit i of the hashes
// (least significant first). Fingerprint panics if the slices differ in
// length.
func Fingerprint(hashes []uint64, weights []float64) uint64 {
	if len(hashes) != len(weights) {
		panic("simhash: Fingerprint: hashes and weights differ in length")
	}
	var v [64]float64
	for j, h := range hashes {
		w := weights[j]
		for i := range 64 {
			if h>>i&1 == 1 {
				v[i] += w
			} else {
				v[i] -= w
			}
		}
	}
	var fp uint64
	for i := range 64 {
		if v[i] > 0 {
			fp |= 1 << i
		}
	}
	return fp
}

// signs[b][k] is +1 if bit k of b is set, else −1: adding w·signs[b] to
// eight counters applies one byte of a feature hash without branches.
var signs = func() (t [256][8]float64) {
	for b := range 256 {
		for k := range 8 {
			t[b][k] = -1
			if b>>k&1 == 1 {
				t[b][k] = 1
			}
		}
	}
	return t
}()

// spread[b] holds bit k of b in byte k: adding spread[b] to a uint64 counts
// the set bits of one hash byte in eight byte-wide lanes at once.
var spread = func() (t [256]uint64) {
	for b := range 256 {
		for k := range 8 {
			if b>>k&1 == 1 {
				t[b] |= 1 << (8 * k)
			}
		}
	}
	return t
}()

// feat is one unique feature of the current document.
type feat struct {
	h   uint64
	idf float64
	tf  int32
}

// Signer computes SimHash fingerprints of single documents, without an
// index. A Signer is not safe for concurrent use (it owns an analyzer and
// scratch buffers); use one per goroutine. The IDF table it reads is.
type Signer struct {
	cfg Config
	an  *textproc.Analyzer
	idf *textproc.IDF

	toks   []textproc.Token // of the text being signed
	thash  []uint64         // per term ID: feature hash of the term
	tset   []bool           // thash[id] is valid
	wcache []float64        // per term ID: idf, when the table is frozen; NaN-free, valid when wset
	wset   []bool
	frozen bool
	stop   map[string]struct{} // FeatureSpots antecedents
	isStop []int8              // per term ID: 0 unknown, 1 stopword, 2 not

	// Per token of the text being signed, what collect reads: the term's
	// feature hash, whether it is a FeatureSpots antecedent, its idf.
	th   []uint64
	st   []bool
	tidf []float64
	// lite: features need neither idf nor term strings, so tokens are
	// hashed as they are scanned (Analyzer.AppendTerm), without interning.
	lite    bool
	termBuf []byte
	stopH   map[uint64]struct{} // lite FeatureSpots: hashes of the antecedents

	feats []feat
	slots []int32 // open addressing: index into feats, −1 empty
	mask  uint64
	skip  []int32 // indexes of dropped features
	chars []byte
	owner []int32 // per byte of chars: token index
}

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
	an, err := textproc.NewAnalyzer(tc)
	if err != nil {
		return nil, fmt.Errorf("simhash: %v: %w", err, detector.ErrInvalidConfig)
	}
	sg := &Signer{cfg: cfg, an: an, idf: idf}
	sg.lite = !cfg.usesIDF() && cfg.Features != FeatureCharNGrams
	if cfg.Features == FeatureSpots {
		sg.stop = map[string]struct{}{}
		sg.stopH = map[uint64]struct{}{}
		for _, w := range textproc.Stopwords(tc.Language) {
			sg.stop[w] = struct{}{}
			sg.stopH[hashx.String64(w, cfg.Seed)] = struct{}{}
		}
	}
	return sg, nil
}

// stopword reports whether token t is an antecedent of FeatureSpots.
func (s *Signer) stopword(t *textproc.Token) bool {
	if n := s.an.VocabularySize(); n > len(s.isStop) {
		s.isStop = append(s.isStop, make([]int8, n-len(s.isStop))...)
	}
	if s.isStop[t.ID] == 0 {
		s.isStop[t.ID] = 2
		if _, ok := s.stop[t.Term]; ok {
			s.isStop[t.ID] = 1
		}
	}
	return s.isStop[t.ID] == 1
}

// Config returns the Signer's configuration with every default filled in.
func (s *Signer) Config() Config { return s.cfg }

// Sign returns the 64-bit fingerprint of text, and false when the text has
// no features (or all its features weigh 0): such a document gets no
// fingerprint and matches nothing, since every empty document would
// otherwise have fingerprint 0 (ALGORITHMS.md §4 pitfalls). Sign time is
// O(n + u·(64 + SkipTop)) for n tokens and u unique features, with no
// allocation in the steady state.
func (s *Signer) Sign(text string) (uint64, bool) {
	s.analyse(text)
	return s.sign()
}

// analyse fills the per-token inputs of collect for text. In lite mode it
// hashes each term as TermSpans and AppendTerm yield it, which is the token
// sequence of Analyzer.Tokens (TestLiteMatchesTokens), and leaves s.toks
// empty; otherwise s.toks holds the interned tokens.
func (s *Signer) analyse(text string) {
	spots := s.cfg.Features == FeatureSpots
	if s.lite {
		s.th, s.st, s.tidf = s.th[:0], s.st[:0], s.tidf[:0]
		s.toks = s.toks[:0]
		for sp := range s.an.Words(text) {
			var ok bool
			s.termBuf, ok = s.an.AppendTerm(s.termBuf[:0], text[sp.Start:sp.End])
			if !ok {
				continue
			}
			h := hashx.Bytes64(s.termBuf, s.cfg.Seed)
			s.th = append(s.th, h)
			if spots {
				_, stop := s.stopH[h]
				s.st = append(s.st, stop)
			}
		}
		return
	}
	s.toks = s.an.Tokens(text)
	s.prepare()
}

// prepare fills the per-token inputs of collect from s.toks (after the
// Detector has counted the document in its online IDF table).
func (s *Signer) prepare() {
	s.th, s.st, s.tidf = s.th[:0], s.st[:0], s.tidf[:0]
	s.grow()
	needIDF := s.cfg.usesIDF()
	for i := range s.toks {
		t := &s.toks[i]
		s.th = append(s.th, s.termHash(t))
		if s.cfg.Features == FeatureSpots {
			s.st = append(s.st, s.stopword(t))
		}
		if needIDF {
			s.tidf = append(s.tidf, s.termIDF(t))
		}
	}
}

func (s *Signer) grow() {
	n := s.an.VocabularySize()
	if n > len(s.tset) {
		s.thash = append(s.thash, make([]uint64, n-len(s.thash))...)
		s.tset = append(s.tset, make([]bool, n-len(s.tset))...)
		s.wcache = append(s.wcache, make([]float64, n-len(s.wcache))...)
		s.wset = append(s.wset, make([]bool, n-len(s.wset))...)
	}
}

// termHash returns the feature hash of token t, cached by term ID.
func (s *Signer) termHash(t *textproc.Token) uint64 {
	if !s.tset[t.ID] {
		s.thash[t.ID] = hashx.String64(t.Term, s.cfg.Seed)
		s.tset[t.ID] = true
	}
	return s.thash[t.ID]
}

// termIDF returns idf(t) from the table, cached by term ID when frozen.
func (s *Signer) termIDF(t *textproc.Token) float64 {
	if s.idf == nil {
		return 0
	}
	if !s.frozen {
		return s.idf.Weight(t.Term)
	}
	if !s.wset[t.ID] {
		s.wcache[t.ID] = s.idf.Weight(t.Term)
		s.wset[t.ID] = true
	}
	return s.wcache[t.ID]
}

// add counts one occurrence of feature h with idf w.
func (s *Signer) add(h uint64, w float64) {
	if 2*len(s.feats) >= len(s.slots) {
		s.rehash()
	}
	i := hashx.Mix64(h) & s.mask
	for {
		j := s.slots[i]
		if j < 0 {
			s.slots[i] = int32(len(s.feats))
			s.feats = append(s.feats, feat{h: h, idf: w, tf: 1})
			return
		}
		if s.feats[j].h == h {
			s.feats[j].tf++
			return
		}
		i = (i + 1) & s.mask
	}
}

func (s *Signer) rehash() {
	n := max(64, 4*len(s.feats))
	n = 1 << bits.Len(uint(n-1))
	if cap(s.slots) >= n {
		s.slots = s.slots[:n]
	} else {
		s.slots = make([]int32, n)
	}
	for i := range s.slots {
		s.slots[i] = -1
	}
	s.mask = uint64(n - 1)
	for j, f := range s.feats {
		i := hashx.Mix64(f.h) & s.mask
		for s.slots[i] >= 0 {
			i = (i + 1) & s.mask
		}
		s.slots[i] = int32(j)
	}
}

// collect fills s.feats with the unique features of the text analysed
// last: s.th, s.st and s.tidf, and s.toks for character n-grams.
func (s *Signer) collect() {
	s.feats = s.feats[:0]
	if len(s.slots) == 0 {
		s.rehash()
	} else if len(s.slots) > 64 && len(s.slots) > 8*len(s.th) {
		s.slots = s.slots[:0]
		s.rehash() // shrink after a huge document
	} else {
		for i := range s.slots {
			s.slots[i] = -1
		}
	}
	needIDF := s.cfg.usesIDF()
	th := s.th
	switch s.cfg.Features {
	case FeatureWords:
		for i, h := range th {
			w := 0.0
			if needIDF {
				w = s.tidf[i]
			}
			s.add(h, w)
		}
	case FeatureWordNGrams:
		n := s.cfg.N
		if len(th) > 0 && len(th) < n {
			n = len(th) // a short text is one n-gram of all its words
		}
		for i := 0; i+n <= len(th); i++ {
			h, w := uint64(n), 0.0
			for j := i; j < i+n; j++ {
				h = hashx.Combine(h, th[j])
				if needIDF {
					w += s.tidf[j]
				}
			}
			s.add(h, w/float64(n))
		}
	case FeatureSpots:
		// For each antecedent at i, the chain of the next N non-stopwords
		// (spot distance 1); a chain cut short by the end is dropped.
		n := s.cfg.N
		for i := range th {
			if !s.st[i] {
				continue
			}
			h, w, got := uint64(n)+0x5b07, 0.0, 0
			for k := i + 1; k < len(th) && got < n; k++ {
				if s.st[k] {
					continue
				}
				h = hashx.Combine(h, th[k])
				if needIDF {
					w += s.tidf[k]
				}
				got++
			}
			if got == n {
				s.add(h, w/float64(n))
			}
		}
	case FeatureCharNGrams:
		toks := s.toks
		s.chars, s.owner = s.chars[:0], s.owner[:0]
		for i := range toks {
			if i > 0 {
				s.chars = append(s.chars, ' ')
				s.owner = append(s.owner, int32(i))
			}
			s.chars = append(s.chars, toks[i].Term...)
			for range len(toks[i].Term) {
				s.owner = append(s.owner, int32(i))
			}
		}
		// Slide a window of N runes.
		end, runes := 0, 0
		for end < len(s.chars) && runes < s.cfg.N {
			_, w := utf8.DecodeRune(s.chars[end:])
			end += w
			runes++
		}
		for start := 0; start < len(s.chars); {
			w := 0.0
			if needIDF {
				w = s.termIDF(&toks[s.owner[start]])
			}
			s.add(hashx.Bytes64(s.chars[start:end], s.cfg.Seed), w)
			if end == len(s.chars) {
				break
			}
			_, a := utf8.DecodeRune(s.chars[start:])
			_, b := utf8.DecodeRune(s.chars[end:])
			start += a
			end += b
		}
	}
}

// better orders features by idf, highest first, ties by ascending hash.
func better(a, b feat) bool { return a.idf > b.idf || a.idf == b.idf && a.h < b.h }

// chooseSkip marks the SkipTop features of highest idf in s.skip ("First two
// words with the highest idf values are ignored", Varol 2012 §4.1.4).
func (s *Signer) chooseSkip() {
	s.skip = s.skip[:0]
	limit := s.cfg.skip()
	for j := range s.feats {
		f := s.feats[j]
		if len(s.skip) == limit && (limit == 0 || !better(f, s.feats[s.skip[limit-1]])) {
			continue
		}
		k := len(s.skip)
		if k < limit {
			s.skip = append(s.skip, int32(j))
		} else {
			k--
		}
		for k > 0 && better(f, s.feats[s.skip[k-1]]) {
			s.skip[k] = s.skip[k-1]
			k--
		}
		s.skip[k] = int32(j)
	}
	for _, j := range s.skip {
		s.feats[j].tf = 0 // dropped
	}
}

func (s *Signer) sign() (uint64, bool) {
	if s.idf != nil {
		s.frozen = s.idf.Frozen()
	}
	s.collect()
	s.chooseSkip()
	switch s.cfg.Weights {
	case WeightUnit, WeightTF:
		return s.signInt()
	}
	var v [64]float64
	any := false
	for _, f := range s.feats {
		if f.tf == 0 {
			continue
		}
		w := f.idf
		if s.cfg.Weights == WeightTFIDF {
			w *= float64(f.tf)
		}
		if w == 0 {
			continue
		}
		any = true
		h := f.h
		for b := 0; b < 64; b += 8 {
			sg := &signs[byte(h>>b)]
			vv := (*[8]float64)(v[b : b+8])
			vv[0] += w * sg[0]
			vv[1] += w * sg[1]
			vv[2] += w * sg[2]
			vv[3] += w * sg[3]
			vv[4] += w * sg[4]
			vv[5] += w * sg[5]
			vv[6] += w * sg[6]
			vv[7] += w * sg[7]
		}
	}
	if !any {
		return 0, false
	}
	var fp uint64
	for i := range 64 {
		if v[i] > 0 {
			fp |= 1 << i
		}
	}
	return fp, true
}

// signInt is the integer path of WeightUnit and WeightTF: the counts c_i of
// set bit i are accumulated eight lanes at a time, and V_i = 2c_i − total.
func (s *Signer) signInt() (uint64, bool) {
	var acc [8]uint64
	var cnt [64]int64
	var total int64
	inLanes := 0 // the most any byte lane of acc may hold
	flush := func() {
		for j := range 8 {
			a := acc[j]
			for k := range 8 {
				cnt[8*j+k] += int64(a >> (8 * k) & 0xff)
			}
			acc[j] = 0
		}
		inLanes = 0
	}
	for _, f := range s.feats {
		if f.tf == 0 {
			continue
		}
		w := 1
		if s.cfg.Weights == WeightTF {
			w = int(f.tf)
		}
		total += int64(w)
		for w > 0 {
			c := min(w, 255)
			if inLanes+c > 255 {
				flush()
			}
			h := f.h
			m := uint64(c)
			acc[0] += spread[byte(h)] * m
			acc[1] += spread[byte(h>>8)] * m
			acc[2] += spread[byte(h>>16)] * m
			acc[3] += spread[byte(h>>24)] * m
			acc[4] += spread[byte(h>>32)] * m
			acc[5] += spread[byte(h>>40)] * m
			acc[6] += spread[byte(h>>48)] * m
			acc[7] += spread[byte(h>>56)] * m
			inLanes += c
			w -= c
		}
	}
	if total == 0 {
		return 0, false
	}
	flush()
	var fp uint64
	for i := range 64 {
		if 2*cnt[i] > total {
			fp |= 1 << i
		}
	}
	return fp, true
}
