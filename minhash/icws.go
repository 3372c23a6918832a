package minhash

import (
	"math"
	"sync"

	"github.com/seed-9ef9c1df/neardup/internal/hashx"
)

// unit maps a 64-bit hash to a uniform float64 in the open interval (0, 1)
// (never 0, so ln never sees 0).
func unit(x uint64) float64 {
	return (float64(x>>11) + 0.5) / (1 << 53)
}

// unit32 maps 32 random bits to a uniform float64 in (0, 1).
func unit32(x uint32) float64 {
	return (float64(x) + 0.5) / (1 << 32)
}

// ICWS appends k consistent weighted samples of the weighted set
// {keys[i] ↦ weights[i]} to dst (Ioffe, ICDM 2010, as restated in Alonso
// et al. 2013 §4.3). Elements whose weight is not a positive finite
// number are absent. Each sample is the pair (k*, t*) hashed to 32 bits;
// for two sets S and T, sample i agrees with probability the weighted
// Jaccard Σ min(S_k, T_k) / Σ max(S_k, T_k) (up to 32-bit hash collisions),
// so [Similarity] of two ICWS signatures estimates it without bias. Keys
// must be distinct. If no element is present, dst is returned unchanged.
//
// The randomness of (sample i, element k) depends only on seed, i and k
// (§4.3: "For each phrase ρ, we seed the generator with ρ").
//
// ICWS is O(k·n) for n elements, with three logarithms per (sample,
// element). It allocates only to grow dst.
func ICWS(dst []uint32, keys []uint64, weights []float64, k int, seed uint64) []uint32 {
	return icws(dst, keys, k, seed, func(e int) (float64, bool) {
		w := weights[e]
		if !(w > 0) || math.IsInf(w, 0) {
			return 0, false
		}
		return math.Log(w), true
	})
}

// icws appends k ICWS samples of the elements e whose log-weight lnW(e)
// reports true, or nothing when there is none.
func icws(dst []uint32, keys []uint64, k int, seed uint64, lnW func(e int) (float64, bool)) []uint32 {
	var best [256]icwsBest
	start := len(dst)
	// Process samples in blocks of 256 to keep the running minima on the
	// stack.
	for base := 0; base < k; base += len(best) {
		m := min(len(best), k-base)
		for i := range m {
			best[i] = icwsBest{lnA: math.Inf(1)}
		}
		found := false
		for e, key := range keys {
			if lw, ok := lnW(e); ok {
				found = true
				icwsElement(best[:m], key, lw, base, seed)
			}
		}
		if !found {
			return dst[:start]
		}
		for i := range m {
			dst = append(dst, best[i].value())
		}
	}
	return dst
}

type icwsBest struct {
	lnA float64
	key uint64
	t   int64
}

// value hashes the sample (k*, t*) to 31 bits (the top bit of a signature
// value is reserved, see [Similarity]). t* is kept signed (weights
// below 1 give negative t*).
func (b icwsBest) value() uint32 {
	return uint32(hashx.Mix64(b.key^hashx.Mix64(uint64(b.t)+0x9e3779b97f4a7c15)) & valueMask)
}

// icwsElement updates the running minima of samples base.. with element
// key of log-weight lnW. Per sample i (Ioffe 2010):
//
//	r ~ Gamma(2,1) = −ln(u1·u2), c ~ Gamma(2,1) = −ln(v1·v2), β ~ U(0,1)
//	t = ⌊ln S / r + β⌋
//	ln a = ln c − r (t − β + 1)
//
// and the sample is the element of least a. Alonso et al. 2013 §4.3 write
// the same with their r' = e^r: t = ⌊β + log_r' w⌋, y = r'^(t−β),
// a = −ln(v1v2)/(r'y).
func icwsElement(best []icwsBest, key uint64, lnW float64, base int, seed uint64) {
	ks := hashx.Mix64(key ^ seed)
	for i := range best {
		// Five uniforms from three 64-bit hashes: u1, u2 from the halves
		// of the first, v1, v2 of the second, β from the third.
		x := hashx.Mix64(ks + uint64(base+i)*0x9e3779b97f4a7c15)
		u1, u2 := unit32(uint32(x)), unit32(uint32(x>>32))
		x = hashx.Mix64(x ^ 0xa0761d6478bd642f)
		v1, v2 := unit32(uint32(x)), unit32(uint32(x>>32))
		beta := unit(hashx.Mix64(x ^ 0xe7037ed1a0b428db))
		r := -math.Log(u1 * u2)
		t := math.Floor(lnW/r + beta)
		lnA := math.Log(-math.Log(v1*v2)) - r*(t-beta+1)
		if b := &best[i]; lnA < b.lnA || lnA == b.lnA && key < b.key {
			*b = icwsBest{lnA: lnA, key: key, t: int64(t)}
		}
	}
}

// Stats holds the document frequencies Alonso et al. 2013 weigh phrases by:
// the df of every term (for "the document frequency of the first term in the
// window") and of every phrase, and the number of documents N (§4.3). It is
// built from a reference collection with [Stats.AddDocument], or kept
// online by a Weighted-mode [Detector] that was given none.
//
// A Stats is safe for concurrent use by multiple goroutines.
type Stats struct {
	mu     sync.RWMutex
	sk     *Sketcher
	n      int64
	termDF map[uint64]int64
	phrDF  map[uint64]int64
	hist   []int64 // hist[d] = number of phrases with df d
	nphr   int64
}

// NewStats returns empty statistics for the tokenising and phrase length of
// cfg (its Language and Shingle, DefaultPhraseLen in Weighted mode).
func NewStats(cfg Config) (*Stats, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return newStats(cfg), nil
}

func newStats(cfg Config) *Stats {
	return &Stats{sk: newSketcher(cfg), termDF: map[uint64]int64{}, phrDF: map[uint64]int64{}}
}

// AddDocument counts the distinct terms and phrases of text once each.
func (st *Stats) AddDocument(text string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.sk.shingles(text, true)
	st.addShingled(st.sk)
}

// addShingled counts the terms and phrases sk.shingles last produced.
func (st *Stats) addShingled(sk *Sketcher) {
	st.n++
	sk.set.reset(len(sk.terms))
	for _, h := range sk.terms {
		if sk.set.add(h) {
			st.termDF[h]++
		}
	}
	sk.set.reset(len(sk.sh))
	for _, h := range sk.sh {
		if !sk.set.add(h) {
			continue
		}
		d := st.phrDF[h]
		st.phrDF[h] = d + 1
		if d > 0 {
			st.hist[d]--
		} else {
			st.nphr++
		}
		for int64(len(st.hist)) <= d+1 {
			st.hist = append(st.hist, 0)
		}
		st.hist[d+1]++
	}
}

// N returns the number of documents counted.
func (st *Stats) N() int64 {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.n
}

// rareCut returns the largest phrase df that is still rare.
func (st *Stats) rareCut(cfg Config) int64 {
	if cfg.RarePercent >= 100 {
		return math.MaxInt64
	}
	// A phrase shared by two documents is always rare (not in the paper): the
	// percentage rules are meant for large collections, and on a small one
	// they would zero the very phrases a duplicate pair shares.
	const minCut = 2
	if cfg.Rare == RareDocFraction {
		// §4.3: "occurs in at most n% of the documents".
		return max(minCut, int64(math.Floor(cfg.RarePercent/100*float64(st.n))))
	}
	// §4.5: the bottom n% of phrases by df; phrases tied at the cut are in.
	want := int64(math.Ceil(cfg.RarePercent / 100 * float64(st.nphr)))
	var cum int64
	for d, c := range st.hist {
		cum += c
		if cum >= want {
			return max(minCut, int64(d))
		}
	}
	return math.MaxInt64
}

// logWeight returns ln of the Alonso et al. 2013 weight of a phrase whose
// first term has df dfFirst and which itself has df dfPhrase, among n
// documents, or -Inf for weight 0. The combination is F(df_first) ·
// scale(df_phrase) · rare (§4.3; the §4.4 example "df⁴ … divided by the
// document frequency of the entire phrase" fixes that F applies to the
// first-term df alone). Frequencies below 1 (a text not in the statistics)
// count as 1.
func logWeight(cfg Config, dfFirst, dfPhrase, n, cut int64) float64 {
	dfFirst, dfPhrase, n = max(dfFirst, 1), max(dfPhrase, 1), max(n, 1)
	if dfPhrase > cut {
		return math.Inf(-1) // a common phrase weighs 0 (§4.5)
	}
	d := float64(dfFirst)
	var lw float64
	switch cfg.Weighting {
	case WeightUniform:
		lw = 0
	case WeightDF:
		lw = math.Log(d)
	case WeightLnDF:
		lw = math.Log(math.Log(d))
	case WeightLnDFPow:
		lw = cfg.Power * math.Log(math.Log(d))
	case WeightDFPow:
		lw = cfg.Power * math.Log(d)
	case WeightIDF:
		lw = math.Log(math.Log(float64(n) / d))
	}
	switch cfg.Scale {
	case ScaleInverse:
		lw -= math.Log(float64(dfPhrase))
	case ScaleLogIDF:
		lw += math.Log(math.Log1p(float64(n) / float64(dfPhrase)))
	}
	if math.IsNaN(lw) {
		return math.Inf(-1)
	}
	return lw
}

// AppendWeightedSignature appends the ICWS signature of the distinct
// phrases of text, weighted by the configured Alonso et al. 2013 weighting
// under stats, and returns it with the number of distinct phrases. A nil
// stats weighs every phrase 1 (ICWS of the plain set). Phrases of weight 0
// (common, or ln 1 = 0) are left out; a text none of whose phrases weigh
// anything has no signature (dst unchanged) but still its phrase count.
//
// It is O(n·K) for n phrases.
func (s *Sketcher) AppendWeightedSignature(dst []uint32, text string, stats *Stats) ([]uint32, int) {
	s.shingles(text, true)
	return s.weighted(dst, stats, false)
}

// weighted signs the phrases s.shingles produced; when count is true it
// first adds them to stats (caller holds no lock).
func (s *Sketcher) weighted(dst []uint32, stats *Stats, count bool) ([]uint32, int) {
	s.set.reset(len(s.sh))
	s.keys, s.lw = s.keys[:0], s.lw[:0]
	firsts := s.first[:0]
	for i, h := range s.sh {
		if s.set.add(h) {
			s.keys = append(s.keys, h)
			firsts = append(firsts, s.first[i])
		}
	}
	size := len(s.keys)
	if size == 0 {
		return dst, 0
	}
	if stats == nil {
		for range s.keys {
			s.lw = append(s.lw, 0)
		}
	} else {
		if count {
			stats.mu.Lock()
			stats.addShingled(s)
			stats.mu.Unlock()
		}
		stats.mu.RLock()
		cut := stats.rareCut(s.cfg)
		for i, h := range s.keys {
			s.lw = append(s.lw, logWeight(s.cfg, stats.termDF[firsts[i]], stats.phrDF[h], stats.n, cut))
		}
		stats.mu.RUnlock()
	}
	return s.icwsLog(dst, s.keys, s.lw), size
}

// icwsLog samples by the configured Sampler over log-weights (−Inf =
// absent), so that df⁴/dfp never overflows.
func (s *Sketcher) icwsLog(dst []uint32, keys []uint64, lw []float64) []uint32 {
	if s.cfg.Sampler == Darts {
		return s.darts.sample(dst, keys, lw, s.cfg.NumHashes, s.seedMix)
	}
	return icws(dst, keys, s.cfg.NumHashes, s.seedMix, func(e int) (float64, bool) {
		return lw[e], !math.IsInf(lw[e], -1) && !math.IsNaN(lw[e])
	})
}
