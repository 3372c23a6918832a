package minhash

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWeighCountedFastPath: weighCounted's loop for the default
// weighting (df^Power of the first term, no phrase scaling) gives exactly
// logWeight's values, for document frequencies from 0 (a text not in the
// statistics) to far beyond the logarithm table, phrases above and below
// the rare-phrase cut, and any Power.
func TestWeighCountedFastPath(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, power := range []float64{DefaultPower, 1, 2.5, 0.001, maxPower} {
		sk, err := NewSketcher(Config{Mode: Weighted, Power: power})
		require.NoError(t, err)
		require.Equal(t, WeightDFPow, sk.cfg.Weighting)
		require.Equal(t, ScaleNone, sk.cfg.Scale)
		for range 200 {
			n := 1 + r.IntN(300)
			nt := 1 + r.IntN(n)
			sk.keys = make([]uint64, n)
			sk.kfirst = make([]int32, n)
			sk.phrDF = make([]int64, n)
			sk.tdf = make([]int64, nt)
			for t := range sk.tdf {
				sk.tdf[t] = []int64{0, 1, 2, int64(r.IntN(5000)), int64(r.IntN(1 << 40))}[r.IntN(5)]
			}
			for i := range n {
				sk.kfirst[i] = int32(r.IntN(nt))
				sk.phrDF[i] = []int64{0, 1, int64(r.IntN(100)), int64(r.IntN(1 << 30))}[r.IntN(4)]
			}
			sk.n, sk.cut = int64(1+r.IntN(1<<20)), []int64{math.MaxInt64, 0, 1, int64(r.IntN(200))}[r.IntN(4)]
			sk.weighCounted()
			cut := floodCut(sk.phrDF, sk.cut)
			for i := range n {
				want := logWeight(&sk.cfg, sk.tdf[sk.kfirst[i]], sk.phrDF[i], sk.n, cut)
				require.Equal(t, math.Float64bits(want), math.Float64bits(sk.lw[i]), "phrase %d (df first %d, df %d, cut %d, power %g)", i, sk.tdf[sk.kfirst[i]], sk.phrDF[i], cut, power)
			}
		}
	}
}
