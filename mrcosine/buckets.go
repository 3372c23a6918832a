package mrcosine

import (
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// buckets maps (band, key) to the documents holding that band key: per
// band a hashtab.Map from the key to the number of its list. A list
// emptied by removals leaves its map, and its number (with its array, when
// short) is reused by the next new key; once emptied lists are three
// quarters of all, the live ones are renumbered, so that memory follows
// the live keys. Lists are sets: their order is that of the Adds and
// removals, and results are sorted by score and ID.
type buckets struct {
	bands []hashtab.Map // by band: key → its list's number in lists
	lists [][]uint32
	free  []uint32 // numbers of emptied lists, reused first
	used  int      // keys held, over all bands
}

// get returns the list of (b, key), nil if none.
func (t *buckets) get(b uint32, key uint64) []uint32 {
	if int(b) >= len(t.bands) {
		return nil
	}
	if n, ok := t.bands[b].Get(key); ok {
		return t.lists[n]
	}
	return nil
}

// add appends idx to the list of (b, key).
func (t *buckets) add(b uint32, key uint64, idx uint32) {
	for int(b) >= len(t.bands) {
		t.bands = append(t.bands, hashtab.Map{})
	}
	p, ok := t.bands[b].Ref(key)
	if !ok {
		n, reused := hashtab.Pop(&t.free)
		if !reused {
			n = uint32(len(t.lists))
			t.lists = append(t.lists, nil)
		}
		*p = n
		t.used++
	}
	t.lists[*p] = append(t.lists[*p], idx)
}

// remove deletes idx from the list of (b, key), and the key when its list
// becomes empty.
func (t *buckets) remove(b uint32, key uint64, idx uint32) {
	if int(b) >= len(t.bands) {
		return
	}
	n, ok := t.bands[b].Get(key)
	if !ok {
		return
	}
	l := t.lists[n]
	if i := slices.Index(l, idx); i >= 0 {
		l[i] = l[len(l)-1]
		l = l[:len(l)-1]
	}
	t.lists[n] = l
	if len(l) > 0 {
		return
	}
	t.bands[b].Delete(key)
	t.used--
	if cap(l) > 64 {
		t.lists[n] = nil // a flood's list: give its memory back
	}
	t.free = append(t.free, n)
	if len(t.free) > 64 && 4*len(t.free) > 3*len(t.lists) {
		t.compact()
	}
}

// compact renumbers the live lists from 0 and forgets the emptied ones:
// O(keys), after at least as many removals.
func (t *buckets) compact() {
	lists := make([][]uint32, 0, t.used)
	var keys []uint64
	for b := range t.bands {
		m := &t.bands[b]
		keys = keys[:0]
		for k := range m.All() {
			keys = append(keys, k)
		}
		for _, k := range keys {
			p, _ := m.Ref(k)
			lists = append(lists, t.lists[*p])
			*p = uint32(len(lists) - 1)
		}
	}
	t.lists, t.free = lists, nil
}
