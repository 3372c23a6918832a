package minhash

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTablesMatchMaps drives a dfTable with random increments and
// decrements over a small key space (long probe clusters, key 0 included)
// and compares it with a Go map; it must shrink back once emptied.
// (The exact-copy map, a hashtab.Map, is tested in its package.)
func TestTablesMatchMaps(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
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
			require.Equal(t, dref[key]+1, df.inc(key))
			dref[key]++
		default:
			want := max(dref[key]-1, 0)
			require.Equal(t, want, df.dec(key))
			if want == 0 {
				delete(dref, key)
			} else {
				dref[key] = want
			}
		}
		if step%997 == 0 {
			for k, v := range dref {
				require.Equal(t, v, df.get(k))
			}
			require.Zero(t, df.get(1<<62+5))
		}
	}
	for k, v := range dref {
		for range v {
			df.dec(k)
		}
	}
	require.LessOrEqual(t, df.m.Slots(), 16, "dfTable shrinks when emptied")
	require.Zero(t, df.m.Len())
}

// TestDFTableBigCounts takes counts across dfBig, where they move from
// the slot to the big map, and back, with neighbours in the same cluster
// moved by resizes and deletions around them.
func TestDFTableBigCounts(t *testing.T) {
	var df dfTable
	const key = 7 << 40
	for i := range uint64(50) {
		df.inc(key + (i+1)<<41) // a cluster of neighbours
	}
	require.EqualValues(t, 1, df.inc(key))
	setValue := func(v uint32) { // the table's value of key, as a count reaching dfBig leaves it
		p, ok := df.m.Ref(key)
		require.True(t, ok)
		*p = v
	}
	setValue(dfBig - 2)
	require.EqualValues(t, dfBig-1, df.inc(key))
	require.EqualValues(t, dfBig, df.inc(key))
	require.EqualValues(t, dfBig+1, df.inc(key))
	require.EqualValues(t, dfBig+1, df.get(key))
	for i := range uint64(200) { // resizes move the slot, not its count
		df.inc(key + (i+51)<<41)
	}
	for i := range uint64(250) {
		require.Zero(t, df.dec(key+i<<41+1<<41))
	}
	require.EqualValues(t, dfBig+1, df.get(key))
	require.EqualValues(t, dfBig, df.dec(key))
	require.EqualValues(t, dfBig-1, df.dec(key))
	require.Empty(t, df.big, "a count below dfBig leaves the big map")
	require.EqualValues(t, dfBig-1, df.get(key))
	setValue(2)
	require.EqualValues(t, 1, df.dec(key))
	require.Zero(t, df.dec(key))
	require.Zero(t, df.get(key))
}
