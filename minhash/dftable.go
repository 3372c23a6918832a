package minhash

import (
	"math"

	"github.com/seed-9ef9c1df/neardup/internal/u64map"
)

// dfTable counts documents per 64-bit key (a term or phrase hash): an
// open-addressing table with linear probing and backward-shift deletion,
// so that a key whose count returns to 0 leaves no trace, and that shrinks
// when it holds less than an eighth of its slots. It replaced two Go maps
// whose separate read and write cost two cache misses per phrase (a third
// of Weighted-mode Add on Reuters) and that never give memory back.
//
// A dfTable is not safe for concurrent use; [Stats] guards it.
type dfTable struct {
	slots []dfSlot
	n     int              // keys present, zero key included
	zero  int64            // count of key 0, kept out of the table
	big   map[uint64]int64 // counts of dfBig or more, by key (nil until one is)
	sink  uint64           // prefetch's sum, kept so that its loads stay
}

// reserve grows the table now if extra more keys could overfill it, so
// that the slots prefetch touched stay the ones inc probes.
func (t *dfTable) reserve(extra int) {
	size := max(dfMinSlots, len(t.slots))
	for 4*(t.n+extra) > 3*size {
		size *= 2
	}
	if size != len(t.slots) {
		t.resize(size)
	}
}

// prefetch reads the home slot of each key and nothing else: the loads
// are independent, so the processor overlaps their cache misses, which
// the probe loops of inc, one key after the other, would wait for one by
// one. On Reuters the phrase table outgrows the caches after a few
// thousand documents, and counting a document's phrases cost 15% of a
// Weighted-mode Add.
func (t *dfTable) prefetch(keys []uint64) {
	if len(t.slots) == 0 {
		return
	}
	var s uint64
	for _, k := range keys {
		s += uint64(t.slots[t.home(k)].lo)
	}
	t.sink = s
}

// dfSlot is one slot of a dfTable: the key in two halves and its count,
// 12 bytes where a 64-bit count made 16: the phrase tables of a Reuters
// stream are the largest structure of a Weighted-mode Detector, and a
// quarter less of them is a quarter less memory that each resize writes
// and that probes miss in. A count of dfBig or more is kept in the
// table's big map, with dfBig in the slot.
type dfSlot struct {
	lo, hi uint32 // the key; 0 = empty
	n      uint32 // the count, or dfBig: see dfTable.big
}

func (s *dfSlot) key() uint64 { return uint64(s.hi)<<32 | uint64(s.lo) }

// dfBig marks a count kept in dfTable.big. The counts of a Detector's
// statistics never reach it (they are at most its live documents, fewer
// than 2³¹), but a [Stats] may count any number of documents.
const dfBig = math.MaxUint32

// count returns the count of the key in slot s.
func (t *dfTable) count(s *dfSlot) int64 {
	if s.n == dfBig {
		return t.big[s.key()]
	}
	return int64(s.n)
}

// store sets the count of the key in slot s to c > 0.
func (t *dfTable) store(s *dfSlot, c int64) {
	k := s.key()
	if c < dfBig {
		if s.n == dfBig {
			delete(t.big, k)
		}
		s.n = uint32(c)
		return
	}
	if t.big == nil {
		t.big = make(map[uint64]int64)
	}
	s.n, t.big[k] = dfBig, c
}

// dfMinSlots is the smallest table; dfTable never shrinks below it.
const dfMinSlots = 64

// home returns the first slot of key: keys are already well mixed hashes,
// but mixing once more keeps adversarial keys from clustering.
func (t *dfTable) home(key uint64) int {
	return int((key * 0x9e3779b97f4a7c15) >> 32 & uint64(len(t.slots)-1))
}

// get returns the count of key (0 if absent).
func (t *dfTable) get(key uint64) int64 {
	if key == 0 {
		return t.zero
	}
	if len(t.slots) == 0 {
		return 0
	}
	mask := len(t.slots) - 1
	for i := t.home(key); ; i = (i + 1) & mask {
		switch s := &t.slots[i]; s.key() {
		case key:
			return t.count(s)
		case 0:
			return 0
		}
	}
}

// inc adds 1 to the count of key and returns the new count.
func (t *dfTable) inc(key uint64) int64 {
	if key == 0 {
		if t.zero == 0 {
			t.n++
		}
		t.zero++
		return t.zero
	}
	if 4*(t.n+1) > 3*len(t.slots) { // keep at most 3/4 full
		t.resize(max(dfMinSlots, 2*len(t.slots)))
	}
	mask := len(t.slots) - 1
	for i := t.home(key); ; i = (i + 1) & mask {
		switch s := &t.slots[i]; s.key() {
		case key:
			if s.n < dfBig-1 {
				s.n++
				return int64(s.n)
			}
			c := t.count(s) + 1
			t.store(s, c)
			return c
		case 0:
			*s = dfSlot{lo: uint32(key), hi: uint32(key >> 32), n: 1}
			t.n++
			return 1
		}
	}
}

// dec subtracts 1 from the count of key, removing it at 0, and returns the
// new count; an absent key stays absent and returns 0.
func (t *dfTable) dec(key uint64) int64 {
	if key == 0 {
		if t.zero == 0 {
			return 0
		}
		t.zero--
		if t.zero == 0 {
			t.n--
		}
		return t.zero
	}
	if len(t.slots) == 0 {
		return 0
	}
	mask := len(t.slots) - 1
	i := t.home(key)
	for ; ; i = (i + 1) & mask {
		switch t.slots[i].key() {
		case key:
		case 0:
			return 0
		default:
			continue
		}
		break
	}
	if s := &t.slots[i]; s.n != 1 {
		c := t.count(s) - 1
		t.store(s, c)
		return c
	}
	// Backward-shift deletion (Knuth, TAOCP vol. 3, §6.4, Algorithm R):
	// move later entries of the cluster into the hole when their home
	// does not lie cyclically in (hole, their slot].
	t.n--
	hole := i
	for j := (i + 1) & mask; t.slots[j].key() != 0; j = (j + 1) & mask {
		h := t.home(t.slots[j].key())
		if u64map.FillsHole(hole, j, h) {
			t.slots[hole] = t.slots[j]
			hole = j
		}
	}
	t.slots[hole] = dfSlot{}
	if len(t.slots) > dfMinSlots && 8*t.n < len(t.slots) {
		t.resize(len(t.slots) / 2)
	}
	return 0
}

// resize rehashes into a table of size slots (a power of two).
func (t *dfTable) resize(size int) {
	old := t.slots
	t.slots = make([]dfSlot, size)
	mask := size - 1
	for _, s := range old {
		k := s.key()
		if k == 0 {
			continue
		}
		i := t.home(k)
		for t.slots[i].key() != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}
