package simhash

import (
	"cmp"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// bruteForce is the reference: every stored fingerprint within distance k.
func bruteForce(stored map[uint32]uint64, q uint64, k int) []Neighbor {
	var out []Neighbor
	for id, fp := range stored {
		if d := bits.OnesCount64(fp ^ q); d <= k {
			out = append(out, Neighbor{ID: id, Distance: d})
		}
	}
	slices.SortFunc(out, func(a, b Neighbor) int {
		return cmp.Or(cmp.Compare(a.Distance, b.Distance), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// flip returns fp with d distinct random bits flipped.
func flip(r *rand.Rand, fp uint64, d int) uint64 {
	for _, b := range r.Perm(64)[:min(d, 64)] {
		fp ^= 1 << b
	}
	return fp
}

func TestLayout(t *testing.T) {
	for _, tc := range []struct {
		k, blocks      int
		tables, prefix int // prefix of the first table
	}{
		{3, 0, 4, 16},  // Manku: 4 blocks of 16 bits, choose 1
		{3, 5, 10, 26}, // 5 blocks (13,13,13,13,12), choose 2
		{3, 6, 20, 33}, // 6 blocks (11,11,11,11,10,10), choose 3
		{0, 0, 1, 64},
		{2, 0, 3, 22},
		{11, 0, 12, 6},
		{12, 0, 1, 0}, // scan
		{64, 0, 1, 0},
		{5, 3, 1, 0}, // m ≤ k: scan
	} {
		l, err := indexLayout(tc.k, tc.blocks)
		require.NoError(t, err, "k=%d blocks=%d", tc.k, tc.blocks)
		assert.Len(t, l.perms, tc.tables, "k=%d blocks=%d tables", tc.k, tc.blocks)
		assert.Equal(t, tc.prefix, l.prefix[0], "k=%d blocks=%d prefix", tc.k, tc.blocks)
		// Every permutation is a bijection on the 64 bits.
		for _, p := range l.perms {
			seen := uint64(0)
			for i := range 64 {
				out := permute(p, 1<<i)
				require.Equal(t, 1, bits.OnesCount64(out))
				seen |= out
			}
			require.Equal(t, ^uint64(0), seen)
		}
	}
	_, err := indexLayout(3, 65)
	assert.ErrorContains(t, err, "Blocks (65)")
	_, err = indexLayout(8, 20)
	assert.ErrorContains(t, err, "C(20, 12) = 125970 tables")
	_, err = NewIndex(-1, 0)
	assert.ErrorIs(t, err, detector.ErrInvalidConfig)
	_, err = NewIndex(65, 0)
	assert.ErrorIs(t, err, detector.ErrInvalidConfig)
}

// TestIndexBruteForce is the property test of the index: for random k and
// block counts, over random and clustered fingerprints, with interleaved
// insertions, removals and re-insertions that exercise the pending list,
// buffers, merges and compaction, every query returns exactly the brute-force
// neighbours.
func TestIndexBruteForce(t *testing.T) {
	type design struct{ k, blocks int }
	designs := []design{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {3, 5}, {3, 6}, {4, 0}, {5, 7}, {6, 0}, {7, 0}, {8, 0}, {11, 0}, {12, 0}, {16, 0}, {3, 2}, {2, 4}, {64, 0}}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 4; i++ {
		k := r.IntN(10)
		designs = append(designs, design{k, k + 1 + r.IntN(3)})
	}
	n := 5000
	if testing.Short() {
		n = 1500
	}
	// Small buffers make every path (pending list, buffer, merge,
	// compaction) run many times; the real sizes run for one design.
	defer func(p, b int) { pendMax, bufMin = p, b }(pendMax, bufMin)
	for i, ds := range designs {
		pendMax, bufMin = 7, 60
		if i == 3 {
			pendMax, bufMin = 256, 4096
		}
		steps := n
		if l, _ := indexLayout(ds.k, ds.blocks); len(l.perms) > 20 || ds.k > 12 {
			steps = n / 4 // many tables, or every query returns most of the index
		}
		if raceEnabled {
			steps /= 2
		}
		t.Run(fmt.Sprintf("k=%d,blocks=%d", ds.k, ds.blocks), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(ds.k), uint64(ds.blocks)))
			ix, err := NewIndex(ds.k, ds.blocks)
			require.NoError(t, err)
			stored := map[uint32]uint64{}
			var centres []uint64
			next, checks := uint32(0), 0
			check := func(q uint64) {
				t.Helper()
				got := ix.Query(q, nil)
				want := bruteForce(stored, q, ds.k)
				if !assert.Equal(t, want, got, "Query(%#x)", q) {
					t.FailNow()
				}
				// nearest, in both plans (every 64th query: the wide
				// probes are slow): the scan gives the exact k nearest;
				// the probes what the wide probes meet, unless Query's
				// radius holds k entries or the one table has no key.
				if checks++; checks%64 != 0 {
					return
				}
				exact, wide := bruteForce(stored, q, 64), ix.within(q, 64, rankFlips, nil)
				keyless := len(ix.tables) == 1 && ix.tables[0].prefix == 0
				defer func(m int) { ix.scanMax = m }(ix.scanMax)
				for _, k := range []int{1, 5, 20} {
					ix.scanMax = len(stored)
					require.Equal(t, cut(exact, k), ix.nearest(q, k), "scan: nearest(%#x, %d)", q, k)
					ix.scanMax = 0
					want := cut(wide, k)
					if keyless || len(got) >= k {
						want = cut(exact, k)
					}
					require.Equal(t, want, ix.nearest(q, k), "probes: nearest(%#x, %d)", q, k)
				}
			}
			for step := range steps {
				switch op := r.IntN(10); {
				case op < 6 || len(stored) == 0: // insert: random or near a centre
					var fp uint64
					if len(centres) == 0 || r.IntN(3) == 0 {
						fp = r.Uint64()
						centres = append(centres, fp)
					} else {
						fp = flip(r, centres[r.IntN(len(centres))], r.IntN(ds.k+3))
					}
					ix.Add(next, fp)
					stored[next] = fp
					next++
				case op < 8: // remove a random stored id
					var id uint32
					for id = range stored {
						break
					}
					require.True(t, ix.Remove(id, stored[id]), "Remove(%d)", id)
					assert.False(t, ix.Remove(id, stored[id]), "second Remove(%d)", id)
					delete(stored, id)
				default: // query near a centre or a stored fingerprint
					q := r.Uint64()
					if len(centres) > 0 && r.IntN(4) > 0 {
						q = flip(r, centres[r.IntN(len(centres))], r.IntN(ds.k+3))
					}
					check(q)
				}
				require.Equal(t, len(stored), ix.Len(), "Len after step %d", step)
			}
			// Final sweep: every stored fingerprint finds itself and its
			// cluster.
			for _, fp := range stored {
				check(fp)
			}
		})
	}
}

// cut returns the first k of ns, ordered by distance, and the ties of the
// k-th.
func cut(ns []Neighbor, k int) []Neighbor {
	if len(ns) <= k {
		return ns
	}
	n := k
	for n < len(ns) && ns[n].Distance == ns[k-1].Distance {
		n++
	}
	return ns[:n]
}

// TestIndexDuplicates: equal fingerprints under different IDs are all
// reported; the reserved ID panics.
func TestIndexDuplicates(t *testing.T) {
	ix, err := NewIndex(3, 0)
	require.NoError(t, err)
	for id := range uint32(600) {
		ix.Add(id, 42)
	}
	got := ix.Query(42, nil)
	require.Len(t, got, 600)
	for i, n := range got {
		assert.Equal(t, Neighbor{ID: uint32(i), Distance: 0}, n)
	}
	assert.Panics(t, func() { ix.Add(deadID, 1) })
	assert.False(t, ix.Remove(7, 43))
}

// TestIndexRepeatedEntry: a repeated (id, fp) is stored twice and reported
// once, whether it is still pending or sorted into the tables, with one
// table (K 0) or several.
func TestIndexRepeatedEntry(t *testing.T) {
	const fp = 0xdeadbeefcafef00d
	for _, k := range []int{0, 3} {
		ix, err := NewIndex(k, 0)
		require.NoError(t, err)
		ix.Add(7, fp)
		ix.Add(7, fp)
		assert.Equal(t, []Neighbor{{ID: 7}}, ix.Query(fp, nil), "pending, K %d", k)
		for id := uint32(100); id < 400; id++ { // sorts the pending entries into the tables
			ix.Add(id, uint64(id)*0x9e3779b97f4a7c15)
		}
		assert.Equal(t, 302, ix.Len())
		assert.Equal(t, []Neighbor{{ID: 7}}, ix.Query(fp, nil), "in the tables, K %d", k)
		assert.True(t, ix.Remove(7, fp))
		assert.Equal(t, []Neighbor{{ID: 7}}, ix.Query(fp, nil), "one copy left, K %d", k)
		assert.True(t, ix.Remove(7, fp))
		assert.Empty(t, ix.Query(fp, nil), "K %d", k)
	}
}

func TestQueryAllocs(t *testing.T) {
	ix, err := NewIndex(3, 0)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(3, 4))
	for id := range uint32(20000) {
		ix.Add(id, r.Uint64())
	}
	dst := make([]Neighbor, 0, 64)
	q := r.Uint64()
	allocs := testing.AllocsPerRun(100, func() { dst = ix.Query(q, dst[:0]) })
	assert.Zero(t, allocs)
	allocs = testing.AllocsPerRun(100, func() { _ = Distance(q, q+1) })
	assert.Zero(t, allocs)
}
