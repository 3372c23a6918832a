package minhash

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBandMapMatchesMap drives bandMap and a Go map with the same random
// sets, replacements and deletions (keys drawn from a small pool, some
// sharing low bits, so probe runs collide, wrap and shift back) and checks
// they agree after every step.
func TestBandMapMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	type bk struct {
		band int32
		key  uint64
	}
	pool := make([]bk, 300)
	for i := range pool {
		key := r.Uint64()
		if i%3 == 0 {
			key = uint64(i%7) | r.Uint64()<<20 // same low bits: long probe runs
		}
		pool[i] = bk{int32(r.IntN(4)), key}
	}
	var m bandMap
	ref := map[bk]int32{}
	for step := range 20000 {
		k := pool[r.IntN(len(pool))]
		switch op := r.IntN(3); {
		case op == 0:
			doc := int32(r.IntN(1000))
			prev, ok := ref[k]
			if !ok {
				prev = -1
			}
			require.Equal(t, prev, m.set(k.band, k.key, doc), "step %d set", step)
			ref[k] = doc
		case op == 1 && len(ref) > 0:
			if _, ok := ref[k]; ok {
				m.replace(k.band, k.key, -1)
				delete(ref, k)
			}
		default:
			if _, ok := ref[k]; ok {
				doc := int32(r.IntN(1000))
				m.replace(k.band, k.key, doc)
				ref[k] = doc
			}
		}
		require.Equal(t, len(ref), m.n, "step %d size", step)
		if step%97 == 0 {
			for _, k := range pool {
				want, ok := ref[k]
				if !ok {
					want = -1
				}
				require.Equal(t, want, m.get(k.band, k.key), "step %d get", step)
			}
		}
	}
}

func TestStridedChunks(t *testing.T) {
	s := newStrided[int32](3, -1)
	require.False(t, s.has(0))
	s.ensure(chunkDocs + 5)
	require.True(t, s.has(chunkDocs+5))
	require.Equal(t, []int32{-1, -1, -1}, s.of(chunkDocs+5))
	s.of(7)[2] = 9
	require.Equal(t, []int32{-1, -1, 9}, s.of(7))
	require.Len(t, s.chunks, 2)
}
