package codet

// Member lists. The documents of a content (group.members,
// nearContent.members) and the near-duplicate documents a group represents
// (group.nearDocs) are binary min-heaps by ID, each document's position
// recorded (Detector.docPos for the first two, Detector.docPos2 for
// nearDocs), so that a further copy in a flood of N is an O(log N) heap
// insertion and its removal an O(log N) heap deletion, and a result
// capped at k reads the k smallest IDs of a list by walking the heap from
// its root (heapCursor), O(k log k), never the N members.

import (
	"cmp"
	"slices"
)

// heapAdd pushes document idx onto the heap h and returns it.
func (d *Detector) heapAdd(h []uint32, idx uint32, pos []uint32) []uint32 {
	h = append(h, idx)
	d.siftUp(h, len(h)-1, pos)
	return h
}

// heapDel removes document idx from the heap h and returns it. idx's own
// ID is never read (the caller may have unregistered it).
func (d *Detector) heapDel(h []uint32, idx uint32, pos []uint32) []uint32 {
	i := int(pos[idx])
	if i >= len(h) || h[i] != idx {
		return h // not in h (cannot happen)
	}
	last := len(h) - 1
	if i != last {
		h[i] = h[last]
		pos[h[i]] = uint32(i)
	}
	h = h[:last]
	if i < len(h) {
		d.siftDown(h, i, pos)
		d.siftUp(h, int(pos[h[i]]), pos)
	}
	return h
}

func (d *Detector) siftUp(h []uint32, i int, pos []uint32) {
	x := h[i]
	id := d.docs.ID(x)
	for i > 0 {
		p := (i - 1) / 2
		if d.docs.ID(h[p]) <= id {
			break
		}
		h[i] = h[p]
		pos[h[i]] = uint32(i)
		i = p
	}
	h[i] = x
	pos[x] = uint32(i)
}

func (d *Detector) siftDown(h []uint32, i int, pos []uint32) {
	x := h[i]
	id := d.docs.ID(x)
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && d.docs.ID(h[c+1]) < d.docs.ID(h[c]) {
			c++
		}
		if d.docs.ID(h[c]) >= id {
			break
		}
		h[i] = h[c]
		pos[h[i]] = uint32(i)
		i = c
	}
	h[i] = x
	pos[x] = uint32(i)
}

// byID returns the documents of a heap sorted by ID, in a new slice.
func (d *Detector) byID(h []uint32) []uint32 {
	out := slices.Clone(h)
	slices.SortFunc(out, func(a, b uint32) int { return cmp.Compare(d.docs.ID(a), d.docs.ID(b)) })
	return out
}

// heapCursor yields the documents of a heap in ascending ID order without
// sorting it: front is a small min-heap (by ID) of the heap positions
// whose parents were yielded, starting from the root. Each step costs
// O(log steps).
type heapCursor struct {
	h     []uint32
	skip  uint32 // the run's near content to leave out (noGroup: none)
	front []int32
}

func (c *heapCursor) reset(h []uint32, skip uint32) {
	c.h, c.skip, c.front = h, skip, c.front[:0]
	if len(h) > 0 {
		c.front = append(c.front, 0)
	}
}

// peek returns the smallest document not yet yielded.
func (c *heapCursor) peek() (uint32, bool) {
	if len(c.front) == 0 {
		return 0, false
	}
	return c.h[c.front[0]], true
}

// next drops the document peek returned and brings in its children.
func (d *Detector) next(c *heapCursor) {
	p := c.front[0]
	f := c.front
	n := len(f) - 1
	f[0] = f[n]
	f = f[:n]
	d.frontDown(c.h, f, 0)
	for _, k := range [2]int32{2*p + 1, 2*p + 2} {
		if int(k) < len(c.h) {
			f = append(f, k)
			d.frontUp(c.h, f, len(f)-1)
		}
	}
	c.front = f
}

func (d *Detector) frontUp(h []uint32, f []int32, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if d.docs.ID(h[f[p]]) <= d.docs.ID(h[f[i]]) {
			return
		}
		f[i], f[p] = f[p], f[i]
		i = p
	}
}

func (d *Detector) frontDown(h []uint32, f []int32, i int) {
	for {
		c := 2*i + 1
		if c >= len(f) {
			return
		}
		if c+1 < len(f) && d.docs.ID(h[f[c+1]]) < d.docs.ID(h[f[c]]) {
			c++
		}
		if d.docs.ID(h[f[c]]) >= d.docs.ID(h[f[i]]) {
			return
		}
		f[i], f[c] = f[c], f[i]
		i = c
	}
}
