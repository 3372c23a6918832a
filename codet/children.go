package codet

// childTable maps (parent node, term) to the child node: the edges of the
// corpus tree. It replaces a Go map keyed by the pair: at 160,000
// documents the tree has 7.6 million nodes, and a lookup in a map of
// that size reads its directory, a table header, a control word and a
// slot group, each a cache miss, where a probe of this table reads one
// slot (12 bytes, usually within one cache line). The table is split in
// 256 parts by the top bits of the hash, each an open-addressing table
// with linear probing that doubles on its own, so that a growth copies
// 1/256 of the edges under the exclusive lock, never the whole table.
// Deletion shifts the following entries back (no tombstones), so a probe
// never reads more than the run of its home slot.
//
// No code iterates over the table, so its layout cannot change an answer.
type childTable struct {
	parts *[childParts]childPart
}

const (
	childPartBits = 8
	childParts    = 1 << childPartBits
	childMinSlots = 16
)

// childSlot is one edge; child 0 (the root, never a child) marks an empty
// slot.
type childSlot struct {
	parent, term, child uint32
}

type childPart struct {
	slots []childSlot // a power of two long, or empty
	n     int
}

// makeChildTable returns an empty table sized for n edges.
func makeChildTable(n int) childTable {
	t := childTable{parts: new([childParts]childPart)}
	if per := n / childParts; per > 0 {
		size := childMinSlots
		for 3*size < 4*per {
			size *= 2
		}
		for i := range t.parts {
			t.parts[i].slots = make([]childSlot, size)
		}
	}
	return t
}

// childHash mixes the pair (the finaliser of MurmurHash3): the top
// childPartBits bits choose the part, the low bits the home slot.
func childHash(parent, term uint32) uint64 {
	x := uint64(parent)<<32 | uint64(term)
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// len returns the number of edges.
func (t *childTable) len() int {
	if t.parts == nil {
		return 0
	}
	n := 0
	for i := range t.parts {
		n += t.parts[i].n
	}
	return n
}

// get returns the child of parent labelled term.
func (t *childTable) get(parent, term uint32) (uint32, bool) {
	if t.parts == nil {
		return 0, false
	}
	h := childHash(parent, term)
	s := t.parts[h>>(64-childPartBits)].slots
	if len(s) == 0 {
		return 0, false
	}
	mask := uint64(len(s) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		x := &s[i]
		if x.child == 0 {
			return 0, false
		}
		if x.parent == parent && x.term == term {
			return x.child, true
		}
	}
}

// home returns the home slot of the pair, for [childTable.prefetch]; nil
// when its part is empty.
func (t *childTable) home(parent, term uint32) *childSlot {
	h := childHash(parent, term)
	s := t.parts[h>>(64-childPartBits)].slots
	if len(s) == 0 {
		return nil
	}
	return &s[h&uint64(len(s)-1)]
}

// put sets the child of parent labelled term to child (not 0).
func (t *childTable) put(parent, term, child uint32) {
	if t.parts == nil {
		t.parts = new([childParts]childPart)
	}
	h := childHash(parent, term)
	pt := &t.parts[h>>(64-childPartBits)]
	if 4*(pt.n+1) > 3*len(pt.slots) {
		pt.grow()
	}
	s := pt.slots
	mask := uint64(len(s) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		x := &s[i]
		if x.child == 0 {
			*x = childSlot{parent, term, child}
			pt.n++
			return
		}
		if x.parent == parent && x.term == term {
			x.child = child
			return
		}
	}
}

// grow doubles the part (to childMinSlots when empty) and reinserts its
// edges.
func (pt *childPart) grow() {
	old := pt.slots
	pt.slots = make([]childSlot, max(childMinSlots, 2*len(old)))
	mask := uint64(len(pt.slots) - 1)
	for _, x := range old {
		if x.child == 0 {
			continue
		}
		i := childHash(x.parent, x.term) & mask
		for pt.slots[i].child != 0 {
			i = (i + 1) & mask
		}
		pt.slots[i] = x
	}
}

// del removes the child of parent labelled term, if any.
func (t *childTable) del(parent, term uint32) {
	if t.parts == nil {
		return
	}
	h := childHash(parent, term)
	pt := &t.parts[h>>(64-childPartBits)]
	s := pt.slots
	if len(s) == 0 {
		return
	}
	mask := uint64(len(s) - 1)
	i := h & mask
	for {
		x := &s[i]
		if x.child == 0 {
			return
		}
		if x.parent == parent && x.term == term {
			break
		}
		i = (i + 1) & mask
	}
	// Shift back every following entry of the run that may move to the
	// hole: one whose home slot is not cyclically in (hole, its slot].
	for j := (i + 1) & mask; s[j].child != 0; j = (j + 1) & mask {
		k := childHash(s[j].parent, s[j].term) & mask
		if (j > i && (k <= i || k > j)) || (j < i && k <= i && k > j) {
			s[i] = s[j]
			i = j
		}
	}
	s[i] = childSlot{}
	pt.n--
}
