package shingle

import (
	"cmp"
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/matches"
)

// noGroup marks a document in no group (a text without words) and the
// absence of a group; noDoc is no document.
const (
	noGroup = math.MaxUint32
	noDoc   = math.MaxUint32
)

// groups is the membership of the groups of exact copies: documents whose
// features (the shingle set, DSC sample and size, or spot-signature
// multiset and token digest) are equal share one group, and the search
// index holds groups, not documents. A group of one keeps its member in
// first; the members of a larger group form a binary min-heap by ID, so
// that the k smallest IDs are read in O(k log k) whatever the group's
// size (see smallest) and a member joins or leaves in O(log c).
type groups struct {
	docs  *docset.Set
	refs  []uint32            // by document: its group, or noGroup
	pos   []uint32            // by document: its place in its group's heap
	first []uint32            // by group: the member of a group of one
	heaps map[uint32][]uint32 // groups of two or more: members, a heap by ID
	free  []uint32            // free group numbers
	live  int                 // live groups
}

func newGroups(docs *docset.Set) *groups {
	return &groups{docs: docs, heaps: map[uint32][]uint32{}}
}

// of returns the group of document idx, or noGroup.
func (gs *groups) of(idx uint32) uint32 {
	if int(idx) >= len(gs.refs) {
		return noGroup
	}
	return gs.refs[idx]
}

func (gs *groups) grow(idx uint32) {
	for int(idx) >= len(gs.refs) {
		gs.refs = append(gs.refs, noGroup)
		gs.pos = append(gs.pos, 0)
	}
}

// bare records document idx as in no group.
func (gs *groups) bare(idx uint32) {
	gs.grow(idx)
	gs.refs[idx] = noGroup
}

// open makes a new group whose one member is idx and returns its number,
// reusing a freed one first.
func (gs *groups) open(idx uint32) uint32 {
	gs.grow(idx)
	var g uint32
	if n := len(gs.free); n > 0 {
		g, gs.free = gs.free[n-1], gs.free[:n-1]
		gs.first[g] = idx
	} else {
		g = uint32(len(gs.first))
		gs.first = append(gs.first, idx)
	}
	gs.refs[idx] = g
	gs.live++
	return g
}

// cap returns one more than the largest group number in use.
func (gs *groups) cap() int { return len(gs.first) }

// size returns the number of members of the live group g.
func (gs *groups) size(g uint32) int {
	if h, ok := gs.heaps[g]; ok {
		return len(h)
	}
	return 1
}

// join adds document idx to the live group g.
func (gs *groups) join(g, idx uint32) {
	gs.grow(idx)
	gs.refs[idx] = g
	h, ok := gs.heaps[g]
	if !ok {
		h = []uint32{gs.first[g]}
		gs.pos[h[0]] = 0
	}
	h = append(h, idx)
	gs.up(h, len(h)-1)
	gs.heaps[g] = h
}

// leave takes document idx out of its group and reports whether the group
// is now empty (idx was its last member), in which case its number is
// freed and the caller drops it from the search index.
func (gs *groups) leave(idx uint32) (g uint32, last bool) {
	g = gs.refs[idx]
	gs.refs[idx] = noGroup
	if g == noGroup {
		return g, false
	}
	h, ok := gs.heaps[g]
	if !ok {
		gs.first[g] = noDoc
		gs.free = append(gs.free, g)
		gs.live--
		return g, true
	}
	i := int(gs.pos[idx])
	end := len(h) - 1
	h[i] = h[end]
	h = h[:end]
	if i < len(h) {
		m := h[i]
		gs.pos[m] = uint32(i)
		gs.down(h, i)
		gs.up(h, int(gs.pos[m]))
	}
	if len(h) == 1 {
		gs.first[g] = h[0]
		delete(gs.heaps, g)
		return g, false
	}
	if cap(h) > 64 && len(h) < cap(h)/4 {
		h = slices.Clone(h) // the end of a flood gives its memory back
	}
	gs.heaps[g] = h
	return g, false
}

// less orders documents by ID.
func (gs *groups) less(a, b uint32) bool { return gs.docs.ID(a) < gs.docs.ID(b) }

func (gs *groups) up(h []uint32, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !gs.less(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		gs.pos[h[i]] = uint32(i)
		i = p
	}
	gs.pos[h[i]] = uint32(i)
}

func (gs *groups) down(h []uint32, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if r := c + 1; r < len(h) && gs.less(h[r], h[c]) {
			c = r
		}
		if !gs.less(h[c], h[i]) {
			break
		}
		h[i], h[c] = h[c], h[i]
		gs.pos[h[i]] = uint32(i)
		i = c
	}
	gs.pos[h[i]] = uint32(i)
}

// members appends the members of the live group g to dst, unordered.
func (gs *groups) members(dst []uint32, g uint32) []uint32 {
	if h, ok := gs.heaps[g]; ok {
		return append(dst, h...)
	}
	return append(dst, gs.first[g])
}

// sortedIDs returns the IDs of the members of g, ascending.
func (gs *groups) sortedIDs(g uint32) []string {
	idxs := gs.members(nil, g)
	out := make([]string, len(idxs))
	for i, o := range idxs {
		out[i] = gs.docs.ID(o)
	}
	slices.Sort(out)
	return out
}

// smallest appends a Match of score for each of the n members of the live
// group g with the smallest IDs, skip left out. It pops the heap's
// positions in ID order from a frontier that starts at the root and grows
// by the children of each position taken, so it reads O(n) positions of
// the heap whatever its size.
func (gs *groups) smallest(dst []detector.Match, g uint32, n int, skip uint32, score float64) []detector.Match {
	h, ok := gs.heaps[g]
	if !ok {
		if m := gs.first[g]; m != skip && n > 0 {
			dst = append(dst, detector.Match{ID: gs.docs.ID(m), Score: score})
		}
		return dst
	}
	if n >= len(h) {
		for _, m := range h {
			if m != skip {
				dst = append(dst, detector.Match{ID: gs.docs.ID(m), Score: score})
			}
		}
		return dst
	}
	// front is a min-heap, by the ID of h[p], of heap positions p.
	front := []int{0}
	lessAt := func(a, b int) bool { return gs.less(h[front[a]], h[front[b]]) }
	for taken := 0; taken < n && len(front) > 0; {
		p := front[0]
		end := len(front) - 1
		front[0] = front[end]
		front = front[:end]
		siftDown(len(front), 0, lessAt, func(a, b int) { front[a], front[b] = front[b], front[a] })
		if h[p] != skip {
			dst = append(dst, detector.Match{ID: gs.docs.ID(h[p]), Score: score})
			taken++
		}
		for c := 2*p + 1; c <= 2*p+2 && c < len(h); c++ {
			front = append(front, c)
			for i := len(front) - 1; i > 0; {
				par := (i - 1) / 2
				if !lessAt(i, par) {
					break
				}
				front[i], front[par] = front[par], front[i]
				i = par
			}
		}
	}
	return dst
}

// siftDown restores the heap property of a heap of n elements below i.
func siftDown(n, i int, less func(a, b int) bool, swap func(a, b int)) {
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if r := c + 1; r < n && less(r, c) {
			c = r
		}
		if !less(c, i) {
			return
		}
		swap(i, c)
		i = c
	}
}

// collect returns the members of the groups hits name, each with its
// group's score, other than skip: the first limit of them by
// [detector.SortMatches]. Scores are taken from the highest down, and at
// each score a group gives at most as many of its smallest IDs as places
// remain, so a group of c exact copies costs O(limit log limit), not
// O(c).
func (gs *groups) collect(hits []hit, skip uint32, limit int) []detector.Match {
	slices.SortFunc(hits, func(a, b hit) int { return cmp.Compare(b.score, a.score) })
	out := []detector.Match{}
	for i := 0; i < len(hits) && len(out) < limit; {
		j := i
		for j < len(hits) && hits[j].score == hits[i].score {
			j++
		}
		room := limit - len(out)
		for _, h := range hits[i:j] {
			n := room
			if skip != noDoc && gs.of(skip) == h.idx && n < gs.size(h.idx) {
				n++ // skip takes no place
			}
			out = gs.smallest(out, h.idx, n, skip, h.score)
		}
		i = j
	}
	return matches.Top(out, limit)
}
