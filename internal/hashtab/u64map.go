// Map: 64-bit keys (hashes, mostly) to 32-bit values with open
// addressing: linear probing over 12-byte slots that hold the key and its
// value side by side, backward-shift deletion, growth at 3/4 full and
// shrinking below 1/8, so that a map follows its live keys down as well as
// up, and leaves no tombstones behind under churn. Keys are expected to be
// well mixed already; the home slot multiplies them once more so that
// adversarial keys do not cluster. A Map grows by doubling, and the old
// table is left to the collector.

package hashtab

import (
	"iter"
)

// Map is a map from uint64 keys to uint32 values. Key 0 marks an empty
// slot, so its value is kept beside the slots.
type Map struct {
	slots   []slot
	n       int // keys in slots (key 0 not counted)
	zero    uint32
	hasZero bool
}

// slot is the key in two halves (so that a slot is 12 bytes, 4-aligned)
// and its value.
type slot struct {
	lo, hi, val uint32
}

func (s *slot) key() uint64 { return uint64(s.hi)<<32 | uint64(s.lo) }

// minSlots is the smallest table: a Map never shrinks below it.
const minSlots = 16

// home returns the first slot of key.
func (m *Map) home(key uint64) int {
	return int((key * 0x9e3779b97f4a7c15) >> 32 & uint64(len(m.slots)-1))
}

// Len returns the number of keys.
func (m *Map) Len() int {
	if m.hasZero {
		return m.n + 1
	}
	return m.n
}

// Slots returns the number of slots the table holds (its memory is 12
// bytes each), for tests and memory accounting.
func (m *Map) Slots() int { return len(m.slots) }

// Get returns the value of key and whether it is present.
func (m *Map) Get(key uint64) (uint32, bool) {
	if key == 0 {
		return m.zero, m.hasZero
	}
	if m.n == 0 {
		return 0, false
	}
	mask := len(m.slots) - 1
	for i := m.home(key); ; i = (i + 1) & mask {
		s := &m.slots[i]
		switch s.key() {
		case key:
			return s.val, true
		case 0:
			return 0, false
		}
	}
}

// Ref returns a pointer to the value of key and whether key was present;
// an absent key is inserted with value 0. The pointer is valid until the
// next Ref, Set, Delete or Reserve: one probe where Get and Set take two.
func (m *Map) Ref(key uint64) (*uint32, bool) {
	if key == 0 {
		had := m.hasZero
		if !had {
			m.zero, m.hasZero = 0, true
		}
		return &m.zero, had
	}
	if len(m.slots) == 0 {
		m.resize(minSlots)
	}
	for {
		mask := len(m.slots) - 1
		i := m.home(key)
		for k := m.slots[i].key(); k != key && k != 0; k = m.slots[i].key() {
			i = (i + 1) & mask
		}
		s := &m.slots[i]
		if s.key() == key {
			return &s.val, true
		}
		if 4*(m.n+1) <= 3*len(m.slots) {
			s.lo, s.hi, s.val = uint32(key), uint32(key>>32), 0
			m.n++
			return &s.val, false
		}
		m.resize(2 * len(m.slots)) // a new key would pass 3/4 full
	}
}

// Prefetch reads the home slot of each key and returns a sum of what it
// read, which the caller keeps so that the loads are not dropped: they do
// not depend on each other, so the processor overlaps their cache misses,
// where the probes of Get and Ref, key after key, wait for one after the
// other in a table larger than the caches. Reserve room for the keys
// first when they are to be inserted, so that the table does not move
// between the prefetch and the probes.
func (m *Map) Prefetch(keys []uint64) uint32 {
	if len(m.slots) == 0 {
		return 0
	}
	var sum uint32
	for _, k := range keys {
		sum += m.slots[m.home(k)].lo
	}
	return sum
}

// Set makes val the value of key.
func (m *Map) Set(key uint64, val uint32) {
	p, _ := m.Ref(key)
	*p = val
}

// Delete removes key and reports whether it was present.
func (m *Map) Delete(key uint64) bool {
	if key == 0 {
		had := m.hasZero
		m.zero, m.hasZero = 0, false
		return had
	}
	if m.n == 0 {
		return false
	}
	mask := len(m.slots) - 1
	i := m.home(key)
	for m.slots[i].key() != key {
		if m.slots[i].key() == 0 {
			return false
		}
		i = (i + 1) & mask
	}
	// Backward-shift deletion (Knuth, TAOCP vol. 3, §6.4, Algorithm R).
	m.n--
	hole := i
	for j := (i + 1) & mask; m.slots[j].key() != 0; j = (j + 1) & mask {
		if FillsHole(hole, j, m.home(m.slots[j].key())) {
			m.slots[hole] = m.slots[j]
			hole = j
		}
	}
	m.slots[hole] = slot{}
	if len(m.slots) > minSlots && 8*m.n < len(m.slots) {
		m.resize(len(m.slots) / 2)
	}
	return true
}

// Reserve grows the table now so that n more keys fit without growing
// again: one rehash at the final size instead of several doublings.
func (m *Map) Reserve(n int) {
	size := max(minSlots, len(m.slots))
	for 4*(m.n+n) > 3*size {
		size *= 2
	}
	if size != len(m.slots) {
		m.resize(size)
	}
}

// Reset empties m and sizes it for n keys at most half full, where probes
// stay short, for a map reused once per document: O(slots). It keeps the
// table unless that is too small for n keys or over eight times the size
// they need (an outlier's), which it replaces.
func (m *Map) Reset(n int) {
	size := minSlots
	for 2*n > size {
		size *= 2
	}
	if len(m.slots) < size || len(m.slots) > 8*size {
		m.slots = FreshSlice[slot](size)
	} else {
		clear(m.slots)
	}
	m.n, m.zero, m.hasZero = 0, 0, false
}

// All yields every key and its value, in no particular order. The Map
// must not change during the iteration.
func (m *Map) All() iter.Seq2[uint64, uint32] {
	return func(yield func(uint64, uint32) bool) {
		if m.hasZero && !yield(0, m.zero) {
			return
		}
		for i := range m.slots {
			if s := &m.slots[i]; s.key() != 0 && !yield(s.key(), s.val) {
				return
			}
		}
	}
}

// FillsHole reports whether the entry in slot j, whose home slot is h,
// moves back into the empty slot hole during a backward-shift deletion
// (Knuth, TAOCP vol. 3, §6.4, Algorithm R) from a linearly probed table:
// when its home is not cyclically in (hole, j], so that a probe from h
// would stop at the hole. Every open-addressing table of the module
// deletes this way.
func FillsHole(hole, j, h int) bool {
	return (j > hole && (h <= hole || h > j)) || (j < hole && h <= hole && h > j)
}

func (m *Map) resize(size int) {
	old := m.slots
	m.slots = FreshSlice[slot](size)
	mask := size - 1
	for _, s := range old {
		k := s.key()
		if k == 0 {
			continue
		}
		i := m.home(k)
		for m.slots[i].key() != 0 {
			i = (i + 1) & mask
		}
		m.slots[i] = s
	}
}
