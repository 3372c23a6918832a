package minhash

import (
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// bandTags maps the band keys of one LSH band of a table to the newest
// group of their chain, as a [hashtab.Map] does for the exact-copy keys,
// in 8-byte slots: a 32-bit tag of the key beside the head, where the Map
// keeps the whole key in 12. The key itself is not needed: it is a
// function of the head's signature (bandKey), so a slot whose tag equals
// the key's is the key's slot exactly when the key computed again from
// its head's signature equals it ([table.find]). For one-row bands the
// tag is the band's signature value itself, which the key determines and
// is determined by, so the tag alone decides. The band maps are most of
// a Containment index (four tables, 240 bands), and a third less of them
// is a third less memory that each resize writes and that probes miss in.
//
// Open addressing with linear probing, backward-shift deletion, growth at
// 3/4 and shrinking below 1/8, as hashtab.Map. The engine's lock guards it.
// docs/notes/engine.md measures it against a hashtab.Map per band.
type bandTags struct {
	slots []tagSlot
	n     int // keys in the map
}

// bandTagsMin is the smallest bandTags: it never shrinks below it.
const bandTagsMin = 16

// tagSlot is one slot of a bandTags: head1 is the head plus one, 0 for an
// empty slot.
type tagSlot struct {
	tag, head1 uint32
}

func (m *bandTags) home(tag uint32) int {
	return int((uint64(tag) * 0x9e3779b97f4a7c15) >> 32 & uint64(len(m.slots)-1))
}

// unmix64 inverts hashtab.Mix64: unmix64(hashtab.Mix64(x)) = x.
func unmix64(x uint64) uint64 {
	x ^= x>>31 ^ x>>62
	x *= 0x319642b2d24d8ec3 // the inverse of 0x94d049bb133111eb mod 2⁶⁴
	x ^= x>>27 ^ x>>54
	x *= 0x96de1b173f119089 // the inverse of 0xbf58476d1ce4e5b9 mod 2⁶⁴
	x ^= x>>30 ^ x>>60
	return x
}

// tag returns the tag of band key key. A one-row band's key is
// hashtab.Combine(h, v) = hashtab.Mix64(h·c ⊕ v) of the band's constant h and
// the signature value v < 2³², so the low 32 bits of its inverse are
// v ⊕ (h·c's low bits): one tag per key and one key per tag. Wider bands
// take the key's top 32 bits, and find compares the key.
func (t *table) tag(key uint64) uint32 {
	if t.rows == 1 {
		return uint32(unmix64(key))
	}
	return uint32(key >> 32)
}

// find returns the slot of key in band b and true, or, if absent, the
// empty slot that ends its probe and false. The map must have slots.
func (t *table) find(b int, key uint64) (int, bool) {
	m := &t.heads[b]
	tag := t.tag(key)
	mask := len(m.slots) - 1
	for i := m.home(tag); ; i = (i + 1) & mask {
		s := &m.slots[i]
		if s.head1 == 0 {
			return i, false
		}
		if s.tag == tag && (t.rows == 1 || bandKey(t.sigs.of(s.head1-1), b, t.rows) == key) {
			return i, true
		}
	}
}

// get returns the head of key's chain in band b.
func (t *table) get(b int, key uint64) (int32, bool) {
	if t.heads[b].n == 0 {
		return -1, false
	}
	i, ok := t.find(b, key)
	if !ok {
		return -1, false
	}
	return int32(t.heads[b].slots[i].head1) - 1, true
}

// set makes head the head of key's chain in band b and returns the
// previous head, or −1.
func (t *table) set(b int, key uint64, head int32) int32 {
	m := &t.heads[b]
	if len(m.slots) == 0 {
		m.resize(bandTagsMin)
	}
	i, ok := t.find(b, key)
	if ok {
		s := &m.slots[i]
		old := int32(s.head1) - 1
		s.head1 = uint32(head) + 1
		return old
	}
	if 4*(m.n+1) > 3*len(m.slots) { // a new key would pass 3/4 full
		m.resize(2 * len(m.slots))
		i, _ = t.find(b, key)
	}
	s := &m.slots[i]
	s.tag, s.head1 = t.tag(key), uint32(head)+1
	m.n++
	return -1
}

// delete removes key from band b.
func (t *table) delete(b int, key uint64) {
	m := &t.heads[b]
	if m.n == 0 {
		return
	}
	i, ok := t.find(b, key)
	if !ok {
		return
	}
	// Backward-shift deletion (Knuth, TAOCP vol. 3, §6.4, Algorithm R).
	m.n--
	mask := len(m.slots) - 1
	hole := i
	for j := (i + 1) & mask; m.slots[j].head1 != 0; j = (j + 1) & mask {
		h := m.home(m.slots[j].tag)
		if hashtab.FillsHole(hole, j, h) {
			m.slots[hole] = m.slots[j]
			hole = j
		}
	}
	m.slots[hole] = tagSlot{}
	if len(m.slots) > bandTagsMin && 8*m.n < len(m.slots) {
		m.resize(len(m.slots) / 2)
	}
}

// resize rehashes into size slots (a power of two): from the tags alone,
// without a key or a signature.
func (m *bandTags) resize(size int) {
	old := m.slots
	m.slots = hashtab.FreshSlice[tagSlot](size)
	mask := size - 1
	for _, s := range old {
		if s.head1 == 0 {
			continue
		}
		i := m.home(s.tag)
		for m.slots[i].head1 != 0 {
			i = (i + 1) & mask
		}
		m.slots[i] = s
	}
}
