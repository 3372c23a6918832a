package minhash

import (
	"math"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// dfTable counts documents per 64-bit key (a term or phrase hash) in a
// [hashtab.Map] of 32-bit counts: open addressing with linear probing and
// backward-shift deletion, so that a key whose count returns to 0 leaves
// no trace, and a table that shrinks when it holds less than an eighth of
// its slots: one probe per phrase reads and writes its count, and memory
// follows the live keys. A count takes 4 bytes beside its key, 12 a slot
// (the phrase tables are the largest structure of a Weighted-mode
// Detector). A count of dfBig or more is kept in the big map, with dfBig
// in the table.
//
// A dfTable is not safe for concurrent use; [Stats] guards it.
type dfTable struct {
	m    hashtab.Map      // key → count, or dfBig (see big)
	big  map[uint64]int64 // counts of dfBig or more, by key (nil until one is)
	sink uint32           // prefetch's sum, kept so that its loads stay
}

// dfBig marks a count kept in dfTable.big. The counts of a Detector's
// statistics never reach it (they are at most its live documents, fewer
// than 2³¹), but a [Stats] may count any number of documents.
const dfBig = math.MaxUint32

// reserve grows the table now if extra more keys could overfill it, so
// that the slots prefetch touched stay the ones inc probes.
func (t *dfTable) reserve(extra int) { t.m.Reserve(extra) }

// prefetch loads the home slot of each key ([hashtab.Map.Prefetch]), so
// that the cache misses of a document's keys in a table larger than the
// caches overlap instead of inc's probes waiting for them one by one.
func (t *dfTable) prefetch(keys []uint64) { t.sink = t.m.Prefetch(keys) }

// count returns the count of key, whose table value is v.
func (t *dfTable) count(key uint64, v uint32) int64 {
	if v == dfBig {
		return t.big[key]
	}
	return int64(v)
}

// store sets the count of key, whose table value *v is, to c > 0.
func (t *dfTable) store(key uint64, v *uint32, c int64) {
	if c < dfBig {
		if *v == dfBig {
			delete(t.big, key)
		}
		*v = uint32(c)
		return
	}
	if t.big == nil {
		t.big = make(map[uint64]int64)
	}
	*v, t.big[key] = dfBig, c
}

// get returns the count of key (0 if absent).
func (t *dfTable) get(key uint64) int64 {
	v, ok := t.m.Get(key)
	if !ok {
		return 0
	}
	return t.count(key, v)
}

// inc adds 1 to the count of key and returns the new count.
func (t *dfTable) inc(key uint64) int64 {
	v, _ := t.m.Ref(key) // an absent key enters at 0
	if *v < dfBig-1 {
		*v++
		return int64(*v)
	}
	c := t.count(key, *v) + 1
	t.store(key, v, c)
	return c
}

// dec subtracts 1 from the count of key, removing it at 0, and returns the
// new count; an absent key stays absent and returns 0.
func (t *dfTable) dec(key uint64) int64 {
	switch v, ok := t.m.Get(key); {
	case !ok:
		return 0
	case v == 1:
		t.m.Delete(key)
		return 0
	}
	v, _ := t.m.Ref(key)
	c := t.count(key, *v) - 1
	t.store(key, v, c)
	return c
}

// all yields every key counted and its count.
func (t *dfTable) all(yield func(key uint64, c int64) bool) {
	for k, v := range t.m.All() {
		if !yield(k, t.count(k, v)) {
			return
		}
	}
}
