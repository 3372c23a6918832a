package shingle

import (
	"math"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/copyheap"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
)

// noGroup marks a document in no group (a text without words) and the
// absence of a group; noDoc is no document.
const (
	noGroup = math.MaxUint32
	noDoc   = math.MaxUint32
)

// hit is a group found by a query, with the score each of its members gets.
type hit = copyheap.Candidate

// groups is the membership of the groups of exact copies: documents whose
// features (the shingle set, DSC sample and size, or spot-signature
// multiset and token digest) are equal share one group, and the search
// index holds groups, not documents. A group of one keeps its member in
// first; the members of a larger group form a binary min-heap by ID in
// cs, so that the k smallest IDs are read in O(k log k) whatever the
// group's size and a member joins or leaves in O(log c).
type groups struct {
	refs  []uint32        // by document: its group, or noGroup
	first []uint32        // by group: the member of a group of one
	cs    copyheap.Groups // the members of groups of two or more
	free  []uint32        // free group numbers
	live  int             // live groups
}

func newGroups(docs *docset.Set) *groups {
	return &groups{cs: copyheap.New(docs)}
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

// join adds document idx to the live group g.
func (gs *groups) join(g, idx uint32) {
	gs.grow(idx)
	gs.refs[idx] = g
	gs.cs.Join(g, gs.first[g], idx)
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
	if gs.cs.Size(g) == 1 {
		gs.first[g] = noDoc
		gs.free = append(gs.free, g)
		gs.live--
		return g, true
	}
	if rest, alone := gs.cs.Leave(g, idx); alone {
		gs.first[g] = rest
	}
	return g, false
}

// sortedIDs returns the IDs of the members of g other than skip, ascending.
func (gs *groups) sortedIDs(g, skip uint32) []string { return gs.cs.IDs(g, gs.first[g], skip) }

// at returns the member of the live group g when it has one member.
func (gs *groups) at(g uint32) uint32 { return gs.first[g] }

// collect returns the members of the groups hits name, each with its
// group's score, other than skip: the first limit of them by
// [detector.SortMatches]. A group of c exact copies costs
// O(limit log limit), not O(c).
func (gs *groups) collect(hits []hit, skip uint32, limit int) []detector.Match {
	return gs.cs.Collect(hits, gs.at, skip, limit)
}
