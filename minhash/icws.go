package minhash

import (
	"fmt"
	"math"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
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
// must be distinct, and as many as the weights (ICWS panics otherwise). If
// no element is present, dst is returned unchanged.
//
// The randomness of (sample i, element k) depends only on seed, i and k
// (§4.3: "For each phrase ρ, we seed the generator with ρ").
//
// ICWS is O(k·n) for n elements, with three logarithms per (sample,
// element). It allocates only to grow dst.
func ICWS(dst []uint32, keys []uint64, weights []float64, k int, seed uint64) []uint32 {
	sameLengths("ICWS", keys, weights)
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
	return uint32(hashtab.Mix64(b.key^hashtab.Mix64(uint64(b.t)+0x9e3779b97f4a7c15)) & valueMask)
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
	ks := hashtab.Mix64(key ^ seed)
	for i := range best {
		// Five uniforms from three 64-bit hashes: u1, u2 from the halves
		// of the first, v1, v2 of the second, β from the third.
		x := hashtab.Mix64(ks + uint64(base+i)*0x9e3779b97f4a7c15)
		u1, u2 := unit32(uint32(x)), unit32(uint32(x>>32))
		x = hashtab.Mix64(x ^ 0xa0761d6478bd642f)
		v1, v2 := unit32(uint32(x)), unit32(uint32(x>>32))
		beta := unit(hashtab.Mix64(x ^ 0xe7037ed1a0b428db))
		r := -math.Log(u1 * u2)
		t := math.Floor(lnW/r + beta)
		lnA := math.Log(-math.Log(v1*v2)) - r*(t-beta+1)
		if b := &best[i]; lnA < b.lnA || lnA == b.lnA && key < b.key {
			*b = icwsBest{lnA: lnA, key: key, t: int64(t)}
		}
	}
}

// sameLengths panics, naming the sampler, unless there is one weight per
// key.
func sameLengths(sampler string, keys []uint64, weights []float64) {
	if len(keys) != len(weights) {
		panic(fmt.Sprintf("minhash: %s of %d keys and %d weights", sampler, len(keys), len(weights)))
	}
}
