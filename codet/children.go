package codet

import "github.com/seed-9ef9c1df/neardup/internal/hashtab"

// childTable maps (parent node, term) to the child node: the edges of the
// corpus tree. A probe reads one 12-byte slot where a Go map's lookup
// takes several cache misses (docs/notes/codet.md). It is split in parts
// by the top bits of the hash, each an open-addressing table with linear
// probing that doubles on its own, so a growth under the exclusive lock
// copies one part. Deletion shifts the run back (no tombstones).
//
// No code iterates over the table, so its layout cannot change an answer.
type childTable struct {
	parts *[tableParts]childPart
}

// The parts of [childTable] and [vocabTable]: tableParts of them, chosen
// by the top tablePartBits bits of the hash, each at least tableMinSlots
// long once it holds anything.
const (
	tablePartBits = 8
	tableParts    = 1 << tablePartBits
	tableMinSlots = 16
)

// partSlots returns the slots a part needs for n entries spread over the
// parts at a load of at most 3/4, or 0 when n leaves the parts empty.
func partSlots(n int) int {
	per := n / tableParts
	if per == 0 {
		return 0
	}
	size := tableMinSlots
	for 3*size < 4*per {
		size *= 2
	}
	return size
}

// childSlot is one edge; child 0 (the root, never a child) marks an empty
// slot.
type childSlot struct {
	parent, term, child uint32
}

type childPart struct {
	slots []childSlot // a power of two long, or empty
	n     int
	// ver counts the changes of the part (insertions, deletions,
	// growths), so that a copy doubled outside the exclusive lock is
	// installed only if the part is still the one it was copied from
	// ([childTable.pregrow]).
	ver uint64
}

// makeChildTable returns an empty table sized for n edges.
func makeChildTable(n int) childTable {
	t := childTable{parts: new([tableParts]childPart)}
	if size := partSlots(n); size > 0 {
		for i := range t.parts {
			t.parts[i].slots = hashtab.FreshSlice[childSlot](size)
		}
	}
	return t
}

// childHash mixes the pair (hashtab.Mix64): the top tablePartBits bits
// choose the part, the low bits the home slot.
func childHash(parent, term uint32) uint64 {
	return hashtab.Mix64(uint64(parent)<<32 | uint64(term))
}

// get returns the child of parent labelled term.
func (t *childTable) get(parent, term uint32) (uint32, bool) {
	if t.parts == nil {
		return 0, false
	}
	h := childHash(parent, term)
	s := t.parts[h>>(64-tablePartBits)].slots
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

// home returns the home slot of the pair, to read ahead ([descent.run]); nil
// when its part is empty.
func (t *childTable) home(parent, term uint32) *childSlot {
	h := childHash(parent, term)
	s := t.parts[h>>(64-tablePartBits)].slots
	if len(s) == 0 {
		return nil
	}
	return &s[h&uint64(len(s)-1)]
}

// put sets the child of parent labelled term to child (not 0).
func (t *childTable) put(parent, term, child uint32) {
	if t.parts == nil {
		t.parts = new([tableParts]childPart)
	}
	h := childHash(parent, term)
	pt := &t.parts[h>>(64-tablePartBits)]
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
			pt.ver++
			return
		}
		if x.parent == parent && x.term == term {
			x.child = child
			return
		}
	}
}

// grow doubles the part (to tableMinSlots when empty) and reinserts its
// edges.
func (pt *childPart) grow() {
	pt.slots = doubled(pt.slots)
	pt.ver++
}

// doubled returns the edges of a part's slots in a table twice as long
// (tableMinSlots when empty).
func doubled(old []childSlot) []childSlot {
	slots := hashtab.FreshSlice[childSlot](max(tableMinSlots, 2*len(old)))
	mask := uint64(len(slots) - 1)
	for _, x := range old {
		if x.child == 0 {
			continue
		}
		i := childHash(x.parent, x.term) & mask
		for slots[i].child != 0 {
			i = (i + 1) & mask
		}
		slots[i] = x
	}
	return slots
}

// growth holds parts of the table doubled outside the exclusive lock: a
// growth's rehashing, the costly part, is done in parallel with other
// Adds. [childTable.pregrow] copies the parts under the shared lock,
// [growth.double] rehashes the copies without a lock, and
// [childTable.install] puts them in place under the exclusive lock.
type growth struct {
	parts []grownPart
	old   []childSlot // the parts' slots as copied, one after the other
}

// grownPart is a part of the table doubled outside the exclusive lock.
type grownPart struct {
	part   int
	ver    uint64
	from   *childSlot // the first slot of the array it was copied from
	lo, hi int        // its slots as copied: growth.old[lo:hi]
	slots  []childSlot
}

// pregrow copies into g every part that n insertions spread evenly over
// the parts, with a margin, would take past the load at which
// [childTable.put] doubles it. It only reads the table, so it runs under
// the shared lock. A part doubled a little before it is full changes no
// answer (no code iterates over the table).
func (t *childTable) pregrow(n int, g *growth) {
	g.reset()
	if t.parts == nil {
		return
	}
	margin := 2*n/tableParts + 2
	for i := range t.parts {
		pt := &t.parts[i]
		if 4*(pt.n+margin) > 3*len(pt.slots) {
			lo := len(g.old)
			g.old = append(g.old, pt.slots...)
			g.parts = append(g.parts, grownPart{part: i, ver: pt.ver, from: first(pt.slots), lo: lo, hi: len(g.old)})
		}
	}
}

// double rehashes the copies into tables twice as long; it needs no lock.
func (g *growth) double() {
	for i := range g.parts {
		p := &g.parts[i]
		p.slots = doubled(g.old[p.lo:p.hi])
	}
}

// reset empties g, keeping the copy buffer unless it is outsized.
func (g *growth) reset() {
	clear(g.parts)
	g.parts = g.parts[:0]
	g.old = g.old[:0]
	if cap(g.old) > scratchCap {
		g.old = nil
	}
}

// install puts in place the doubled parts of g whose part has not changed
// since it was copied: the same version of the same slot array (a
// compaction builds a new table, whose versions start again). The others
// are dropped: the part doubles under the lock when it must. It returns
// how many it installed, and empties g. The caller holds the exclusive
// lock.
func (t *childTable) install(g *growth) int {
	n := 0
	for _, p := range g.parts {
		if t.parts == nil || p.slots == nil {
			break
		}
		pt := &t.parts[p.part]
		if pt.ver == p.ver && first(pt.slots) == p.from {
			pt.slots = p.slots
			pt.ver++
			n++
		}
	}
	g.reset()
	return n
}

func first(s []childSlot) *childSlot {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

// del removes the child of parent labelled term, if any.
func (t *childTable) del(parent, term uint32) {
	if t.parts == nil {
		return
	}
	h := childHash(parent, term)
	pt := &t.parts[h>>(64-tablePartBits)]
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
	pt.ver++
}
