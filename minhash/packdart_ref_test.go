package minhash

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// The packed and the plain dart samplers as they were before their
// descent compared hashes with per-column integer thresholds, kept
// unchanged as the reference that TestPackedMatchesReference compares the
// production code with. prepare, packColumn, throwColumn and packDart are
// shared: that change left them alone.

func (ds *dartScratch) refSample(dst []uint32, keys []uint64, lw []float64, k int, seed uint64) []uint32 {
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
		for i := range ds.elems {
			e := &ds.elems[i]
			refThrowDarts(best, e, math.Ldexp(aMax, e.top-maxTop), from, seed)
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

func refThrowDarts(best []dartSlot, e *dartElem, a, from float64, seed uint64) {
	ks := hashtab.Mix64(e.key ^ seed)
	// Columns 2i and 2i+1 draw their first uniform v from the two halves
	// of one hash of (seed, key, i): the high half for the odd column. The
	// first arrival E = −ln(1−v) is below a iff v < 1 − e^(−a); 1 − e^(−a)
	// ≤ a, so v ≥ a rules a column out with one comparison, and a pair of
	// columns (a and a/2) with one branch: about one column in eight
	// holds a dart below θ.
	c := e.top
	if c&1 == 0 && a >= dartMinArea { // the pair's odd column is above the weight
		if v := unit32(uint32(hashtab.Mix64(ks + uint64(int64(c>>1))*dartColMix))); v < a {
			throwColumn(best, e, c, a, v, from, ks)
		}
		c, a = c-1, a*0.5
	}
	for ; a >= dartMinArea; c, a = c-2, a*0.25 {
		h := hashtab.Mix64(ks + uint64(int64(c>>1))*dartColMix)
		hi, lo := unit32(uint32(h>>32)), unit32(uint32(h))
		if hi >= a && lo >= a*0.5 {
			continue
		}
		if hi < a {
			throwColumn(best, e, c, a, hi, from, ks)
		}
		if lo < a*0.5 && a*0.5 >= dartMinArea {
			throwColumn(best, e, c-1, a*0.5, lo, from, ks)
		}
	}
}

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
	ks := hashtab.Mix64(e.key ^ seed ^ packColMix)
	c := e.top
	if c&1 == 0 && a >= dartMinArea { // the pair's odd column is above the weight
		if v := unit32(uint32(hashtab.Mix64(ks + uint64(int64(c>>1))*dartColMix))); v < a || a > packCell0 {
			packColumn(best, e, c, a, v, from, ks)
		}
		c, a = c-1, a*0.5
	}
	for ; a >= dartMinArea; c, a = c-2, a*0.25 {
		h := hashtab.Mix64(ks + uint64(int64(c>>1))*dartColMix)
		hi, lo := unit32(uint32(h>>32)), unit32(uint32(h))
		// A column holds no dart below θ when its first arrival E₁ ≥ v
		// is at least a and cell 0 reaches a (a ≤ packCell0).
		if hi >= a && lo >= a*0.5 && a <= packCell0 {
			continue
		}
		if hi < a || a > packCell0 {
			packColumn(best, e, c, a, hi, from, ks)
		}
		if (lo < a*0.5 || a*0.5 > packCell0) && a*0.5 >= dartMinArea {
			packColumn(best, e, c-1, a*0.5, lo, from, ks)
		}
	}
}

// TestPackedMatchesReference requires the packed and the dart samplers to
// give exactly the reference's values: on random weighted sets spanning many decades
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
		require.Equal(t, want.refSamplePacked(nil, keys, lw, k, seed), got.samplePacked(nil, keys, lw, k, seed), "packed, set %d (n=%d, k=%d)", i, n, k)
		require.Equal(t, want.refSample(nil, keys, lw, k, seed), got.sample(nil, keys, lw, k, seed), "darts, set %d (n=%d, k=%d)", i, n, k)
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
			got.samplePacked(nil, sk.keys, sk.lw, DefaultNumHashes, sk.seedMix), "packed, Reuters story %d", i)
		require.Equal(t, want.refSample(nil, sk.keys, sk.lw, DefaultNumHashes, sk.seedMix),
			got.sample(nil, sk.keys, sk.lw, DefaultNumHashes, sk.seedMix), "darts, Reuters story %d", i)
	}
}
