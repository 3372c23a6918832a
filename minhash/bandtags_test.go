package minhash

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/stretchr/testify/require"
)

func TestUnmix64(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for _, x := range []uint64{0, 1, 1 << 63, ^uint64(0)} {
		require.Equal(t, x, unmix64(hashtab.Mix64(x)))
	}
	for range 10_000 {
		x := r.Uint64()
		require.Equal(t, x, unmix64(hashtab.Mix64(x)))
	}
}

// TestBandTagsMatchChains links and unlinks groups with signatures over a
// small alphabet (so that many share a band key, and chains are long)
// into tables of 1, 2 and 4 rows, and requires every band's head to be
// the newest linked group of the key, as a Go map of chains says, after
// every step; the maps shrink back once emptied.
func TestBandTagsMatchChains(t *testing.T) {
	for _, rows := range []int{1, 2, 4} {
		r := rand.New(rand.NewPCG(3, uint64(rows)))
		const k, groups = 16, 3000
		sigs := newStrided[uint32](k, 0)
		tb := newTable(k/rows, rows, &sigs)
		chains := make([]map[uint64][]uint32, tb.bands) // oldest first
		for b := range chains {
			chains[b] = map[uint64][]uint32{}
		}
		linked := map[uint32]bool{}
		check := func() {
			for b := range tb.bands {
				n := 0
				for key, c := range chains[b] {
					h, ok := tb.get(b, key)
					require.True(t, ok)
					require.EqualValues(t, c[len(c)-1], h, "rows %d band %d", rows, b)
					n++
				}
				require.Equal(t, n, tb.heads[b].n)
				_, ok := tb.get(b, 1<<62+uint64(b))
				require.False(t, ok)
			}
		}
		for step := range 20_000 {
			g := uint32(r.IntN(groups))
			if !linked[g] {
				sigs.ensure(g)
				for i := range sigs.of(g) {
					sigs.of(g)[i] = uint32(r.IntN(3))
					if r.IntN(2) == 0 {
						sigs.of(g)[i] = r.Uint32()
					}
				}
				tb.insert(g, nil)
				linked[g] = true
				for b := range tb.bands {
					key := bandKey(sigs.of(g), b, rows)
					chains[b][key] = append(chains[b][key], g)
				}
			} else if step < 12_000 || r.IntN(4) > 0 {
				tb.remove(g)
				delete(linked, g)
				for b := range tb.bands {
					key := bandKey(sigs.of(g), b, rows)
					c := slices.DeleteFunc(chains[b][key], func(x uint32) bool { return x == g })
					if len(c) == 0 {
						delete(chains[b], key)
					} else {
						chains[b][key] = c
					}
				}
			}
			if step%499 == 0 {
				check()
			}
		}
		check()
		for g := range linked {
			tb.remove(g)
		}
		for b := range tb.bands {
			require.Zero(t, tb.heads[b].n)
			require.LessOrEqual(t, len(tb.heads[b].slots), bandTagsMin, "bandTags shrinks when emptied")
		}
	}
}

// TestBandTagsTagClash gives a slot the tag of another key, as two keys of
// a wider band with equal top halves have: find must pass over it, since
// the key of its head's signature differs.
func TestBandTagsTagClash(t *testing.T) {
	sigs := newStrided[uint32](4, 0)
	tb := newTable(2, 2, &sigs)
	for g, vals := range [][]uint32{{1, 2, 3, 4}, {5, 6, 7, 8}} {
		sigs.ensure(uint32(g))
		copy(sigs.of(uint32(g)), vals)
	}
	k0, k1 := bandKey(sigs.of(0), 0, 2), bandKey(sigs.of(1), 0, 2)
	require.NotEqual(t, k0, k1)
	tb.next.ensure(0)
	tb.prev.ensure(0)
	tb.next.ensure(1)
	tb.prev.ensure(1)
	require.EqualValues(t, -1, tb.set(0, k0, 0))
	i, ok := tb.find(0, k0)
	require.True(t, ok)
	tb.heads[0].slots[i].tag = tb.tag(k1) // group 0's slot now carries k1's tag
	_, ok = tb.get(0, k1)
	require.False(t, ok, "a tag that matches is not a key that matches")
	require.EqualValues(t, -1, tb.set(0, k1, 1))
	h, ok := tb.get(0, k1)
	require.True(t, ok)
	require.EqualValues(t, 1, h)
	require.Equal(t, 2, tb.heads[0].n)
}

// TestBandTagOneRow requires the tag of a one-row band's key to be its
// signature value up to a constant of the band: distinct values, distinct
// tags, so the tag alone decides.
func TestBandTagOneRow(t *testing.T) {
	sigs := newStrided[uint32](8, 0)
	tb := newTable(8, 1, &sigs)
	r := rand.New(rand.NewPCG(4, 4))
	for range 1000 {
		v, b := r.Uint32(), r.IntN(8)
		sig := make([]uint32, 8)
		sig[b] = v
		c := uint32(hashtab.Mix64(uint64(b)+1) * 0x9e3779b97f4a7c15)
		require.Equal(t, v^c, tb.tag(bandKey(sig, b, 1)))
	}
}

// TestTagSlotSize requires a band slot to stay 8 bytes: a tag of the key
// and the head.
func TestTagSlotSize(t *testing.T) {
	require.EqualValues(t, 8, unsafe.Sizeof(tagSlot{}))
}

// TestBandTagsGrowOnNewKeys: a band map exactly 3/4 full grows for a new
// key, not when a group joins a key it holds.
func TestBandTagsGrowOnNewKeys(t *testing.T) {
	sigs := newStrided[uint32](1, 0)
	tb := newTable(1, 1, &sigs)
	add := func(g, v uint32) {
		sigs.ensure(g)
		sigs.of(g)[0] = v
		tb.insert(g, nil)
	}
	for g := range uint32(12) {
		add(g, g)
	}
	require.Equal(t, 16, len(tb.heads[0].slots))
	add(12, 0) // the key of group 0
	require.Equal(t, 12, tb.heads[0].n)
	require.Equal(t, 16, len(tb.heads[0].slots), "a key already present grew the map")
	add(13, 100)
	require.Equal(t, 32, len(tb.heads[0].slots), "a new key past 3/4 full")
	var chain []uint32
	tb.each([]uint64{bandKey(sigs.of(0), 0, 1)}, noGroup, new(uint32), func(g uint32) { chain = append(chain, g) })
	require.Equal(t, []uint32{12, 0}, chain, "newest first")
}
