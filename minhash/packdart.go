package minhash

import (
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// PackedDartMinHash appends k weighted MinHash samples of the weighted set
// {keys[i] ↦ weights[i]} to dst by dart throwing in the layout of the
// [PackedDarts] sampler, and returns the extended slice. Elements whose
// weight is not a positive finite number are absent; keys must be
// distinct; k is at most 2^24 (a Config allows 4096). If no element is
// present, dst is returned unchanged.
//
// It follows Christiani (DartMinHash: Fast Sketching for Weighted Sets,
// 2020: the collision argument of §1, eq. (1), and the DartMinHash
// algorithm, which throws only the darts below a rank bound θ): each element owns the darts of a rate-1 Poisson process on
// (weight, rank) under its weight, each dart falls into a uniform slot,
// and slot i keeps the owned dart of least rank, so that sample i of two
// sets agrees with probability their weighted Jaccard Σ min / Σ max and the
// k samples are independent. The process is the one of [DartMinHash]
// (dyadic weight columns, rank cells, θ doubling when a slot stays empty)
// with three departures, all of which change the sampled values, so its
// signatures never compare with DartMinHash's:
//
//   - cells of 4 expected darts instead of 1 (cell 0, which holds the
//     column's first arrival, of ½), so a quarter of the cell hashes and
//     count look-ups, and a first round of k(ln k + 2) darts instead of
//     k(ln k + 1), so that θ doubles in one document in eight instead of
//     one in three;
//   - a dart is one 64-bit hash: 20 bits of rank in its cell, 20 bits of
//     place in the column's weight range, 24 bits of slot; its value is
//     31 of its own rank and place bits, not a further hash of its
//     identity;
//   - a slot keeps one integer, the dart's rank relative to θ (the float's
//     exponent and top 22 mantissa bits) above its value, so that the
//     least dart of a slot is an integer minimum, and a dart that is not
//     under the weight, not below θ or thrown in an earlier round is made
//     the largest integer, all without a branch per dart (the dart
//     sampler's cost was its mispredicted per-dart comparisons).
//
// Ties between ranks equal to 22 bits are broken by the value, the same
// in every document, and the truncations (20 bits of place, 22 of
// relative rank, columns holding fewer than 2⁻²⁰ darts below θ left out)
// shift the collision probability by about 10⁻⁶ per sample or less (TestDartMatchesICWS measures bias and
// MSE beside ICWS and DartMinHash on the same weighted sets).
//
// Like DartMinHash it is O(n·log(range) + k log k) for n elements. It
// allocates its scratch and the growth of dst, and panics unless there is
// one weight per key.
func PackedDartMinHash(dst []uint32, keys []uint64, weights []float64, k int, seed uint64) []uint32 {
	sameLengths("PackedDartMinHash", keys, weights)
	return sampleWeights(dst, keys, weights, k, seed, (*dartScratch).samplePacked)
}

// Constants of the packed dart sampler.
const (
	// packCell is the expected number of darts of a cell m ≥ 1 and
	// packCell0 of cell 0; packExtra sets the darts of the first round,
	// k(ln k + packExtra), so that a second round is needed in about one
	// document in eight (1 − exp(−e^−2)). Chosen by the sampler's CPU
	// time on the Reuters documents' weighted phrase sets
	// (docs/notes/minhash-history.md): larger cells cost fewer count
	// look-ups, whose mispredicted loops dominate, at the price of darts
	// past θ, which cost little without branches.
	packCell  = 4
	packCell0 = 0.5
	packExtra = 2
	// packRankBits, packPlaceBits and packSlotBits split a dart's hash:
	// rank in the cell (low bits), place in the column, slot (high bits).
	packRankBits  = 20
	packPlaceBits = 20
	packSlotBits  = 64 - packRankBits - packPlaceBits
	// packEmpty is a slot without a dart, and any dart that does not
	// count.
	packEmpty = math.MaxUint64
	// packHalf subtracted from a packed slot halves its rank: the float's
	// exponent starts at bit 52, shifted right by 30 and left by 31.
	packHalf = 1 << 53
	// packColMix and packCellMix make a column's and a cell's hash; they
	// differ from the dart sampler's so that the two never share darts.
	packColMix  = 0xc2b2ae3d27d4eb4f
	packCellMix = 0x165667b19e3779f9
	packDartMix = 0x27d4eb2f165667c5
)

// packCellP is P(cell 0 holds a dart) = 1 − e^−packCell0, and packCellP0
// is e^−packCell0.
var (
	packCellP0 = math.Exp(-packCell0)
	packCellP  = 1 - packCellP0
)

// packCounts draws the counts of the packed sampler's cells, 24 at most
// (a count above 23 has probability about 10⁻¹¹).
var packCounts = newCellCounts(packCell, 24)

// prepare fills ds.elems with the present elements of log-weight lw
// (−Inf or NaN = absent; |ln w| capped at maxLnWeight) and returns ln θ
// for a budget of k(ln k + extra) darts below θ, the largest column top
// (2^top < x ≤ 2^(top+1)), and whether any element is present. ln Σx is
// taken shifted by the largest weight, so that no weight overflows.
func (ds *dartScratch) prepare(keys []uint64, lw []float64, k int, extra float64) (lnTheta float64, maxTop int, ok bool) {
	ds.elems = ds.elems[:0]
	maxLW := math.Inf(-1)
	for i, key := range keys {
		w := lw[i]
		if math.IsNaN(w) || math.IsInf(w, 0) {
			continue
		}
		w = min(max(w, -maxLnWeight), maxLnWeight)
		maxLW = max(maxLW, w)
		top := int(math.Ceil(w/math.Ln2)) - 1 // 2^top < x ≤ 2^(top+1)
		ds.elems = append(ds.elems, dartElem{key: key, top: top, lw: w, frac: -1})
	}
	if len(ds.elems) == 0 {
		return 0, 0, false
	}
	var sum float64
	maxTop = math.MinInt
	for _, e := range ds.elems {
		sum += math.Exp(e.lw - maxLW)
		maxTop = max(maxTop, e.top)
	}
	lnTotal := maxLW + math.Log(sum)
	budget := float64(k) * (math.Log(float64(k)) + extra)
	return math.Log(budget) - lnTotal, maxTop, true
}

// samplePacked appends the k packed-dart samples of the elements of
// log-weight lw (−Inf or NaN = absent): the rounds of [dartScratch.sample]
// with slots that are packed integers (see [PackedDartMinHash]).
func (ds *dartScratch) samplePacked(dst []uint32, keys []uint64, lw []float64, k int, seed uint64) []uint32 {
	lnTheta, maxTop, ok := ds.prepare(keys, lw, k, packExtra)
	if !ok {
		return dst
	}
	if cap(ds.packed) < k {
		ds.packed = make([]uint64, k)
	}
	best := ds.packed[:k]
	for i := range best {
		best[i] = packEmpty
	}
	// θ·2^maxTop; a round doubles it exactly, so that a rank halved with
	// θ's doubling equals the rank the new θ gives.
	aMax0 := math.Exp(lnTheta + float64(maxTop)*math.Ln2)
	from := 0.0
	for round := 0; ; round++ {
		aMax := math.Ldexp(aMax0, round)
		thr := ds.thresholds(aMax, packCell0)
		for i := range ds.elems {
			e := &ds.elems[i]
			if d := maxTop - e.top; d < len(thr)-1 {
				throwPacked(best, e, math.Ldexp(aMax, -d), from, seed, thr[d:])
			}
		}
		if !slices.Contains(best, packEmpty) || round == dartMaxRounds {
			break
		}
		from = 0.5
		for i, b := range best {
			// Ranks are relative to θ, which doubles. A rank is at least
			// 2^−60 or so (a dart's rank in its cell has 20 bits and a ≤
			// 2^42), so the exponent never reaches 0.
			if b != packEmpty {
				best[i] = b - packHalf
			}
		}
	}
	for _, b := range best {
		if b == packEmpty {
			dst = append(dst, 0)
		} else {
			dst = append(dst, uint32(b)&valueMask)
		}
	}
	return dst
}

// thresholds fills ds.thr for a round whose largest column top holds
// aMax expected darts below θ: thr[d] is for column maxTop − d, whose a =
// θ·2^c is aMax·2^−d (the same for every element), the number of 32-bit
// hashes x whose uniform unit32(x) is below a, or 2^32 when a ≥ 1 or a >
// force (the column is thrown whatever its first uniform). The table
// ends with a 0 for the first column with a < dartMinArea, so that it
// has one entry more than the columns it lets through. The descent compares
// hashes with it as integers, which decides exactly what comparing
// unit32(x) with a decides: unit32(x) < a iff x + ½ < a·2^32, iff x <
// ⌈a·2^32 − ½⌉, and a·2^32 − ½ is exact for a·2^32 in [2^12, 2^32].
func (ds *dartScratch) thresholds(aMax, force float64) []uint64 {
	ds.thr = ds.thr[:0]
	for a := aMax; a >= dartMinArea; a *= 0.5 {
		t := uint64(1) << 32
		if a < 1 && a <= force {
			t = uint64(math.Ceil(a*(1<<32) - 0.5))
		}
		ds.thr = append(ds.thr, t)
	}
	return append(ds.thr, 0) // the column below the last: never thrown
}

// throwPacked offers the darts of element e of rank below θ to the packed
// slots, descending its columns as [throwDarts] does (a = θ·2^top); thr
// holds the thresholds of [dartScratch.thresholds] from column e.top
// down, at least one and the final 0.
func throwPacked(best []uint64, e *dartElem, a, from float64, seed uint64, thr []uint64) {
	throwPairs(best, e, a, from, hashtab.Mix64(e.key^seed^packColMix), thr, packColumn)
}

// packColumn offers the darts of column c of element e of rank below θ (a
// = θ·2^c its expected darts below θ), whose first uniform v < a, to the
// packed slots. Cell 0 holds the first arrival E₁ = −ln(1−v) when below
// packCell0 and, given E₁, Poisson(packCell0 − E₁) darts uniform in
// (E₁, packCell0); cell m ≥ 1 holds Poisson(packCell) darts uniform in
// packCell0 + [m−1, m)·packCell. Darts are generated in "expected darts
// of the column" and offered relative to a.
func packColumn(best []uint64, e *dartElem, c int, a, v, from float64, ks uint64) {
	k := uint64(len(best))
	// lim: a dart is under the weight iff its place < lim (every place
	// below the top column).
	lim := uint64(1) << packPlaceBits
	if c == e.top {
		if e.frac < 0 {
			e.frac = math.Exp(e.lw-float64(e.top)*math.Ln2) - 1
		}
		lim = uint64(e.frac * (1 << packPlaceBits))
	}
	inv := 1 / a
	lo := from * a // darts below lo were thrown in an earlier round
	col := hashtab.Mix64(ks ^ uint64(int64(c))*packCellMix)
	const rankMask = 1<<packRankBits - 1
	if v < packCellP && lo < packCell0 { // E₁ < packCell0, cell not thrown yet
		e1 := -math.Log1p(-v)
		g := hashtab.Mix64(col + packDartMix)
		s := &best[(g>>(64-packSlotBits))*k>>packSlotBits]
		*s = min(*s, packDart(g, e1, a, lo, inv, lim))
		if e1 < a { // the rest of cell 0 may hold darts below θ
			p := packCellP0 / (1 - v) // P(N = 0), N ~ Poisson(packCell0 − E₁)
			u, n := unit(hashtab.Mix64(g^dartNextMix)), 0
			mu, cum := packCell0-e1, p
			for u >= cum && n < len(packCounts.cum) {
				n++
				p *= mu / float64(n)
				cum += p
			}
			for i := range n {
				g := hashtab.Mix64(col + uint64(i+2)*packDartMix)
				ex := e1 + mu*float64(g&rankMask)/(1<<packRankBits)
				s := &best[(g>>(64-packSlotBits))*k>>packSlotBits]
				*s = min(*s, packDart(g, ex, a, lo, inv, lim))
			}
		}
	}
	for m := max(1, int((lo-packCell0)/packCell)+1); packCell0+float64(m-1)*packCell < a; m++ {
		cell := hashtab.Mix64(col + uint64(m)*dartColMix)
		n := packCounts.count(cell >> 32)
		for i := range n {
			g := hashtab.Mix64(cell + uint64(i+1)*packDartMix)
			ex := packCell0 + (float64(m-1)+float64(g&rankMask)/(1<<packRankBits))*packCell
			s := &best[(g>>(64-packSlotBits))*k>>packSlotBits]
			*s = min(*s, packDart(g, ex, a, lo, inv, lim))
		}
	}
}

// packDart returns the packed slot word of the dart of hash g at ex
// expected darts of its column (a below θ, lo thrown in an earlier round,
// inv = 1/a, lim the place bound of the weight): its rank relative to θ
// (the float's exponent and top 22 mantissa bits) above its 31-bit value
// (its rank bits and the low 11 of its place), or packEmpty when it does
// not count. Small enough to inline, so that its three conditions become
// conditional moves, not branches.
func packDart(g uint64, ex, a, lo, inv float64, lim uint64) uint64 {
	p := math.Float64bits(ex*inv)>>30<<31 | g&valueMask
	if ex >= a {
		p = packEmpty
	}
	if ex < lo {
		p = packEmpty
	}
	if g>>packRankBits&(1<<packPlaceBits-1) >= lim {
		p = packEmpty
	}
	return p
}
