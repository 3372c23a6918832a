package minhash

// bandMap maps the band keys of one LSH band to the newest document of
// their chain: open addressing with linear probing over parallel key and
// value arrays (12 bytes a slot), backward-shift deletion, growth at 3/4
// and shrinking below 1/8, so that a window of documents keeps a table
// of its own size. One probe, usually one cache line, where a Go map
// lookup and assignment cost a third of Add in the peer benchmark.
//
// A bandMap is not safe for concurrent use; the Detector's lock guards it.
type bandMap struct {
	keys  []uint64 // 0 = empty slot
	heads []int32
	n     int   // keys in the table, not counting key 0
	zero  int32 // head of key 0, −1 if absent
}

const bandMapMin = 16

func newBandMap() bandMap { return bandMap{zero: -1} }

func (m *bandMap) home(key uint64) int {
	return int((key * 0x9e3779b97f4a7c15) >> 32 & uint64(len(m.keys)-1))
}

// get returns the head of key's chain.
func (m *bandMap) get(key uint64) (int32, bool) {
	if key == 0 {
		return m.zero, m.zero >= 0
	}
	if m.n == 0 {
		return -1, false
	}
	mask := len(m.keys) - 1
	for i := m.home(key); ; i = (i + 1) & mask {
		switch m.keys[i] {
		case key:
			return m.heads[i], true
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
	if 4*(m.n+1) > 3*len(m.keys) {
		m.resize(max(bandMapMin, 2*len(m.keys)))
	}
	mask := len(m.keys) - 1
	for i := m.home(key); ; i = (i + 1) & mask {
		switch m.keys[i] {
		case key:
			old := m.heads[i]
			m.heads[i] = head
			return old
		case 0:
			m.keys[i], m.heads[i] = key, head
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
	mask := len(m.keys) - 1
	i := m.home(key)
	for m.keys[i] != key {
		if m.keys[i] == 0 {
			return
		}
		i = (i + 1) & mask
	}
	// Backward-shift deletion (Knuth, TAOCP vol. 3, §6.4, Algorithm R).
	m.n--
	hole := i
	for j := (i + 1) & mask; m.keys[j] != 0; j = (j + 1) & mask {
		h := m.home(m.keys[j])
		if (j > hole && (h <= hole || h > j)) || (j < hole && h <= hole && h > j) {
			m.keys[hole], m.heads[hole] = m.keys[j], m.heads[j]
			hole = j
		}
	}
	m.keys[hole], m.heads[hole] = 0, 0
	if len(m.keys) > bandMapMin && 8*m.n < len(m.keys) {
		m.resize(len(m.keys) / 2)
	}
}

func (m *bandMap) resize(size int) {
	oldKeys, oldHeads := m.keys, m.heads
	m.keys, m.heads = make([]uint64, size), make([]int32, size)
	mask := size - 1
	for j, k := range oldKeys {
		if k == 0 {
			continue
		}
		i := m.home(k)
		for m.keys[i] != 0 {
			i = (i + 1) & mask
		}
		m.keys[i], m.heads[i] = k, oldHeads[j]
	}
}
