package engine

import (
	"cmp"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// CopyGroups keeps the members of numbered groups of exact copies. The caller
// numbers the groups (any uint32 key: a group number, or a representative
// document) and stores the member of each group of one itself, passing it
// back in as first; CopyGroups holds the groups of two or more, each a heap by
// ID, and the position of each of their members. Make one with
// [NewCopyGroups].
type copyGroups struct {
	docs  *Set
	heaps map[uint32][]uint32 // groups of two or more: members, a heap by ID
	pos   []uint32            // by document: its position in its group's heap
	held  int                 // documents in heaps
	peak  int                 // the most keys heaps held since it was last rebuilt
}

// NewCopyGroups returns empty CopyGroups whose members are documents of
// docs, ordered by their IDs there.
func newCopyGroups(docs *Set) copyGroups {
	return copyGroups{docs: docs, heaps: map[uint32][]uint32{}}
}

// Size returns the number of members of the live group g: 1 unless g has
// two or more.
func (s *copyGroups) Size(g uint32) int {
	if h, ok := s.heaps[g]; ok {
		return len(h)
	}
	return 1
}

// Len returns the number of groups of two or more members.
func (s *copyGroups) Len() int { return len(s.heaps) }

// Held returns the number of documents in groups of two or more members.
func (s *copyGroups) Held() int { return s.held }

// Join adds the document idx to the live group g, whose only member is
// first when it has one member: O(log c) for a group of c members.
func (s *copyGroups) Join(g, first, idx uint32) {
	if n := int(max(first, idx)) + 1; n > len(s.pos) {
		s.pos = append(s.pos, make([]uint32, n-len(s.pos))...)
	}
	h, ok := s.heaps[g]
	if !ok {
		h = []uint32{first}
		s.pos[first] = 0
		s.held++
	}
	s.heaps[g] = push(s.docs, h, idx, s.pos)
	s.held++
	s.peak = max(s.peak, len(s.heaps))
}

// Leave removes the document idx from the live group g, which has two or
// more members (a group of one is the caller's to drop), in O(log c).
// When one member remains, Leave forgets the group and returns that
// member and true: the caller keeps it as the group's first again.
// The ID of idx is never read.
func (s *copyGroups) Leave(g, idx uint32) (rest uint32, alone bool) {
	h := Delete(s.docs, s.heaps[g], idx, s.pos)
	s.held--
	if len(h) == 1 {
		delete(s.heaps, g)
		s.held--
		s.heaps = ShrinkMap(s.heaps, &s.peak)
		return h[0], true
	}
	if cap(h) > 64 && len(h) < cap(h)/4 {
		h = slices.Clone(h) // the end of a flood gives its memory back
	}
	s.heaps[g] = h
	return 0, false
}

// Min returns the member of the live group g with the smallest ID (first
// for a group of one).
func (s *copyGroups) Min(g, first uint32) uint32 {
	if h, ok := s.heaps[g]; ok {
		return h[0]
	}
	return first
}

// AppendMembers appends the members of the live group g to dst in heap
// order (not sorted) and returns it.
func (s *copyGroups) AppendMembers(dst []uint32, g, first uint32) []uint32 {
	if h, ok := s.heaps[g]; ok {
		return append(dst, h...)
	}
	return append(dst, first)
}

// IDs returns the IDs of the members of the live group g other than skip,
// sorted ascending, in a new non-nil slice.
func (s *copyGroups) IDs(g, first, skip uint32) []string {
	if h, ok := s.heaps[g]; ok {
		return SortedIDs(s.docs, h, skip)
	}
	return SortedIDs(s.docs, []uint32{first}, skip)
}

// SortedIDs returns the IDs of the documents idxs other than skip, sorted
// ascending, in a new non-nil slice.
func SortedIDs(docs *Set, idxs []uint32, skip uint32) []string {
	out := make([]string, 0, len(idxs))
	for _, o := range idxs {
		if o != skip {
			out = append(out, docs.ID(o))
		}
	}
	slices.Sort(out)
	return out
}

// Smallest appends to dst a Match of score for each of the n members of
// the live group g with the smallest IDs, skip left out (it takes no
// place), in no particular order, and returns dst: O(n log n) ID comparisons, whatever the size
// of the group.
func (s *copyGroups) Smallest(dst []detector.Match, g, first uint32, n int, skip uint32, score float64) []detector.Match {
	return s.smallest(dst, g, first, n, skip, nil, score)
}

// smallest is Smallest, also leaving out the members hide reports (nil:
// none), which take no place either.
func (s *copyGroups) smallest(dst []detector.Match, g, first uint32, n int, skip uint32, hide func(uint32) bool, score float64) []detector.Match {
	h, ok := s.heaps[g]
	if !ok {
		if first != skip && n > 0 && (hide == nil || !hide(first)) {
			dst = append(dst, detector.Match{ID: s.docs.ID(first), Score: score})
		}
		return dst
	}
	if n >= len(h) {
		for _, o := range h {
			if o != skip && (hide == nil || !hide(o)) {
				dst = append(dst, detector.Match{ID: s.docs.ID(o), Score: score})
			}
		}
		return dst
	}
	var buf [32]int32
	front := append(buf[:0], 0)
	for taken := 0; taken < n && len(front) > 0; {
		o := h[front[0]]
		front = next(s.docs, h, front)
		if o != skip && (hide == nil || !hide(o)) {
			dst = append(dst, detector.Match{ID: s.docs.ID(o), Score: score})
			taken++
		}
	}
	return dst
}

// Candidate is a live group related to a query, and the score every
// member of it gets.
type Candidate struct {
	Group uint32
	Score float64
}

// Collect returns the members of the candidate groups other than skip,
// the first limit of them by [detector.SortMatches], in a non-nil slice;
// it sorts cands. first returns the member of a group of one (see
// [copyGroups]); it is called once per group read, not per comparison. Scores are taken from the highest down, and at each
// score every group gives at most as many of its smallest IDs as places
// remain, so a group of c exact copies costs O(limit log limit), not
// O(c). limit must be positive.
func (s *copyGroups) Collect(cands []Candidate, first func(g uint32) uint32, skip uint32, limit int) []detector.Match {
	return s.CollectHiding(cands, first, skip, nil, limit)
}

// CollectHiding is Collect, also leaving out the members hide reports
// (nil: none), each group giving more of its members in their place: for
// a lookup that screens single documents out ([Screener]). It costs
// Collect's plus a call of hide per member read.
func (s *copyGroups) CollectHiding(cands []Candidate, first func(g uint32) uint32, skip uint32, hide func(uint32) bool, limit int) []detector.Match {
	slices.SortFunc(cands, func(a, b Candidate) int { return cmp.Compare(b.Score, a.Score) })
	var out []detector.Match
	for i := 0; i < len(cands) && len(out) < limit; {
		j := i
		for j < len(cands) && cands[j].Score == cands[i].Score {
			j++
		}
		room := limit - len(out)
		for _, c := range cands[i:j] {
			out = s.smallest(out, c.Group, first(c.Group), room, skip, hide, c.Score)
		}
		i = j
	}
	return Top(out, limit)
}
