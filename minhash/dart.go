package minhash

import (
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// DartMinHash appends k weighted MinHash samples of the weighted set
// {keys[i] ↦ weights[i]} to dst by dart throwing, the sampler of
// Christiani (DartMinHash: Fast Sketching for Weighted Sets, 2020),
// and returns the extended slice. Elements whose weight is not a positive
// finite number are absent; keys must be distinct. If no element is
// present, dst is returned unchanged.
//
// Like [ICWS], sample i of two sets S and T agrees with probability the
// weighted Jaccard Σ min(S_k, T_k) / Σ max(S_k, T_k) (up to 32-bit hash
// collisions and a truncation whose effect is below 10⁻⁶ per element), and
// the k samples are independent, so [Similarity] estimates the weighted
// Jaccard without bias and with the variance of ICWS (TestDartMatchesICWS
// measures both side by side). Its samples are not ICWS samples: the two
// never compare.
//
// Why darts: Wu, Li, Chen, Gao and Zhang (A Review for Weighted MinHash
// Algorithms, IEEE TKDE 2020) trace the consistent weighted
// samplers from Ioffe's ICWS, whose every sample costs a pass over the
// elements, to the ones that draw all k samples in one pass. Ertl
// (BagMinHash — Minwise Hashing Algorithm for Weighted Sets, KDD 2018)
// does so with a Poisson process per element refined by interval
// splitting, stopping once no point can lower the largest of the k minima;
// Christiani's dart throwing reaches the same k independent samples more
// simply and measures faster than both on sparse sets (Christiani 2020),
// which phrase sets are. The layout of the darts here (dyadic weight
// columns cut into rank cells, see [throwDarts]) is this package's own,
// not the paper's.
//
// DartMinHash is O(n·log(range) + k log k) for n elements, where range is
// about the ratio of an element's weight share to 10⁻⁶: one hash per two
// dyadic weight levels of an element, and about k(ln k + 1) darts of one
// hash each (and one logarithm per weight level that holds any), against
// ICWS's k hashes and three logarithms per element. It allocates its
// scratch and the growth of dst, and panics unless there is one weight
// per key.
func DartMinHash(dst []uint32, keys []uint64, weights []float64, k int, seed uint64) []uint32 {
	sameLengths("DartMinHash", keys, weights)
	return sampleWeights(dst, keys, weights, k, seed, (*dartScratch).sample)
}

// sampleWeights runs sample, a sampler of dartScratch, on fresh scratch
// and the logarithms of weights; for k < 1 it returns dst as it is.
func sampleWeights(dst []uint32, keys []uint64, weights []float64, k int, seed uint64,
	sample func(*dartScratch, []uint32, []uint64, []float64, int, uint64) []uint32) []uint32 {
	if k < 1 {
		return dst
	}
	return sample(new(dartScratch), dst, keys, logWeights(weights), k, seed)
}

// logWeights returns the logarithm of each weight, and −Inf for a weight
// that is not a positive finite number (an absent element).
func logWeights(weights []float64) []float64 {
	lw := make([]float64, len(weights))
	for i, w := range weights {
		if !(w > 0) || math.IsInf(w, 0) {
			lw[i] = math.Inf(-1)
		} else {
			lw[i] = math.Log(w)
		}
	}
	return lw
}

// dartScratch holds the buffers of one dart-throwing signature; a
// Sketcher keeps one.
type dartScratch struct {
	elems  []dartElem
	best   []dartSlot
	packed []uint64 // PackedDarts: the slots
	thr    []uint64 // PackedDarts: the column thresholds of a round
}

// dartElem is a present element: its key, the dyadic column top that
// holds its weight x (2^top < x ≤ 2^(top+1)), ln x, and the share
// frac = x/2^top − 1 of that column under the weight.
type dartElem struct {
	key  uint64
	top  int
	lw   float64 // ln x
	frac float64 // computed when first needed; −1 before
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
	dartMinArea = 1.0 / (1 << 20)
	// dartExtra sets the expected darts of the first round, k(ln k +
	// dartExtra): a slot stays empty with probability e^(−dartExtra)/k,
	// some slot with about 1 − exp(−e^(−dartExtra)) = 0.31, and an empty
	// slot doubles θ and throws the darts between the old and the new θ.
	// Christiani 2020 takes k(ln k + 2) and throws again from 0; with
	// the second round costing one budget instead of two, 1 costs about
	// 12% fewer darts on average.
	dartExtra = 1
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
// the dyadic weight columns (2^c, 2^(c+1)], each cut along the rank into
// cells of dartCell darts in expectation (see [throwDarts]). Each dart
// lies at a uniform weight in its column and falls into a uniform slot in
// [0, k). An element of weight x owns the darts of weight ≤ x; slot i
// keeps the owned dart of least rank. For two sets the least dart of slot
// i under their union (the area Σ max) lies under both (Σ min) with
// probability Σmin/Σmax, and then both keep it: the weighted Jaccard
// (Christiani 2020). Only ranks below θ are generated, θ chosen so
// that k(ln k + 1) darts fall below it in expectation; if a slot gets
// none, θ doubles and the darts up to the new θ are thrown.
func (ds *dartScratch) sample(dst []uint32, keys []uint64, lw []float64, k int, seed uint64) []uint32 {
	lnTheta, maxTop, ok := ds.prepare(keys, lw, k, dartExtra)
	if !ok {
		return dst
	}
	if cap(ds.best) < k {
		ds.best = make([]dartSlot, k)
	}
	best := ds.best[:k]
	for i := range best {
		best[i] = dartSlot{rank: math.Inf(1)}
	}
	// Round r throws the darts of rank in [θ/2, θ) (all below θ in round
	// 0): a slot's least dart below θ/2 is already kept, so a doubling
	// costs one more budget of darts, not two.
	from := 0.0
	for round := 0; ; round++ {
		// θ·2^maxTop ≤ 2·budget·2^round: finite.
		aMax := math.Exp(lnTheta + float64(maxTop)*math.Ln2)
		thr := ds.thresholds(aMax, math.Inf(1))
		for i := range ds.elems {
			e := &ds.elems[i]
			if d := maxTop - e.top; d < len(thr)-1 {
				throwDarts(best, e, math.Ldexp(aMax, -d), from, seed, thr[d:])
			}
		}
		empty := slices.ContainsFunc(best, func(b dartSlot) bool { return math.IsInf(b.rank, 1) })
		if !empty || round == dartMaxRounds {
			break
		}
		lnTheta += math.Ln2
		from = 0.5
		for i := range best {
			best[i].rank *= 0.5 // ranks are relative to θ, which doubles
		}
	}
	for _, b := range best {
		dst = append(dst, b.value())
	}
	return dst
}

// value hashes the dart (element, column, cell, index) to 31 bits (the top
// bit of a signature value is reserved, see [Similarity]); an empty slot,
// which dartMaxRounds makes unreachable, is 0.
func (b dartSlot) value() uint32 {
	if math.IsInf(b.rank, 1) {
		return 0
	}
	id := uint64(uint32(b.col))<<32 | uint64(b.j)
	return uint32(hashtab.Mix64(b.key^hashtab.Mix64(id+dartSlotMix)) & valueMask)
}

// dartCell is the expected number of darts in one cell of a column: a
// cell's count is Poisson(dartCell) and its darts are uniform in it, which
// costs one hash per dart and no logarithm; 1 measured fastest (a smaller
// cell costs more count hashes, a larger one more darts past θ).
const dartCell = 1

// dartCellP is P(cell 0 holds a dart) = 1 − e^−dartCell, and dartCellP0
// is e^−dartCell.
var (
	dartCellP0 = math.Exp(-dartCell)
	dartCellP  = 1 - dartCellP0
)

// cellCounts draws the number of darts of a cell, N ~ Poisson(mean), from
// a 32-bit hash u of the cell by the inverse distribution function: cum[n]
// is P(N ≤ n)·2^32 (a count past the table counts as its length), and
// byTop the count of every u with that top byte, or 0xff where a threshold
// falls inside the byte's range and the thresholds must be compared: one
// table load for most cells, where a search costs a mispredicted branch
// per cell, as unpredictable as the count.
type cellCounts struct {
	cum   []uint64
	byTop [256]uint8
}

func newCellCounts(mean float64, n int) cellCounts {
	var c cellCounts
	p, cum := math.Exp(-mean), 0.0
	for i := range n {
		cum += p
		c.cum = append(c.cum, uint64(math.Min(cum, 1)*(1<<32)))
		p *= mean / float64(i+1)
	}
	for b := range c.byTop {
		lo, hi := uint64(b)<<24, uint64(b+1)<<24-1
		if n := c.search(lo); n == c.search(hi) {
			c.byTop[b] = uint8(n)
		} else {
			c.byTop[b] = 0xff
		}
	}
	return c
}

// search returns the least n with u < cum[n], or len(cum).
func (c *cellCounts) search(u uint64) int {
	n := 0
	for n < len(c.cum) && u >= c.cum[n] {
		n++
	}
	return n
}

// count returns search(u) for u < 2^32, by byTop where it can.
func (c *cellCounts) count(u uint64) int {
	if n := c.byTop[u>>24]; n != 0xff {
		return int(n)
	}
	return c.search(u)
}

// dartCounts draws the counts of the dart sampler's cells, 16 at most (a
// count above 15 has probability 10⁻¹³).
var dartCounts = newCellCounts(dartCell, 16)

// throwDarts updates the slots with the darts of element e of rank below
// θ, descending its columns from the one that holds its weight until the
// columns below hold fewer than dartMinArea darts under θ. a is θ·2^top,
// the expected darts of column top below θ (column c is 2^c wide, a
// halves per column). Ranks are measured in "expected darts of the
// column" (rank·2^c) while generating and kept relative to θ (in [0, 1))
// in the slots, so that no weight range overflows.
//
// Column c is cut along the rank into cells of dartCell darts: cell 0
// holds the arrivals of the column's process, E₁ = −ln(1−v), E₁ + E₂, …
// (v from one hash of (seed, key, c), the E Exp(1) from further hashes)
// while below dartCell, so that a column whose first arrival exceeds a is
// ruled out by one comparison; cell m ≥ 1 holds a Poisson(dartCell)
// number of darts, each at a uniform rank in [m, m+1)·dartCell. Both
// are Poisson processes of rate 1, fixed by (seed, key, c) whatever θ and
// the weight.
func throwDarts(best []dartSlot, e *dartElem, a, from float64, seed uint64, thr []uint64) {
	throwPairs(best, e, a, from, hashtab.Mix64(e.key^seed), thr, throwColumn)
}

// throwPairs is the descent of both dart samplers: it calls column for
// every column of e, from e.top down, whose first uniform v (from ks, the
// element's hash) is below its threshold in thr; a is the expected darts
// of column e.top below θ.
func throwPairs[S any](best []S, e *dartElem, a, from float64, ks uint64, thr []uint64,
	column func(best []S, e *dartElem, c int, a, v, from float64, ks uint64)) {
	// Columns 2i and 2i+1 draw their first uniform v from the two halves
	// of one hash of (seed, key, i): the high half for the odd column. The
	// first arrival E = −ln(1−v) is below a iff v < 1 − e^(−a); 1 − e^(−a)
	// ≤ a, so v ≥ a rules a column out with one comparison, and a pair of
	// columns (a and a/2) with one branch: about one column in eight
	// holds a dart below θ. thr[d] decides v < a for column e.top − d as
	// an integer comparison of the hash half (see [dartScratch.thresholds]).
	c, d := e.top, 0
	if c&1 == 0 { // the pair's odd column is above the weight
		if x := uint64(uint32(hashtab.Mix64(ks + uint64(int64(c>>1))*dartColMix))); x < thr[0] {
			column(best, e, c, a, unit32(uint32(x)), from, ks)
		}
		c, a, d = c-1, a*0.5, 1
	}
	// thr ends with a 0 below its last column (never thrown), so thr[d+1]
	// is there; the pair's hash input steps down by dartColMix.
	x := ks + uint64(int64(c>>1))*dartColMix
	for ; d < len(thr)-1; c, a, d, x = c-2, a*0.25, d+2, x-dartColMix {
		h := hashtab.Mix64(x)
		hi, lo := h>>32, uint64(uint32(h))
		tlo := thr[d+1]
		if hi >= thr[d] && lo >= tlo {
			continue
		}
		if hi < thr[d] {
			column(best, e, c, a, unit32(uint32(hi)), from, ks)
		}
		if lo < tlo {
			column(best, e, c-1, a*0.5, unit32(uint32(lo)), from, ks)
		}
	}
}

// throwColumn offers the darts of column c of element e of rank below θ
// (a = θ·2^c its expected darts below θ), whose first uniform v < a; ks
// is the element's hash.
func throwColumn(best []dartSlot, e *dartElem, c int, a, v, from float64, ks uint64) {
	k := uint64(len(best))
	offer := func(g uint64, rank float64, j uint32) {
		// g's bits: [22, 43) the dart's place in the column's weight
		// range, [43, 64) its slot. Below the top column every place is
		// under the weight.
		if c == e.top {
			if e.frac < 0 {
				e.frac = math.Exp(e.lw-float64(e.top)*math.Ln2) - 1
			}
			if float64(g>>22&(1<<21-1))/(1<<21) > e.frac {
				return
			}
		}
		if rank < from {
			return // thrown in an earlier round
		}
		if b := &best[(g>>43)*k>>21]; rank < b.rank || rank == b.rank && e.key < b.key {
			*b = dartSlot{rank: rank, key: e.key, col: int32(c), j: j}
		}
	}
	col := hashtab.Mix64(ks ^ uint64(int64(c))*dartNextMix)
	// Cell 0: its least dart is the first arrival E₁ = −ln(1−v) when
	// below dartCell; given E₁ the others are Poisson(dartCell − E₁),
	// uniform in (E₁, dartCell), where e^−(dartCell−E₁) =
	// e^−dartCell/(1−v) needs no logarithm. E₁ ≥ v bounds the rank
	// from below, so E₁ is computed only when a dart might win.
	if v < dartCellP && from*a < dartCell { // E₁ < dartCell, cell not thrown yet
		g := hashtab.Mix64(col + dartSlotMix)
		slot := &best[(g>>43)*k>>21]
		var e1 float64
		if v/a < slot.rank {
			e1 = -math.Log1p(-v)
			if e1 < a {
				offer(g, e1/a, 0)
			}
		}
		// The rest of cell 0, from one more hash: its count by the
		// inverse distribution function, then one hash per dart.
		p := dartCellP0 / (1 - v) // P(N = 0), N ~ Poisson(dartCell − E₁)
		u, n := unit(hashtab.Mix64(g^dartNextMix)), 0
		if u >= p { // at least one more dart
			if e1 == 0 {
				e1 = -math.Log1p(-v)
			}
			mu, cum := dartCell-e1, p
			for u >= cum && n < 16 {
				n++
				p *= mu / float64(n)
				cum += p
			}
			for i := range n {
				g := hashtab.Mix64(col + uint64(i+2)*dartSlotMix)
				if ex := e1 + mu*float64(g&(1<<22-1))/(1<<22); ex < a {
					offer(g, ex/a, uint32(i+1))
				}
			}
		}
	}
	for m := max(1, int(from*a/dartCell)); float64(m)*dartCell < a; m++ {
		cell := hashtab.Mix64(col + uint64(m)*dartColMix)
		n := dartCounts.count(cell >> 32)
		for i := range n {
			g := hashtab.Mix64(cell + uint64(i+1)*dartSlotMix)
			ex := (float64(m) + float64(g&(1<<22-1))/(1<<22)) * dartCell
			if ex < a {
				// Index: cell m, dart i; cell 0's darts are 0, 1, ….
				offer(g, ex/a, uint32(m)<<8|uint32(i))
			}
		}
	}
}
