package mrcosine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBucketsMatchMap drives the bucket table and a map of lists with the
// same random adds and removes (few keys, so probe runs and backward
// shifts are frequent) and compares them after every step.
func TestBucketsMatchMap(t *testing.T) {
	type bk struct {
		b   uint32
		key uint64
	}
	rng := rand.New(rand.NewPCG(1, 2))
	tab := make(buckets, 5)
	ref := map[bk][]uint32{}
	for step := range 20000 {
		k := bk{uint32(rng.IntN(5)), uint64(rng.IntN(300))}
		if l := ref[k]; len(l) > 0 && rng.IntN(2) == 0 {
			idx := l[rng.IntN(len(l))]
			tab[k.b].Remove(k.key, idx)
			tab[k.b].Shrink()
			i := slices.Index(l, idx)
			ref[k] = slices.Delete(l, i, i+1)
			if len(ref[k]) == 0 {
				delete(ref, k)
			}
		} else {
			idx := uint32(step)
			tab[k.b].Add(k.key, idx)
			ref[k] = append(ref[k], idx)
		}
		if step%97 == 0 || step > 19900 {
			require.Equal(t, len(ref), tab.keys(), "step %d", step)
			for k, want := range ref {
				var one [1]uint32
				assert.ElementsMatch(t, want, tab[k.b].Get(k.key, &one), "step %d key %v", step, k)
			}
		}
	}
	for k, l := range ref {
		for _, idx := range l {
			tab[k.b].Remove(k.key, idx)
			tab[k.b].Shrink()
		}
	}
	assert.Zero(t, tab.keys())
	assert.LessOrEqual(t, tab.slots(), 5*16, "the emptied maps shrink")
	assert.Zero(t, tab.lists(), "emptied lists are forgotten")
	var one [1]uint32
	assert.Nil(t, tab[1].Get(1, &one))
}

// slots returns the slots of the band tables, for tests of memory.
func (t buckets) slots() int {
	n := 0
	for b := range t {
		n += t[b].Slots()
	}
	return n
}

// lists returns the list IDs of the bands, in use or free.
func (t buckets) lists() int {
	n := 0
	for b := range t {
		n += t[b].Lists()
	}
	return n
}

// eachList calls fn for every key of every band with its list.
func (t buckets) eachList(fn func(b uint32, key uint64, l []uint32)) {
	for b := range t {
		for k, l := range t[b].All() {
			fn(uint32(b), k, l)
		}
	}
}

// keys returns the number of (band, key) pairs held.
func (t buckets) keys() int {
	n := 0
	for b := range t {
		n += t[b].Len()
	}
	return n
}
