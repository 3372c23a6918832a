package minhash

// chunkShift sets the documents per chunk of a strided store: 256.
const (
	chunkShift = 8
	chunkDocs  = 1 << chunkShift
	chunkMask  = chunkDocs - 1
)

// strided holds a fixed number of values per dense document index in
// chunks of chunkDocs documents. Growing it allocates one chunk and never
// copies, where a doubling slice copies everything it holds and touches
// twice the memory at each step (a third of Add's time on 5,000 Reuters
// documents went to growing the signature array).
type strided[T comparable] struct {
	per    int
	fill   T // initial value of new entries
	chunks [][]T
}

func newStrided[T comparable](per int, fill T) strided[T] {
	return strided[T]{per: per, fill: fill}
}

// ensure makes doc addressable.
func (s *strided[T]) ensure(doc uint32) {
	for int(doc>>chunkShift) >= len(s.chunks) {
		c := make([]T, s.per*chunkDocs)
		var zero T
		if s.fill != zero {
			for i := range c {
				c[i] = s.fill
			}
		}
		s.chunks = append(s.chunks, c)
	}
}

// of returns the values of doc, which must have been ensured.
func (s *strided[T]) of(doc uint32) []T {
	c := s.chunks[doc>>chunkShift]
	i := int(doc&chunkMask) * s.per
	return c[i : i+s.per : i+s.per]
}

// has reports whether doc has been ensured.
func (s *strided[T]) has(doc uint32) bool { return int(doc>>chunkShift) < len(s.chunks) }

// bandMap maps (band, key) to the first document of a chain: one
// open-addressing table with linear probing for all bands of a table, in
// place of a Go map per band (whose growth and probing were a sixth of
// Add's time). Band keys are already well mixed hashes, so their low bits
// index the table directly.
type bandMap struct {
	slots []bandSlot
	n     int
}

type bandSlot struct {
	key  uint64
	band int32
	head int32 // first document of the chain + 1; 0 marks a free slot
}

const bandMapMinSize = 64

// lookup returns the slot index of (band, key), or of the free slot where
// it would go, and whether it is present.
func (m *bandMap) lookup(band int32, key uint64) (int, bool) {
	mask := len(m.slots) - 1
	for i := int(key) & mask; ; i = (i + 1) & mask {
		s := &m.slots[i]
		if s.head == 0 {
			return i, false
		}
		if s.key == key && s.band == band {
			return i, true
		}
	}
}

// get returns the head of (band, key), or −1.
func (m *bandMap) get(band int32, key uint64) int32 {
	if m.n == 0 {
		return -1
	}
	i, ok := m.lookup(band, key)
	if !ok {
		return -1
	}
	return m.slots[i].head - 1
}

// set makes doc the head of (band, key) and returns the previous head, or
// −1.
func (m *bandMap) set(band int32, key uint64, doc int32) int32 {
	if 2*(m.n+1) > len(m.slots) {
		m.grow()
	}
	i, ok := m.lookup(band, key)
	s := &m.slots[i]
	prev := s.head - 1
	if !ok {
		*s = bandSlot{key: key, band: band}
		m.n++
	}
	s.head = doc + 1
	return prev
}

// replace sets the head of the present (band, key) to doc, or deletes the
// entry when doc is −1 (backward-shift deletion keeps every probe
// sequence unbroken without tombstones).
func (m *bandMap) replace(band int32, key uint64, doc int32) {
	i, ok := m.lookup(band, key)
	if !ok {
		return
	}
	if doc >= 0 {
		m.slots[i].head = doc + 1
		return
	}
	mask := len(m.slots) - 1
	for j := (i + 1) & mask; m.slots[j].head != 0; j = (j + 1) & mask {
		// Move slot j back to the hole at i unless its home lies in (i, j].
		home := int(m.slots[j].key) & mask
		if (j-home)&mask >= (j-i)&mask {
			m.slots[i] = m.slots[j]
			i = j
		}
	}
	m.slots[i] = bandSlot{}
	m.n--
}

func (m *bandMap) grow() {
	old := m.slots
	m.slots = make([]bandSlot, max(bandMapMinSize, 2*len(old)))
	mask := len(m.slots) - 1
	for _, s := range old {
		if s.head == 0 {
			continue
		}
		i := int(s.key) & mask
		for m.slots[i].head != 0 {
			i = (i + 1) & mask
		}
		m.slots[i] = s
	}
}
