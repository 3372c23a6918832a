package minhash

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
)

// The packed dart sampler as it was before its descent compared hashes
// with per-column integer thresholds and its cells below θ skipped the
// bounds of each dart, kept unchanged as the reference that
// TestPackedMatchesReference compares the production code with. prepare
// and packDart are shared: that change left them alone.

// samplePacked appends the k packed-dart samples of the elements of
// log-weight lw (−Inf or NaN = absent): the rounds of [dartScratch.sample]
// with slots that are packed integers (see [PackedDartMinHash]).
func (ds *dartScratch) refSamplePacked(dst []uint32, keys []uint64, lw []float64, k int, seed uint64) []uint32 {
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
		for i := range ds.elems {
			e := &ds.elems[i]
			refThrowPacked(best, e, math.Ldexp(aMax, e.top-maxTop), from, seed)
		}
		full := true
		for _, b := range best {
			if b == packEmpty {
				full = false
				break
			}
		}
		if full || round == dartMaxRounds {
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

// throwPacked offers the darts of element e of rank below θ to the packed
// slots, descending its columns as [throwDarts] does (a = θ·2^top).
func refThrowPacked(best []uint64, e *dartElem, a, from float64, seed uint64) {
	ks := hashx.Mix64(e.key ^ seed ^ packColMix)
	c := e.top
	if c&1 == 0 && a >= dartMinArea { // the pair's odd column is above the weight
		if v := unit32(uint32(hashx.Mix64(ks + uint64(int64(c>>1))*dartColMix))); v < a || a > packCell0 {
			refPackColumn(best, e, c, a, v, from, ks)
		}
		c, a = c-1, a*0.5
	}
	for ; a >= dartMinArea; c, a = c-2, a*0.25 {
		h := hashx.Mix64(ks + uint64(int64(c>>1))*dartColMix)
		hi, lo := unit32(uint32(h>>32)), unit32(uint32(h))
		// A column holds no dart below θ when its first arrival E₁ ≥ v
		// is at least a and cell 0 reaches a (a ≤ packCell0).
		if hi >= a && lo >= a*0.5 && a <= packCell0 {
			continue
		}
		if hi < a || a > packCell0 {
			refPackColumn(best, e, c, a, hi, from, ks)
		}
		if (lo < a*0.5 || a*0.5 > packCell0) && a*0.5 >= dartMinArea {
			refPackColumn(best, e, c-1, a*0.5, lo, from, ks)
		}
	}
}

// packColumn offers the darts of column c of element e of rank below θ (a
// = θ·2^c its expected darts below θ), whose first uniform v < a, to the
// packed slots. Cell 0 holds the first arrival E₁ = −ln(1−v) when below
// packCell and, given E₁, Poisson(packCell − E₁) darts uniform in
// (E₁, packCell); cell m ≥ 1 holds Poisson(packCell) darts uniform in
// [m, m+1)·packCell. Darts are generated in "expected darts of the
// column" and offered relative to a.
func refPackColumn(best []uint64, e *dartElem, c int, a, v, from float64, ks uint64) {
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
	col := hashx.Mix64(ks ^ uint64(int64(c))*packCellMix)
	const rankMask = 1<<packRankBits - 1
	if v < packCellP && lo < packCell0 { // E₁ < packCell, cell not thrown yet
		e1 := -math.Log1p(-v)
		g := hashx.Mix64(col + packDartMix)
		s := &best[(g>>(64-packSlotBits))*k>>packSlotBits]
		*s = min(*s, packDart(g, e1, a, lo, inv, lim))
		if e1 < a { // the rest of cell 0 may hold darts below θ
			p := packCellP0 / (1 - v) // P(N = 0), N ~ Poisson(packCell − E₁)
			u, n := unit(hashx.Mix64(g^dartNextMix)), 0
			mu, cum := packCell0-e1, p
			for u >= cum && n < len(packPoisson) {
				n++
				p *= mu / float64(n)
				cum += p
			}
			for i := range n {
				g := hashx.Mix64(col + uint64(i+2)*packDartMix)
				ex := e1 + mu*float64(g&rankMask)/(1<<packRankBits)
				s := &best[(g>>(64-packSlotBits))*k>>packSlotBits]
				*s = min(*s, packDart(g, ex, a, lo, inv, lim))
			}
		}
	}
	for m := max(1, int((lo-packCell0)/packCell)+1); packCell0+float64(m-1)*packCell < a; m++ {
		cell := hashx.Mix64(col + uint64(m)*dartColMix)
		n := packPoissonCount(cell >> 32)
		for i := range n {
			g := hashx.Mix64(cell + uint64(i+1)*packDartMix)
			ex := packCell0 + (float64(m-1)+float64(g&rankMask)/(1<<packRankBits))*packCell
			s := &best[(g>>(64-packSlotBits))*k>>packSlotBits]
			*s = min(*s, packDart(g, ex, a, lo, inv, lim))
		}
	}
}


// TestPackedMatchesReference requires the packed sampler to give exactly
// the reference's values: on random weighted sets spanning many decades
// of weight (so that columns far above and below 1 are thrown, and θ
// doubles in some), with k from 1 to 512, and on the Reuters stories'
// phrase sets at their default weights when the data is present.
func TestPackedMatchesReference(t *testing.T) {
	var got, want dartScratch
	r := rand.New(rand.NewPCG(21, 22))
	for i := range 3000 {
		n := 1 + r.IntN(300)
		if i%10 == 0 {
			n = 1 + r.IntN(4) // few elements: θ doubles more often
		}
		keys, wa, _ := weightedPair(r, n, float64(r.IntN(30)), 0.5)
		k := []int{1, 2, 16, 64, 128, 128, 512}[i%7]
		seed := r.Uint64()
		lw := logWeights(wa)
		require.Equal(t, want.refSamplePacked(nil, keys, lw, k, seed), got.samplePacked(nil, keys, lw, k, seed), "set %d (n=%d, k=%d)", i, n, k)
	}
	if testing.Short() {
		return
	}
	recs := dataset.Reuters(t, 2000)
	cfg := Config{Mode: Weighted}
	st, err := NewStats(cfg)
	require.NoError(t, err)
	sk, err := NewSketcher(cfg)
	require.NoError(t, err)
	for i, rec := range recs {
		st.AddDocument(rec.Text)
		sk.phrases(rec.Text)
		sk.weigh(st)
		require.Equal(t, want.refSamplePacked(nil, sk.keys, sk.lw, DefaultNumHashes, sk.seedMix),
			got.samplePacked(nil, sk.keys, sk.lw, DefaultNumHashes, sk.seedMix), "Reuters story %d", i)
	}
}
