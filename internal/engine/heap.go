// The copy heaps keep the members of groups of exact copies, so that a
// flood of N copies of one text costs O(log N) per Add and Remove and a
// result capped at k reads O(k log k) of the group, never all N members.
//
// The members of a group are dense document indexes of a [Set],
// kept in a binary min-heap ordered by document ID, with each member's
// position in its heap recorded so that it leaves in O(log N). The k
// smallest IDs are read by walking the heap from its root: every node is
// smaller than its children, so the next smallest member not yet taken is
// always a child of one already taken, and a small frontier heap of those
// children yields the members in ascending ID order at O(log k) a step.
//
// Two layers share that code. [push], [Delete] and [cursor] work on a heap
// and a position array the caller owns (a document that sits in several
// heaps at once keeps one position array per kind of heap). [copyGroups] keeps
// numbered groups: a group of one, by far the most common, is its one
// member, which the caller stores wherever it likes (and passes back in),
// and costs nothing here; a larger group is a heap in a map.
//
// Comparisons call [Set.ID] directly: no interface or closure call
// per comparison. Nothing here is safe for concurrent mutation; the
// read-only methods may run concurrently with each other, as a detector's
// Query and Containers do under a read lock.

package engine

import (
	"cmp"
	"slices"
)

// less orders documents by ID.
func less(docs *Set, a, b uint32) bool { return docs.ID(a) < docs.ID(b) }

// Push adds the document idx to the heap h and returns the heap. pos is
// indexed by document and must have room for idx; Push records there the
// position of every member it moves.
func push(docs *Set, h []uint32, idx uint32, pos []uint32) []uint32 {
	h = append(h, idx)
	up(docs, h, len(h)-1, pos)
	return h
}

// Delete removes the document idx from the heap h and returns the heap,
// reading idx's position from pos. The ID of idx itself is never read, so
// the caller may have unregistered it already. A document that is not in
// h (its recorded position does not hold it) leaves h as it was.
func Delete(docs *Set, h []uint32, idx uint32, pos []uint32) []uint32 {
	i := int(pos[idx])
	if i >= len(h) || h[i] != idx {
		return h
	}
	last := len(h) - 1
	if i != last {
		h[i] = h[last]
		pos[h[i]] = uint32(i)
	}
	h = h[:last]
	if i < len(h) {
		m := h[i]
		down(docs, h, i, pos)
		up(docs, h, int(pos[m]), pos)
	}
	return h
}

// up moves h[i] towards the root while it is smaller than its parent.
func up(docs *Set, h []uint32, i int, pos []uint32) {
	x := h[i]
	id := docs.ID(x)
	for i > 0 {
		p := (i - 1) / 2
		if docs.ID(h[p]) <= id {
			break
		}
		h[i] = h[p]
		pos[h[i]] = uint32(i)
		i = p
	}
	h[i] = x
	pos[x] = uint32(i)
}

// down moves h[i] away from the root while a child is smaller.
func down(docs *Set, h []uint32, i int, pos []uint32) {
	x := h[i]
	id := docs.ID(x)
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && less(docs, h[c+1], h[c]) {
			c++
		}
		if docs.ID(h[c]) >= id {
			break
		}
		h[i] = h[c]
		pos[h[i]] = uint32(i)
		i = c
	}
	h[i] = x
	pos[x] = uint32(i)
}

// Cursor yields the members of one heap in ascending ID order without
// sorting it or changing it. Its zero value yields nothing; Reset starts
// it on a heap. A Cursor keeps its frontier between uses, so one reused
// for many heaps allocates only while its frontier grows.
type cursor struct {
	h     []uint32
	front []int32 // positions in h whose parents were yielded, a min-heap by ID
}

// Reset starts c at the smallest member of h.
func (c *cursor) Reset(h []uint32) {
	c.h, c.front = h, c.front[:0]
	if len(h) > 0 {
		c.front = append(c.front, 0)
	}
}

// Peek returns the smallest member not yet yielded, or false when every
// member was.
func (c *cursor) Peek() (uint32, bool) {
	if len(c.front) == 0 {
		return 0, false
	}
	return c.h[c.front[0]], true
}

// Next drops the member Peek returns: O(log k) after k steps. It must not
// be called when Peek reports false.
func (c *cursor) Next(docs *Set) {
	c.front = next(docs, c.h, c.front)
}

// next pops the root of the frontier f of heap h and pushes its children.
func next(docs *Set, h []uint32, f []int32) []int32 {
	p := f[0]
	n := len(f) - 1
	f[0] = f[n]
	f = f[:n]
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(f) {
			break
		}
		if c+1 < len(f) && less(docs, h[f[c+1]], h[f[c]]) {
			c++
		}
		if !less(docs, h[f[c]], h[f[i]]) {
			break
		}
		f[i], f[c] = f[c], f[i]
		i = c
	}
	for k := 2*p + 1; k <= 2*p+2 && int(k) < len(h); k++ {
		f = append(f, k)
		for i := len(f) - 1; i > 0; {
			q := (i - 1) / 2
			if !less(docs, h[f[i]], h[f[q]]) {
				break
			}
			f[i], f[q] = f[q], f[i]
			i = q
		}
	}
	return f
}

// Sorted returns the members of the heap h in ascending ID order, in a new
// slice.
func Sorted(docs *Set, h []uint32) []uint32 {
	out := slices.Clone(h)
	slices.SortFunc(out, func(a, b uint32) int { return cmp.Compare(docs.ID(a), docs.ID(b)) })
	return out
}
