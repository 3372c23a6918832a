package minhash

// bandMap maps 64-bit keys to an int32 head (the index's exact-copy map;
// the LSH bands use [bandTags], which keeps a tag of the key only): open
// addressing with linear probing over 12-byte slots that hold the key and
// its head side by side, backward-shift deletion,
// growth at 3/4 and shrinking below 1/8, so that a window of documents
// keeps a table of its own size. One probe, usually one cache line, where
// a Go map lookup and assignment cost a third of Add in the peer
// benchmark; with the key and the head in one slot a lookup that hits
// reads one cache line, where parallel key and head arrays read two (the
// tables of a Containment index are far larger than the caches, so each
// is a miss).
//
// A bandMap is not safe for concurrent use; the Detector's lock guards it.
type bandMap struct {
	slots []bandSlot // key 0 = empty slot
	n     int        // keys in the table, not counting key 0
	zero  int32      // head of key 0, −1 if absent
}

// bandSlot is one slot of a bandMap: the key in two halves (so that the
// slot is 12 bytes, 4-aligned) and the head of its chain.
type bandSlot struct {
	lo, hi uint32
	head   int32
}

func (s *bandSlot) key() uint64 { return uint64(s.hi)<<32 | uint64(s.lo) }

func (s *bandSlot) put(key uint64, head int32) {
	s.lo, s.hi, s.head = uint32(key), uint32(key>>32), head
}

const bandMapMin = 16

func newBandMap() bandMap { return bandMap{zero: -1} }

func (m *bandMap) home(key uint64) int {
	return int((key * 0x9e3779b97f4a7c15) >> 32 & uint64(len(m.slots)-1))
}

// get returns the head of key's chain.
func (m *bandMap) get(key uint64) (int32, bool) {
	if key == 0 {
		return m.zero, m.zero >= 0
	}
	if m.n == 0 {
		return -1, false
	}
	mask := len(m.slots) - 1
	for i := m.home(key); ; i = (i + 1) & mask {
		s := &m.slots[i]
		switch s.key() {
		case key:
			return s.head, true
		case 0:
			return -1, false
		}
	}
}

// set makes head the head of key's chain and returns the previous head,
// or −1.
func (m *bandMap) set(key uint64, head int32) int32 {
	if key == 0 {
		old := m.zero
		m.zero = head
		return old
	}
	if 4*(m.n+1) > 3*len(m.slots) {
		m.resize(max(bandMapMin, 2*len(m.slots)))
	}
	mask := len(m.slots) - 1
	for i := m.home(key); ; i = (i + 1) & mask {
		s := &m.slots[i]
		switch s.key() {
		case key:
			old := s.head
			s.head = head
			return old
		case 0:
			s.put(key, head)
			m.n++
			return -1
		}
	}
}

// delete removes key.
func (m *bandMap) delete(key uint64) {
	if key == 0 {
		m.zero = -1
		return
	}
	if m.n == 0 {
		return
	}
	mask := len(m.slots) - 1
	i := m.home(key)
	for m.slots[i].key() != key {
		if m.slots[i].key() == 0 {
			return
		}
		i = (i + 1) & mask
	}
	// Backward-shift deletion (Knuth, TAOCP vol. 3, §6.4, Algorithm R).
	m.n--
	hole := i
	for j := (i + 1) & mask; m.slots[j].key() != 0; j = (j + 1) & mask {
		h := m.home(m.slots[j].key())
		if fillsHole(hole, j, h) {
			m.slots[hole] = m.slots[j]
			hole = j
		}
	}
	m.slots[hole] = bandSlot{}
	if len(m.slots) > bandMapMin && 8*m.n < len(m.slots) {
		m.resize(len(m.slots) / 2)
	}
}

// fillsHole reports whether the entry in slot j, whose home slot is h,
// moves back into the empty slot hole during a backward-shift deletion
// (Knuth, TAOCP vol. 3, §6.4, Algorithm R): when its home is not
// cyclically in (hole, j], so that a probe from h would stop at the hole.
// The open-addressing tables of this package (bandMap, bandTags, dfTable)
// all delete this way.
func fillsHole(hole, j, h int) bool {
	return (j > hole && (h <= hole || h > j)) || (j < hole && h <= hole && h > j)
}

func (m *bandMap) resize(size int) {
	old := m.slots
	m.slots = make([]bandSlot, size)
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
