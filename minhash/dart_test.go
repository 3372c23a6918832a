package minhash

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// weightedPair builds two weighted sets over shared keys: B keeps a share
// of A's elements with their weight, reweighs others, drops some and adds
// its own; weights are drawn log-uniformly over the given number of
// decades (df⁴ weights of news phrases span about 16).
func weightedPair(r *rand.Rand, n int, decades, keep float64) (keys []uint64, wa, wb []float64) {
	keys = make([]uint64, n)
	wa, wb = make([]float64, n), make([]float64, n)
	for i := range n {
		keys[i] = r.Uint64()
		w := math.Pow(10, decades*r.Float64()-decades/2)
		switch u := r.Float64(); {
		case u < keep:
			wa[i], wb[i] = w, w
		case u < keep+(1-keep)/3:
			wa[i], wb[i] = w, w*math.Pow(10, r.NormFloat64()/2)
		case u < keep+2*(1-keep)/3:
			wa[i] = w
		default:
			wb[i] = w
		}
	}
	return keys, wa, wb
}

func exactWeightedJaccard(wa, wb []float64) float64 {
	var smin, smax float64
	for i := range wa {
		smin += min(wa[i], wb[i])
		smax += max(wa[i], wb[i])
	}
	return smin / smax
}

// TestDartMatchesICWS compares the weighted-Jaccard estimates of dart
// throwing (Christiani 2020) in both layouts, DartMinHash and
// PackedDartMinHash, and ICWS (Ioffe 2010) on the same weighted sets over
// many seeds, against the exact weighted Jaccard J. Per case each must be
// unbiased (mean error within 4 standard errors of 0). Over all cases,
// each squared error divided by J(1−J)/K, the variance of K independent
// samples that all three promise, must average 1 within 4 standard
// errors, and neither dart layout's average may exceed ICWS's beyond
// sampling noise.
func TestDartMatchesICWS(t *testing.T) {
	cases := []struct {
		n             int
		decades, keep float64
	}{
		{120, 0, 0.5},  // unweighted sets
		{120, 2, 0.3},  // a few decades
		{120, 16, 0.5}, // df⁴-like range
		{40, 6, 0.8},   // small sets, high similarity
		{400, 8, 0.1},  // larger sets, low similarity
		{3, 1, 0.5},    // fewer elements than samples
	}
	const k = 128
	seeds, pairs := 30, 15
	if raceEnabled || testing.Short() || !dataset.LongEnabled() {
		// The race detector slows ICWS tenfold; the default run checks
		// the same bounds on fewer samples, NEARDUP_LONG on all of them.
		seeds, pairs = 6, 5
	}
	var dNorm, pNorm, iNorm []float64
	for _, tc := range cases {
		t.Run(fmt.Sprintf("n=%d,decades=%g,keep=%g", tc.n, tc.decades, tc.keep), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(tc.n), uint64(tc.decades*10+tc.keep*100)))
			var dErr, pErr, iErr, dSq, pSq, iSq, theory []float64
			for range pairs {
				keys, wa, wb := weightedPair(r, tc.n, tc.decades, tc.keep)
				j := exactWeightedJaccard(wa, wb)
				for seed := range uint64(seeds) {
					ed := Similarity(DartMinHash(nil, keys, wa, k, seed), DartMinHash(nil, keys, wb, k, seed))
					ep := Similarity(PackedDartMinHash(nil, keys, wa, k, seed), PackedDartMinHash(nil, keys, wb, k, seed))
					ei := Similarity(ICWS(nil, keys, wa, k, seed), ICWS(nil, keys, wb, k, seed))
					dErr, pErr, iErr = append(dErr, ed-j), append(pErr, ep-j), append(iErr, ei-j)
					dSq, pSq, iSq = append(dSq, (ed-j)*(ed-j)), append(pSq, (ep-j)*(ep-j)), append(iSq, (ei-j)*(ei-j))
					v := j * (1 - j) / k
					theory = append(theory, v)
					if v > 0 {
						dNorm, iNorm = append(dNorm, (ed-j)*(ed-j)/v), append(iNorm, (ei-j)*(ei-j)/v)
						pNorm = append(pNorm, (ep-j)*(ep-j)/v)
					}
				}
			}
			se := math.Sqrt(mean(theory) / float64(len(dErr)))
			t.Logf("darts bias %+.5f MSE %.6f; packed bias %+.5f MSE %.6f; ICWS bias %+.5f MSE %.6f; J(1−J)/K %.6f; SE of a bias %.5f",
				mean(dErr), mean(dSq), mean(pErr), mean(pSq), mean(iErr), mean(iSq), mean(theory), se)
			assert.InDelta(t, 0, mean(dErr), 4*se+1e-9, "darts biased")
			assert.InDelta(t, 0, mean(pErr), 4*se+1e-9, "packed darts biased")
			assert.InDelta(t, 0, mean(iErr), 4*se+1e-9, "ICWS biased")
		})
	}
	// A squared error over its variance has a variance of about 2 (it is
	// near a χ² of one degree of freedom).
	se := math.Sqrt(2 / float64(len(dNorm)))
	t.Logf("MSE / (J(1−J)/K) over %d estimates: darts %.3f, packed %.3f, ICWS %.3f (SE %.3f each)", len(dNorm), mean(dNorm), mean(pNorm), mean(iNorm), se)
	assert.InDelta(t, 1, mean(dNorm), 4*se, "darts MSE vs J(1−J)/K")
	assert.InDelta(t, 1, mean(pNorm), 4*se, "packed darts MSE vs J(1−J)/K")
	assert.InDelta(t, 1, mean(iNorm), 4*se, "ICWS MSE vs J(1−J)/K")
	assert.LessOrEqual(t, mean(dNorm), mean(iNorm)+4*math.Sqrt2*se, "darts MSE above ICWS's")
	assert.LessOrEqual(t, mean(pNorm), mean(iNorm)+4*math.Sqrt2*se, "packed darts MSE above ICWS's")
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// TestDartUnbiased checks the dart collision rate against the exact
// weighted Jaccard over many seeds, as TestICWSUnbiased does for ICWS, for
// weights far below 1, around 1 and far above.
func TestDartUnbiased(t *testing.T) {
	for _, scale := range []float64{1e-200, 0.01, 1, 1e6, 1e200} {
		t.Run(fmt.Sprint(scale), func(t *testing.T) { checkUnbiased(t, DartMinHash, scale) })
	}
	t.Run("Consistent", func(t *testing.T) {
		keys := []uint64{1, 2, 3}
		a := DartMinHash(nil, keys, []float64{1, 2, 3}, 32, 5)
		require.Len(t, a, 32)
		assert.Equal(t, a, DartMinHash(nil, keys, []float64{1, 2, 3}, 32, 5), "same input, same samples")
		assert.Equal(t, a, DartMinHash(nil, []uint64{3, 1, 2}, []float64{3, 1, 2}, 32, 5), "order does not matter")
		assert.Equal(t, a, DartMinHash(nil, []uint64{3, 1, 2, 4}, []float64{3, 1, 2, 0}, 32, 5), "a zero weight is absence")
		assert.Empty(t, DartMinHash(nil, keys, []float64{0, -1, math.NaN()}, 32, 5), "no positive weight, no sample")
		assert.Empty(t, DartMinHash(nil, keys, []float64{1, 2, 3}, 0, 5), "k = 0")
		for _, v := range a {
			assert.Zero(t, v&densifiedBit, "31-bit values")
		}
		// Scaling every weight changes the samples (darts live in absolute
		// weight) but not their agreement with a scaled copy.
		b := DartMinHash(nil, keys, []float64{1e300, 2e300, 3e300}, 32, 5)
		assert.Equal(t, b, DartMinHash(nil, keys, []float64{1e300, 2e300, 3e300}, 32, 5))
	})
}

// TestPoissonCount checks the table lookup of a cell's dart count against
// the search of the inverse distribution function at every threshold, on
// both sides, and on random hashes.
func TestPoissonCount(t *testing.T) {
	us := []uint64{0, 1<<32 - 1}
	for _, th := range dartCounts.cum {
		us = append(us, th-1, th, th+1)
	}
	r := rand.New(rand.NewPCG(7, 7))
	for range 100000 {
		us = append(us, r.Uint64()>>32)
	}
	for _, u := range us {
		if u >= 1<<32 {
			continue
		}
		require.Equal(t, dartCounts.search(u), dartCounts.count(u), "u = %d", u)
	}
}
