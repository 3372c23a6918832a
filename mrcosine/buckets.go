package mrcosine

import (
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// buckets maps (band, key) to the documents holding that band key: one
// open-addressing table with linear probing for all bands (a Go map per
// band costs several times more per lookup, which is most of an Add), and
// a posting list per occupied slot. Emptied slots are deleted by backward
// shifting, so the table holds only occupied keys; it shrinks when a
// quarter of its slots or fewer are in use.
//
// The posting lists are packed per slot; engine.DeletePosting works on Go
// maps of lists and does not apply.
type buckets struct {
	key   []uint64
	band  []uint32 // band+1; 0 marks an empty slot
	list  [][]uint32
	mask  uint64
	used  int
	empty [][]uint32 // emptied lists kept for reuse, bounded
}

func slotHash(b uint32, key uint64) uint64 { return hashtab.Mix64(key ^ uint64(b)*0x9e3779b97f4a7c15) }

// get returns the list of (b, key), nil if none.
func (t *buckets) get(b uint32, key uint64) []uint32 {
	if t.used == 0 {
		return nil
	}
	for s := slotHash(b, key) & t.mask; ; s = (s + 1) & t.mask {
		switch t.band[s] {
		case 0:
			return nil
		case b + 1:
			if t.key[s] == key {
				return t.list[s]
			}
		}
	}
}

// add appends idx to the list of (b, key).
func (t *buckets) add(b uint32, key uint64, idx uint32) {
	if 2*(t.used+1) > len(t.key) {
		t.resize(max(64, 2*len(t.key)))
	}
	for s := slotHash(b, key) & t.mask; ; s = (s + 1) & t.mask {
		switch t.band[s] {
		case 0:
			t.key[s], t.band[s] = key, b+1
			var l []uint32
			if n := len(t.empty); n > 0 {
				l, t.empty = t.empty[n-1], t.empty[:n-1]
			}
			t.list[s] = append(l, idx)
			t.used++
			return
		case b + 1:
			if t.key[s] == key {
				t.list[s] = append(t.list[s], idx)
				return
			}
		}
	}
}

// remove deletes idx from the list of (b, key), and the key when its list
// becomes empty.
func (t *buckets) remove(b uint32, key uint64, idx uint32) {
	if t.used == 0 {
		return
	}
	s := slotHash(b, key) & t.mask
	for ; ; s = (s + 1) & t.mask {
		if t.band[s] == 0 {
			return
		}
		if t.band[s] == b+1 && t.key[s] == key {
			break
		}
	}
	l := t.list[s]
	if i := slices.Index(l, idx); i >= 0 {
		l[i] = l[len(l)-1] // lists are sets: results are sorted by score and ID
		l = l[:len(l)-1]
	}
	if len(l) > 0 {
		t.list[s] = l
		return
	}
	if len(t.empty) < 1024 && cap(l) <= 64 {
		t.empty = append(t.empty, l)
	}
	// Backward-shift deletion keeps every key reachable from its home slot.
	t.used--
	for {
		t.band[s], t.list[s] = 0, nil
		n := s
		for {
			n = (n + 1) & t.mask
			if t.band[n] == 0 {
				if 8*t.used < len(t.key) && len(t.key) > 64 {
					t.resize(len(t.key) / 2)
				}
				return
			}
			home := slotHash(t.band[n]-1, t.key[n]) & t.mask
			// Move n back to s unless its home lies cyclically in (s, n].
			if (n-home)&t.mask >= (n-s)&t.mask {
				break
			}
		}
		t.key[s], t.band[s], t.list[s] = t.key[n], t.band[n], t.list[n]
		s = n
	}
}

// resize rehashes into a table of size slots (a power of two).
func (t *buckets) resize(size int) {
	key, band, list := t.key, t.band, t.list
	t.key, t.band, t.list = make([]uint64, size), hashtab.FreshSlice[uint32](size), make([][]uint32, size)
	t.mask = uint64(size - 1)
	for i, b := range band {
		if b == 0 {
			continue
		}
		s := slotHash(b-1, key[i]) & t.mask
		for t.band[s] != 0 {
			s = (s + 1) & t.mask
		}
		t.key[s], t.band[s], t.list[s] = key[i], b, list[i]
	}
}
