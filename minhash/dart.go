package minhash

import (
	"math"

	"github.com/seed-9ef9c1df/neardup/internal/hashx"
)

// DartMinHash appends k weighted MinHash samples of the weighted set
// {keys[i] ↦ weights[i]} to dst by dart throwing, the sampler of
// Christiani (DartMinHash: Fast Sketching for Weighted Sets, 2020, §3),
// and returns the extended slice. Elements whose weight is not a positive
// finite number are absent; keys must be distinct. If no element is
// present, dst is returned unchanged.
//
// Like [ICWS], sample i of two sets S and T agrees with probability the
// weighted Jaccard Σ min(S_k, T_k) / Σ max(S_k, T_k) (up to 32-bit hash
// collisions and a truncation whose effect is below 10⁻⁸ per element), and
// the k samples are independent, so [Similarity] estimates the weighted
// Jaccard without bias and with the variance of ICWS (TestDartMatchesICWS
// measures both side by side). Its samples are not ICWS samples: the two
// never compare.
//
// DartMinHash is O(n·log(range) + k log k) for n elements, where range is
// about the ratio of an element's weight share to 10⁻⁹: one hash per
// element and dyadic weight level, and about k(ln k + 2) darts of two
// hashes and one logarithm each, against ICWS's k hashes and logarithms
// per element. It allocates its scratch and the growth of dst.
func DartMinHash(dst []uint32, keys []uint64, weights []float64, k int, seed uint64) []uint32 {
	if k < 1 {
		return dst
	}
	lw := make([]float64, len(keys))
	for i := range keys {
		w := weights[i]
		if !(w > 0) || math.IsInf(w, 0) {
			lw[i] = math.Inf(-1)
		} else {
			lw[i] = math.Log(w)
		}
	}
	var ds dartScratch
	return ds.sample(dst, keys, lw, k, seed)
}

// dartScratch holds the buffers of one dart-throwing signature; a
// Sketcher keeps one.
type dartScratch struct {
	elems []dartElem
	best  []dartSlot
}

// dartElem is a present element: its key, the dyadic column top that
// holds its weight x (2^top < x ≤ 2^(top+1)), the share frac = x/2^top − 1
// of that column under the weight, and ln x relative to the largest.
type dartElem struct {
	key  uint64
	top  int
	frac float64
	rel  float64 // ln x − ln x_max ≤ 0
}

// dartSlot is the lowest dart of a sample slot so far: its rank (relative
// to θ), element, column and index in the column.
type dartSlot struct {
	rank float64
	key  uint64
	col  int32
	j    uint32
}

// Constants of the dart sampler.
const (
	// dartMinArea is where the descent through an element's dyadic
	// columns stops: every lower column together holds fewer than
	// dartMinArea darts of rank below θ in expectation, so leaving them
	// out changes a sample with probability below that (per element).
	dartMinArea = 1.0 / (1 << 30)
	// dartExtra sets the expected darts of the first round, k(ln k +
	// dartExtra): a slot stays empty with probability e^(−dartExtra)/…
	// per slot·k, about 0.135 for the whole signature, and an empty slot
	// doubles θ and throws again (Christiani 2020 §3 uses the same budget).
	dartExtra = 2
	// dartMaxRounds bounds the doublings of θ; after 20 an empty slot has
	// probability below exp(−2^20), so the bound is never reached.
	dartMaxRounds = 20
	// maxLnWeight bounds |ln w| so that column numbers fit an int32:
	// weights beyond e^±100000 count as e^±100000.
	maxLnWeight = 1e5
	dartColMix  = 0x9e3779b97f4a7c15
	dartNextMix = 0xd1b54a32d192ed03
	dartSlotMix = 0xa0761d6478bd642f
)

// sample appends the k dart samples of the elements of log-weight lw
// (−Inf or NaN = absent).
//
// The darts of an element form a Poisson process of rate 1 on
// (weight, rank) ∈ (0, ∞) × [0, ∞) fixed by (seed, key) alone, cut into
// the dyadic weight columns (2^c, 2^(c+1)]. Within column c the darts
// arrive in rank order at rank E/2^c, E the running sum of Exp(1)
// variables drawn from a hash of (seed, key, c, index), each at a
// weight uniform in the column and in a slot uniform in [0, k). An
// element of weight x owns the darts of weight ≤ x; slot i keeps the
// owned dart of least rank. For two sets the least dart of slot i under
// their union (the area Σ max) lies under both (Σ min) with probability
// Σmin/Σmax, and then both keep it: the weighted Jaccard. Only ranks
// below θ are generated, θ chosen so that k(ln k + 2) darts fall below it
// in expectation; if a slot gets none, θ doubles and the throw repeats.
func (ds *dartScratch) sample(dst []uint32, keys []uint64, lw []float64, k int, seed uint64) []uint32 {
	ds.elems = ds.elems[:0]
	maxLW := math.Inf(-1)
	for i, key := range keys {
		w := lw[i]
		if math.IsNaN(w) || math.IsInf(w, 0) {
			continue
		}
		w = min(max(w, -maxLnWeight), maxLnWeight)
		maxLW = max(maxLW, w)
		// 2^top < x ≤ 2^(top+1): top = ⌈log2 x⌉ − 1.
		top := int(math.Ceil(w/math.Ln2)) - 1
		frac := math.Exp(w-float64(top)*math.Ln2) - 1
		if frac > 1 { // rounding at a power of two
			top++
			frac = math.Exp(w-float64(top)*math.Ln2) - 1
		}
		ds.elems = append(ds.elems, dartElem{key: key, top: top, frac: min(max(frac, 0), 1), rel: w})
	}
	if len(ds.elems) == 0 {
		return dst
	}
	// ln Σx, shifted by the largest weight so that no weight overflows.
	var sum float64
	for i := range ds.elems {
		e := &ds.elems[i]
		e.rel -= maxLW
		sum += math.Exp(e.rel)
	}
	lnTotal := maxLW + math.Log(sum)
	budget := float64(k) * (math.Log(float64(k)) + dartExtra)
	lnTheta := math.Log(budget) - lnTotal
	if cap(ds.best) < k {
		ds.best = make([]dartSlot, k)
	}
	best := ds.best[:k]
	for round := 0; ; round++ {
		for i := range best {
			best[i] = dartSlot{rank: math.Inf(1)}
		}
		for _, e := range ds.elems {
			throwDarts(best, e, lnTheta, seed)
		}
		full := true
		for i := range best {
			if math.IsInf(best[i].rank, 1) {
				full = false
				break
			}
		}
		if full || round == dartMaxRounds {
			break
		}
		lnTheta += math.Ln2
	}
	for _, b := range best {
		dst = append(dst, b.value())
	}
	return dst
}

// value hashes the dart (element, column, index) to 31 bits (the top bit of
// a signature value is reserved, see [Similarity]); an empty slot, which
// dartMaxRounds makes unreachable, is 0.
func (b dartSlot) value() uint32 {
	if math.IsInf(b.rank, 1) {
		return 0
	}
	id := uint64(uint32(b.col))<<32 | uint64(b.j)
	return uint32(hashx.Mix64(b.key^hashx.Mix64(id+dartSlotMix)) & valueMask)
}

// throwDarts updates the slots with the darts of element e of rank below
// θ = exp(lnTheta), descending its columns from the one that holds its
// weight until the columns below hold fewer than dartMinArea darts under θ.
// Ranks are kept relative to θ (in [0, 1)), so that no weight range
// overflows.
func throwDarts(best []dartSlot, e dartElem, lnTheta float64, seed uint64) {
	k := uint64(len(best))
	ks := hashx.Mix64(e.key ^ seed)
	// a = θ·2^c: the expected darts of column c below θ (its width is 2^c).
	a := math.Exp(lnTheta + float64(e.top)*math.Ln2)
	for c := e.top; a >= dartMinArea; c, a = c-1, a*0.5 {
		h := hashx.Mix64(ks + uint64(int64(c))*dartColMix)
		v := unit(h)
		// The first arrival E = −ln(1−v) is below a iff v < 1 − e^(−a);
		// 1 − e^(−a) ≤ a, so v ≥ a rules the column out with one
		// comparison.
		if v >= a {
			continue
		}
		ex := -math.Log1p(-v)
		x := h
		for j := uint32(0); ex < a; j++ {
			g := hashx.Mix64(x ^ dartSlotMix)
			// The high 32 bits choose the slot, the low 32 bits the
			// dart's place in the column's weight range; below the top
			// column every place is under the weight.
			if c < e.top || unit32(uint32(g)) <= e.frac {
				rank := ex / a
				if b := &best[(g>>32)*k>>32]; rank < b.rank || rank == b.rank && e.key < b.key {
					*b = dartSlot{rank: rank, key: e.key, col: int32(c), j: j}
				}
			}
			x = hashx.Mix64(x + dartNextMix)
			ex -= math.Log(unit(x))
		}
	}
}
