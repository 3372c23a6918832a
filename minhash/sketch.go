package minhash

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/zeebo/xxh3"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Sketcher computes the signature of one text at a time: the pure,
// index-free part of the detector, for a
// worker that signs documents without holding a collection.
//
// Text is split into words and lower-cased as textproc.Analyzer does with
// the configured language, without stopword removal or stemming. Each term
// is hashed with xxh3 (seed 0) and a w-word shingle hashes as
// hashtab.Combine(…hashtab.Combine(hashtab.Combine(0, h1), h2)…, hw), the shingle
// hash of internal/naive, so exact reference Jaccard and the signatures see
// the same sets. A text of fewer than w words (but at least one) has one
// shingle of all its words; a text with no words has none.
//
// A Sketcher is not safe for concurrent use: it reuses its buffers. Use one
// per goroutine; signatures made by Sketchers of equal Config compare.
type Sketcher struct {
	cfg Config
	an  *textproc.Analyzer

	seedMix  uint64   // OnePermutation: the seed's hash permutation
	densSeed uint64   // OnePermutation: densification probe seed
	probes   []uint16 // OnePermutation: the first probes of every bin
	filled   []uint64 // OnePermutation: bins an element fell into
	seeds    []uint64 // KHash: one seed per hash function

	part  []uint64 // shingles: the hash chains of the last 1..Shingle terms
	sh    []uint64 // shingle hashes of the current text
	terms []uint64 // Weighted: term hashes of the current text
	bins  []uint32
	set   uset
	lw    []float64
	keys  []uint64 // Weighted: distinct phrases
	out   []uint32 // Detector: signature scratch
	pre   keys     // Detector: the keys of the signature in out, for the commit
	darts dartScratch

	kfirst []int32  // Weighted: position in dterms of the first term of each of keys
	dterms []uint64 // Weighted: distinct terms
	tpos   []int32  // Weighted: position in dterms of each of terms
	tdf    []int64  // Weighted: df of each of dterms, when weighing
	phrDF  []int64  // Weighted: df of each of keys
	cut, n int64    // Weighted: the rare-phrase cut and N of the weights

	counted []uint64 // Detector with online statistics: dterms, then keys, until counted
}

// shrinkCap is the capacity (elements) above which a Sketcher drops a
// scratch buffer after use: one outlier document must not keep its
// buffers, tens of megabytes for a 20 MB text, for the rest of the run.
const shrinkCap = 1 << 16

// shrink releases the scratch buffers an outlier grew beyond shrinkCap.
func (s *Sketcher) shrink() {
	drop := func(n int) bool { return n > shrinkCap }
	if drop(cap(s.sh)) || drop(cap(s.terms)) || drop(cap(s.keys)) ||
		drop(cap(s.kfirst)) || drop(cap(s.dterms)) || drop(cap(s.lw)) || drop(cap(s.phrDF)) ||
		drop(cap(s.set.tab)) || drop(cap(s.tpos)) || drop(cap(s.darts.elems)) {
		s.sh, s.terms, s.keys, s.kfirst, s.dterms = nil, nil, nil, nil, nil
		s.lw, s.phrDF, s.tpos, s.tdf = nil, nil, nil, nil
		s.set = uset{}
		s.darts.elems = nil
	}
}

// NewSketcher returns a Sketcher for cfg, validated as [New] does.
func NewSketcher(cfg Config) (*Sketcher, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return newSketcher(cfg), nil
}

func newSketcher(cfg Config) *Sketcher {
	tag, _ := textproc.ParseLanguage(cfg.Language)                                      // validated by withDefaults
	an, _ := textproc.NewAnalyzer(textproc.Config{Language: tag, Content: cfg.Content}) // never fails for a zero Stemmer and a valid Content
	s := &Sketcher{cfg: cfg, an: an, part: make([]uint64, cfg.Shingle), bins: make([]uint32, cfg.NumHashes)}
	// Hash-family seeds come from Config.Seed through PCG (STYLE rule 15).
	r := rand.New(rand.NewPCG(cfg.Seed, 0x6d696e68617368)) // "minhash"
	s.seedMix = r.Uint64()
	s.densSeed = r.Uint64()
	if cfg.Scheme == OnePermutation {
		k := cfg.NumHashes
		s.probes = make([]uint16, k*precomputedProbes)
		s.filled = make([]uint64, (k+63)/64)
		for j := range k {
			for a := range precomputedProbes {
				s.probes[j*precomputedProbes+a] = uint16(s.probe(uint64(j), uint64(a+1)))
			}
		}
	}
	if cfg.Scheme == KHash {
		s.seeds = make([]uint64, cfg.NumHashes)
		for i := range s.seeds {
			s.seeds[i] = r.Uint64()
		}
	}
	return s
}

// Config returns the Sketcher's configuration with defaults filled in.
func (s *Sketcher) Config() Config { return s.cfg }

// shingles fills s.sh (and, when terms, s.terms) with the shingle hashes
// of text, in text order, repeats included; shingle i begins with term i.
//
// The hash of the shingle of terms t1..tw is hashtab.Combine chained from 0
// over t1..tw. Rather than chain w combines once the w-th term arrives, the
// loop keeps the chains of the last 1..w terms (part[k-1] over the last k)
// and extends each by the new term: the same w combines per term and the
// same values, but no combine waits for another of the same term, so they
// overlap instead of forming a chain of w multiply-xorshift rounds.
func (s *Sketcher) shingles(text string, terms bool) {
	w := s.cfg.Shingle
	s.sh, s.terms = s.sh[:0], s.terms[:0]
	part := s.part // len w, made by newSketcher
	n := 0
	// The analysed terms of the spans of Words, without interning.
	for _, term := range s.an.Terms(text) {
		h := xxh3.Hash(term)
		n++
		if terms {
			s.terms = append(s.terms, h)
		}
		for k := min(n, w) - 1; k > 0; k-- {
			part[k] = hashtab.Combine(part[k-1], h)
		}
		part[0] = hashtab.Combine(0, h)
		if n >= w {
			s.sh = append(s.sh, part[w-1])
		}
	}
	if n > 0 && n < w {
		// A short text is one shingle of all its words.
		s.sh = append(s.sh, part[n-1])
	}
	s.part = part
}

// Shingles appends the distinct shingle hashes of text to dst, sorted, and
// returns the extended slice: the exact set the signatures sample from.
func (s *Sketcher) Shingles(dst []uint64, text string) []uint64 {
	s.shingles(text, false)
	start := len(dst)
	dst = append(dst, s.sh...)
	slices.Sort(dst[start:])
	return append(dst[:start], slices.Compact(dst[start:])...)
}

// Signature returns the signature of text in a new slice, and the number of
// distinct shingles (the set size that containment estimates need). A text
// with no words has a nil signature and size 0: it matches nothing.
// In Weighted mode it returns uniform-weight samples drawn by
// Config.Sampler; use [Sketcher.AppendWeightedSignature] for Alonso et al.
// 2013 weights.
func (s *Sketcher) Signature(text string) (sig []uint32, size int) {
	return s.AppendSignature(nil, text)
}

// AppendSignature appends the signature of text (NumHashes values) to dst
// and returns it with the number of distinct shingles; for a text with no
// words it returns dst unchanged and 0. Once its buffers have grown it does
// not allocate when dst has room.
//
// AppendSignature is O(n) in the length of the text for OnePermutation
// (one hash and one comparison per shingle, then O(K) densification) and
// O(n·K) for KHash.
func (s *Sketcher) AppendSignature(dst []uint32, text string) ([]uint32, int) {
	if s.cfg.Mode == Weighted {
		return s.AppendWeightedSignature(dst, text, nil)
	}
	s.shingles(text, false)
	if len(s.sh) == 0 {
		return dst, 0
	}
	size := s.set.distinct(s.sh)
	return s.sign(dst, s.sh), size
}

// AppendHashSignature appends the signature of a set given by 64-bit
// hashes of its elements (repeats allowed, any order) to dst, with the
// number of distinct hashes, by the Sketcher's Scheme; for no hashes it
// returns dst unchanged and 0. It is how a caller with its own features
// (character shingles, tokens of another tokenizer, URLs) signs them: the
// values are mixed with the seed before use, so any distinct values serve,
// but their signatures compare only with signatures made the same way
// (a text's shingle hashes are [Sketcher.Shingles]). Mode is ignored: the
// signature is unweighted. It does not allocate once the Sketcher's
// buffers have grown and dst has room.
func (s *Sketcher) AppendHashSignature(dst []uint32, hashes []uint64) ([]uint32, int) {
	if len(hashes) == 0 {
		return dst, 0
	}
	return s.sign(dst, hashes), s.set.distinctAny(hashes)
}

// sign appends the K-value signature of the shingle hashes sh.
func (s *Sketcher) sign(dst []uint32, sh []uint64) []uint32 {
	k := len(s.bins)
	for i := range s.bins {
		s.bins[i] = emptyBin
	}
	bins := s.bins
	if s.cfg.Scheme == KHash {
		// Classic MinHash: value i is min over shingles of h_i(x), with
		// h_i(x) = Mix64(x ⊕ seed_i) (Broder 1997).
		for _, x := range sh {
			for i, sd := range s.seeds {
				if v := uint32(hashtab.Mix64(x^sd)) & valueMask; v < bins[i] {
					bins[i] = v
				}
			}
		}
	} else {
		// One-permutation hashing (Li, Owen, Zhang 2012): one permutation
		// v = Mix64(x ⊕ seed) splits into a bin (high 32 bits, by
		// multiply-shift range reduction) and a value (the low 31 bits:
		// the top bit of a value marks a bin filled by densification, see
		// [Similarity]); each bin keeps its minimum.
		for _, x := range sh {
			v := hashtab.Mix64(x ^ s.seedMix)
			b := (v >> 32) * uint64(k) >> 32
			if lo := uint32(v) & valueMask; lo < bins[b] {
				bins[b] = lo
			}
		}
		s.densify()
	}
	return append(dst, bins...)
}

// densify fills every empty bin by optimal densification (Shrivastava,
// ICML 2017, Alg. 2): empty bin j probes bins h_j(1), h_j(2), … by a hash
// of (j, attempt) that is the same for every document, and copies the
// first non-empty bin's value with the top bit set (densifiedBit). Two
// documents whose bin j is empty in both copy from the same source as long
// as that source is non-empty in both, which keeps
// Pr[value_j(A) = value_j(B)] = J(A, B) (Theorem 3.1 there) for banding;
// the mark lets [Similarity] leave such bins out of its estimate.
func (s *Sketcher) densify() {
	bins := s.bins
	// filled: bit j set when bin j received an element. Densified bins are
	// never sources, so the mask is fixed before any bin is filled.
	filled := s.filled
	clear(filled)
	for j, v := range bins {
		filled[j>>6] |= uint64(^v>>31&1) << (j & 63) // empty: all ones
	}
	has := func(b uint16) uint8 { return uint8(filled[b>>6] >> (b & 63) & 1) }
	for w, word := range filled {
		missing := ^word
		if rest := len(bins) - w*64; rest < 64 {
			missing &= 1<<rest - 1
		}
		for ; missing != 0; missing &= missing - 1 {
			j := w*64 + bits.TrailingZeros64(missing)
			// The first of the tabled probes that hits, found without a
			// branch per probe (which hits is unpredictable).
			p := s.probes[j*precomputedProbes : (j+1)*precomputedProbes : (j+1)*precomputedProbes]
			hit := has(p[0]) | has(p[1])<<1 | has(p[2])<<2 | has(p[3])<<3 |
				has(p[4])<<4 | has(p[5])<<5 | has(p[6])<<6 | has(p[7])<<7
			if hit != 0 {
				bins[j] = bins[p[bits.TrailingZeros8(hit)]] | densifiedBit
				continue
			}
			bins[j] = bins[s.probeBeyond(uint64(j))] | densifiedBit
		}
	}
}

// probeBeyond continues the probe sequence of empty bin j past the tabled
// probes and returns the first source bin; s.filled holds the sources.
func (s *Sketcher) probeBeyond(j uint64) uint64 {
	k := uint64(len(s.bins))
	has := func(b uint64) bool { return s.filled[b>>6]>>(b&63)&1 != 0 }
	for attempt := uint64(precomputedProbes + 1); attempt <= 64*k; attempt++ {
		if src := s.probe(j, attempt); has(src) {
			return src
		}
	}
	// Unreachable in practice: every probe missed. Fall back to the next
	// non-empty bin in cyclic order (deterministic).
	for d := uint64(1); d < k; d++ {
		if src := (j + d) % k; has(src) {
			return src
		}
	}
	return j // no bin is filled: sign is never called so
}

// valueMask keeps the 31 bits of a signature value; densifiedBit marks a
// one-permutation bin that no element fell into; emptyBin is such a bin
// before densification (above every value, so any value replaces it).
const (
	valueMask    = 1<<31 - 1
	densifiedBit = 1 << 31
	emptyBin     = math.MaxUint32
)

// precomputedProbes is how many probes per bin are tabled at NewSketcher;
// densify tests the eight at once (the uint8 hit mask).
const precomputedProbes = 8

// probe returns the bin that empty bin j probes at attempt ≥ 1: a
// well-mixed hash of (j, attempt), the same for every document
// (multiply-shift alone correlates the sequences and doubles the error on
// small sets: measured in TestOnePermutationMatchesKHash).
func (s *Sketcher) probe(j, attempt uint64) uint64 {
	c := hashtab.Mix64(s.densSeed ^ j<<32 ^ attempt)
	return (c >> 32) * uint64(len(s.bins)) >> 32
}

// uset is a reusable open-addressing set of 64-bit hashes (zero stored
// out of band), used to count distinct shingles without allocating, and,
// through index, a map from them to numbers. It stays beside hashtab.Map
// because it costs less CPU per Add than a Map reset per document
// (docs/notes/engine.md).
type uset struct {
	tab     []uint64
	vals    []int64 // parallel to tab, grown by index
	hasZero bool
	zeroVal int64
	n       int
}

func (u *uset) reset(n int) {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	if cap(u.tab) < size {
		u.tab = make([]uint64, size)
	} else {
		u.tab = u.tab[:size]
		clear(u.tab)
	}
	u.hasZero, u.n = false, 0
}

// add inserts x and reports whether it was new.
func (u *uset) add(x uint64) bool {
	if x == 0 {
		if u.hasZero {
			return false
		}
		u.hasZero = true
		u.n++
		return true
	}
	mask := uint64(len(u.tab) - 1)
	// Shingle hashes are already mixed: their low bits index the table.
	for i := x & mask; ; i = (i + 1) & mask {
		switch u.tab[i] {
		case x:
			return false
		case 0:
			u.tab[i] = x
			u.n++
			return true
		}
	}
}

// index returns the value of x, first putting next when x is absent, and
// whether x was absent.
func (u *uset) index(x uint64, next int64) (int64, bool) {
	if x == 0 {
		if !u.hasZero {
			u.hasZero, u.zeroVal = true, next
			u.n++
			return next, true
		}
		return u.zeroVal, false
	}
	if len(u.vals) < len(u.tab) {
		u.vals = make([]int64, len(u.tab))
	}
	mask := uint64(len(u.tab) - 1)
	for i := x & mask; ; i = (i + 1) & mask {
		switch u.tab[i] {
		case x:
			return u.vals[i], false
		case 0:
			u.tab[i], u.vals[i] = x, next
			u.n++
			return next, true
		}
	}
}

// distinct returns the number of distinct values of xs, shingle hashes,
// which are mixed already.
func (u *uset) distinct(xs []uint64) int {
	u.reset(len(xs))
	for _, x := range xs {
		u.add(x)
	}
	return u.n
}

// distinctAny is distinct for a caller's values, which may share their low
// bits (IDs shifted left, say) and would then probe from one slot: each is
// counted as hashtab.Mix64 of it, a bijection, so the count is the same.
func (u *uset) distinctAny(xs []uint64) int {
	u.reset(len(xs))
	for _, x := range xs {
		u.add(hashtab.Mix64(x))
	}
	return u.n
}
