package minhash

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTablesMatchMaps drives bandMap and dfTable with random inserts and
// deletes over a small key space (long probe clusters, key 0 included)
// and compares them with Go maps after every step; both must shrink back
// once emptied.
func TestTablesMatchMaps(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	bm, bref := newBandMap(), map[uint64]int32{}
	var df dfTable
	dref := map[uint64]int64{}
	for step := range 200_000 {
		key := uint64(r.IntN(3000))
		if r.IntN(3) == 0 {
			key *= 1 << 40 // same home slot bits differ: clusters
		}
		grow := step < 120_000
		switch op := r.IntN(4); {
		case op == 0 || (grow && op == 1):
			v := int32(r.IntN(1000))
			old, ok := bref[key]
			if !ok {
				old = -1
			}
			require.Equal(t, old, bm.set(key, v))
			bref[key] = v
			require.Equal(t, dref[key]+1, df.inc(key))
			dref[key]++
		default:
			bm.delete(key)
			delete(bref, key)
			want := max(dref[key]-1, 0)
			require.Equal(t, want, df.dec(key))
			if want == 0 {
				delete(dref, key)
			} else {
				dref[key] = want
			}
		}
		if step%997 == 0 {
			for k, v := range bref {
				got, ok := bm.get(k)
				require.True(t, ok)
				require.Equal(t, v, got)
			}
			for k, v := range dref {
				require.Equal(t, v, df.get(k))
			}
			_, ok := bm.get(1<<62 + 5)
			require.False(t, ok)
		}
	}
	for k := range bref {
		bm.delete(k)
	}
	for k, v := range dref {
		for range v {
			df.dec(k)
		}
	}
	require.LessOrEqual(t, len(bm.keys), bandMapMin, "bandMap shrinks when emptied")
	require.LessOrEqual(t, len(df.slots), dfMinSlots, "dfTable shrinks when emptied")
	require.Zero(t, df.n)
}
