package hashtab

import (
	"maps"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestMatchesGoMap drives a Map with random Sets, Refs and Deletes over a
// small key space (long probe clusters, key 0 included) and compares it
// with a Go map after every step: Get, Len and All; it must shrink back
// once emptied.
func TestMatchesGoMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	var m Map
	ref := map[uint64]uint32{}
	for step := range 200_000 {
		key := uint64(r.IntN(3000))
		if r.IntN(3) == 0 {
			key <<= 40 // equal low bits: the multiply's high half must spread them
		}
		grow := step < 120_000
		switch op := r.IntN(5); {
		case op == 0 || (grow && op == 1):
			v := r.Uint32()
			m.Set(key, v)
			ref[key] = v
		case op == 2:
			p, had := m.Ref(key)
			_, want := ref[key]
			require.Equal(t, want, had, "Ref(%d)", key)
			require.Equal(t, ref[key], *p, "Ref(%d) of an absent key is 0", key)
			*p++
			ref[key]++
		default:
			_, want := ref[key]
			require.Equal(t, want, m.Delete(key), "Delete(%d)", key)
			delete(ref, key)
		}
		require.Equal(t, len(ref), m.Len())
		if step%997 == 0 {
			for k, v := range ref {
				got, ok := m.Get(k)
				require.True(t, ok, "Get(%d)", k)
				require.Equal(t, v, got)
			}
			_, ok := m.Get(1<<62 + 5)
			require.False(t, ok)
			require.Equal(t, ref, maps.Collect(m.All()))
		}
	}
	for k := range ref {
		require.True(t, m.Delete(k))
	}
	require.Zero(t, m.Len())
	require.LessOrEqual(t, m.Slots(), minSlots, "a Map shrinks when emptied")
}

// TestReserve requires Reserve(n) to make room for n more keys at once:
// no growth while they are set, and the values of the keys before kept.
// TestUpdateAtThreeQuarters: a table exactly 3/4 full grows for a new key,
// not for a Set or Ref of a key it holds.
func TestUpdateAtThreeQuarters(t *testing.T) {
	var m Map
	for k := range uint64(12) {
		m.Set(k+1, 1)
	}
	require.Equal(t, 16, m.Slots())
	m.Set(5, 2)
	p, had := m.Ref(7)
	require.True(t, had)
	*p = 3
	require.Equal(t, 16, m.Slots(), "updates grew the table")
	m.Set(13, 1)
	require.Equal(t, 32, m.Slots(), "a new key past 3/4 full")
	for k, want := range map[uint64]uint32{5: 2, 7: 3, 13: 1, 12: 1} {
		v, ok := m.Get(k)
		require.True(t, ok)
		require.Equal(t, want, v, "key %d", k)
	}
}

func TestReserve(t *testing.T) {
	var m Map
	for k := range uint64(100) {
		m.Set(k+1, uint32(k))
	}
	m.Reserve(10_000)
	size := m.Slots()
	require.GreaterOrEqual(t, 3*size, 4*10_100)
	for k := range uint64(10_000) {
		m.Set(k+1000, 1)
	}
	require.Equal(t, size, m.Slots(), "no growth after Reserve")
	for k := range uint64(10_000) { // updates add no key: no growth either
		m.Set(k+1000, 2)
	}
	require.Equal(t, size, m.Slots(), "no growth on updates")
	for k := range uint64(100) {
		v, ok := m.Get(k + 1)
		require.True(t, ok)
		require.EqualValues(t, k, v)
	}
}

// TestReset requires Reset(n) to empty the map (the zero key too), leave
// room for n keys without growth, and give back an outlier's table.
func TestReset(t *testing.T) {
	var m Map
	for k := range uint64(10_000) {
		m.Set(k, 1)
	}
	big := m.Slots()
	m.Reset(5_000)
	require.Zero(t, m.Len())
	require.Equal(t, big, m.Slots(), "a table of the right size is kept")
	_, ok := m.Get(0)
	require.False(t, ok, "the zero key is gone")
	m.Reset(100)
	require.Less(t, m.Slots(), big/8, "an outlier's table is replaced")
	size := m.Slots()
	for k := range uint64(100) {
		m.Set(k+1, uint32(k))
	}
	require.Equal(t, size, m.Slots(), "no growth for the n keys reset for")
	require.Equal(t, 100, m.Len())
}

// TestPrefetch requires Prefetch to read without changing anything: the
// sum of the home slots' low key halves.
func TestPrefetch(t *testing.T) {
	var m Map
	require.Zero(t, m.Prefetch([]uint64{1, 2}))
	m.Set(5, 1)
	before := m.Slots()
	sum := m.Prefetch([]uint64{5, 6, 5})
	require.Equal(t, before, m.Slots())
	require.Equal(t, 1, m.Len())
	var want uint32
	for _, k := range []uint64{5, 6, 5} {
		want += m.slots[m.home(k)].lo
	}
	require.Equal(t, want, sum)
}

// TestAllStops requires All to stop when its loop breaks.
func TestAllStops(t *testing.T) {
	var m Map
	for k := range uint64(50) {
		m.Set(k, 7)
	}
	n := 0
	for range m.All() {
		n++
		if n == 3 {
			break
		}
	}
	require.Equal(t, 3, n)
}

// TestFillsHole checks the backward-shift condition against its
// definition: the entry at j moves to the hole unless its home h lies
// cyclically in (hole, j].
func TestFillsHole(t *testing.T) {
	const size = 8
	for hole := range size {
		for j := range size {
			if j == hole {
				continue
			}
			for h := range size {
				stays := false // h in (hole, j], walking forward from hole
				for i := (hole + 1) % size; ; i = (i + 1) % size {
					if i == h {
						stays = true
					}
					if i == j {
						break
					}
				}
				require.Equal(t, !stays, FillsHole(hole, j, h), "hole %d j %d h %d", hole, j, h)
			}
		}
	}
}

// TestSlotSize requires a slot to stay 12 bytes: the key and its value in
// one slot, so that a lookup reads one cache line.
func TestSlotSize(t *testing.T) {
	require.EqualValues(t, 12, unsafe.Sizeof(slot{}))
}

// BenchmarkLookup compares Get on a Map with a Go map lookup, over a
// million random keys of which half are present.
func BenchmarkLookup(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 2))
	keys := make([]uint64, 1<<20)
	for i := range keys {
		keys[i] = r.Uint64()
	}
	var m Map
	g := map[uint64]uint32{}
	for i, k := range keys[:len(keys)/2] {
		m.Set(k, uint32(i))
		g[k] = uint32(i)
	}
	b.Run("u64map", func(b *testing.B) {
		b.ReportAllocs()
		var sum uint32
		for i := 0; b.Loop(); i++ {
			v, _ := m.Get(keys[i&(len(keys)-1)])
			sum += v
		}
		_ = sum
	})
	b.Run("gomap", func(b *testing.B) {
		b.ReportAllocs()
		var sum uint32
		for i := 0; b.Loop(); i++ {
			sum += g[keys[i&(len(keys)-1)]]
		}
		_ = sum
	})
}
