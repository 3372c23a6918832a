package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPostingsMatchSets adds documents to postings under features drawn
// from a pool (so that most features have one document and some several),
// removes most of them, and compares every feature's documents with a set
// after each phase: singles inline, lists made and dropped back to a
// single, and the lists renumbered by shrink once the features fall under
// a quarter of their peak.
func TestPostingsMatchSets(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var p Postings
	want := map[uint64][]uint32{}
	check := func(phase string) {
		t.Helper()
		require.Equal(t, len(want), p.Len(), "%s: features", phase)
		var one [1]uint32
		for f, docs := range want {
			v, ok := p.Lookup(f)
			require.True(t, ok, "%s: feature %#x", phase, f)
			require.Equal(t, len(docs), p.EntryLen(v, ok), "%s: feature %#x", phase, f)
			got := slices.Clone(p.Read(v, ok, &one))
			slices.Sort(got)
			require.Equal(t, docs, got, "%s: feature %#x", phase, f)
		}
	}
	const docs, perDoc = 200, 60
	held := map[uint32][]uint64{}
	for d := range uint32(docs) {
		p.Reserve(perDoc)
		for range perDoc {
			f := 1 + r.Uint64N(4*minRenumber) // a pool: some features repeat
			if slices.Contains(held[d], f) {
				continue
			}
			held[d] = append(held[d], f)
			p.Add(f, d)
			want[f] = append(want[f], d) // d ascending, so each list is sorted
		}
	}
	check("added")
	peak := p.Len()
	require.GreaterOrEqual(t, peak, minRenumber, "enough features to renumber")
	lists := p.Lists()
	for d := range uint32(docs) {
		if d%10 == 0 {
			continue // keep one document in ten
		}
		for _, f := range held[d] {
			p.Remove(f, d)
			want[f] = slices.DeleteFunc(want[f], func(x uint32) bool { return x == d })
			if len(want[f]) == 0 {
				delete(want, f)
			}
		}
		p.Shrink()
	}
	check("removed")
	require.Less(t, p.Len(), peak/4)
	require.Less(t, p.Lists(), lists, "shrink renumbered the lists")
	for d := range uint32(docs) {
		if d%10 == 0 {
			for _, f := range held[d] {
				p.Remove(f, d)
			}
		}
	}
	p.Shrink()
	require.Zero(t, p.Len(), "every feature removed")
	require.Zero(t, p.Lists(), "an emptied index keeps no list")
}
