package engine

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

const none = ^uint32(0)

// Member returns the member at position i of the live group g in heap
// order (the smallest ID at 0), or first for a group of one; i must be
// below Size(g). The tests check AppendMembers and Min against it.
func (s *copyGroups) Member(g, first uint32, i int) uint32 {
	if h, ok := s.heaps[g]; ok {
		return h[i]
	}
	return first
}

// docsOf registers ids in a fresh Set; document i has ids[i].
func docsOf(t testing.TB, ids ...string) *Set {
	docs := NewSet("copyheap", 0)
	for i, id := range ids {
		idx, err := docs.Add(detector.Doc{ID: id})
		require.NoError(t, err)
		require.Equal(t, uint32(i), idx)
	}
	return docs
}

func TestGroups(t *testing.T) {
	ids := []string{"m", "c", "x", "a", "q", "b", "z", "k"}
	tests := []struct {
		name    string
		join    []uint32 // joined to group 7 after first = 0, in order
		leave   []uint32
		n       int
		skip    uint32
		want    []string // Smallest
		wantIDs []string // IDs(skip)
		size    int
	}{
		{name: "one", n: 3, skip: none, want: []string{"m"}, wantIDs: []string{"m"}, size: 1},
		{name: "one skipped", n: 3, skip: 0, want: nil, wantIDs: []string{}, size: 1},
		{name: "one capped at zero", n: 0, skip: none, want: nil, wantIDs: []string{"m"}, size: 1},
		{name: "all", join: []uint32{1, 2, 3, 4}, n: 9, skip: none, want: []string{"a", "c", "m", "q", "x"}, wantIDs: []string{"a", "c", "m", "q", "x"}, size: 5},
		{name: "capped", join: []uint32{1, 2, 3, 4, 5, 6, 7}, n: 3, skip: none, want: []string{"a", "b", "c"}, wantIDs: []string{"a", "b", "c", "k", "m", "q", "x", "z"}, size: 8},
		{name: "skip takes no place", join: []uint32{1, 2, 3, 4, 5, 6, 7}, n: 3, skip: 3, want: []string{"b", "c", "k"}, wantIDs: []string{"b", "c", "k", "m", "q", "x", "z"}, size: 8},
		{name: "skip outside", join: []uint32{1, 2}, n: 2, skip: 5, want: []string{"c", "m"}, wantIDs: []string{"c", "m", "x"}, size: 3},
		{name: "root leaves", join: []uint32{1, 2, 3, 4, 5}, leave: []uint32{3, 5}, n: 2, skip: none, want: []string{"c", "m"}, wantIDs: []string{"c", "m", "q", "x"}, size: 4},
		{name: "back to one", join: []uint32{1, 2}, leave: []uint32{0, 2}, n: 5, skip: none, want: []string{"c"}, wantIDs: []string{"c"}, size: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			docs := docsOf(t, ids...)
			gs := newCopyGroups(docs)
			const g = 7
			first := uint32(0)
			for _, idx := range tc.join {
				gs.Join(g, first, idx)
			}
			for _, idx := range tc.leave {
				if gs.Size(g) == 1 {
					t.Fatal("leave from a group of one")
				}
				if rest, alone := gs.Leave(g, idx); alone {
					first = rest
				}
			}
			require.Equal(t, tc.size, gs.Size(g))
			if tc.size == 1 {
				assert.Zero(t, gs.Len())
				assert.Zero(t, gs.Held())
			} else {
				assert.Equal(t, 1, gs.Len())
				assert.Equal(t, tc.size, gs.Held())
			}
			var got []string
			for _, m := range gs.Smallest(nil, g, first, tc.n, tc.skip, 0.5) {
				assert.Equal(t, 0.5, m.Score)
				got = append(got, m.ID)
			}
			slices.Sort(got) // Smallest appends in no particular order
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.wantIDs, gs.IDs(g, first, tc.skip))
			all := gs.AppendMembers(nil, g, first)
			assert.Len(t, all, tc.size)
			assert.Equal(t, gs.IDs(g, first, none)[0], docs.ID(gs.Min(g, first)))
			for i, m := range all {
				assert.Equal(t, m, gs.Member(g, first, i), "Member reads the heap order AppendMembers gives")
			}
			assert.Equal(t, gs.Min(g, first), gs.Member(g, first, 0))
		})
	}
}

func TestCollect(t *testing.T) {
	ids := make([]string, 20)
	for i := range ids {
		ids[i] = fmt.Sprintf("d%02d", 19-i) // IDs descend with the index
	}
	docs := docsOf(t, ids...)
	gs := newCopyGroups(docs)
	for i := uint32(1); i < 10; i++ {
		gs.Join(1, 0, i) // group 1: d19..d10
	}
	gs.Join(2, 10, 11) // group 2: d09, d08
	// group 3 is document 12 alone (d07)
	tests := []struct {
		name  string
		cands []Candidate
		skip  uint32
		limit int
		want  []detector.Match
	}{
		{name: "none", limit: 3, skip: none, want: []detector.Match{}},
		{name: "higher score first", cands: []Candidate{{1, 1}, {3, 0.9}, {2, 0.9}}, skip: none, limit: 4,
			want: []detector.Match{{ID: "d10", Score: 1}, {ID: "d11", Score: 1}, {ID: "d12", Score: 1}, {ID: "d13", Score: 1}}},
		{name: "ties by ID", cands: []Candidate{{1, 0.5}, {3, 0.5}, {2, 0.5}}, skip: none, limit: 3,
			want: []detector.Match{{ID: "d07", Score: 0.5}, {ID: "d08", Score: 0.5}, {ID: "d09", Score: 0.5}}},
		{name: "skip", cands: []Candidate{{2, 1}, {1, 0.5}}, skip: 11, limit: 3,
			want: []detector.Match{{ID: "d09", Score: 1}, {ID: "d10", Score: 0.5}, {ID: "d11", Score: 0.5}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			firsts := map[uint32]uint32{1: 0, 2: 10, 3: 12}
			got := gs.Collect(slices.Clone(tc.cands), func(g uint32) uint32 { return firsts[g] }, tc.skip, tc.limit)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestPushDeleteCursor(t *testing.T) {
	docs := docsOf(t, "e", "b", "d", "a", "c")
	pos := make([]uint32, 5)
	var h []uint32
	for i := range uint32(5) {
		h = push(docs, h, i, pos)
	}
	for i, o := range h {
		require.Equal(t, uint32(i), pos[o])
	}
	order := func() []string {
		var c cursor
		c.Reset(h)
		var out []string
		for m, ok := c.Peek(); ok; m, ok = c.Peek() {
			out = append(out, docs.ID(m))
			c.Next(docs)
		}
		return out
	}
	assert.Equal(t, []string{"a", "b", "c", "d", "e"}, order())
	assert.Equal(t, []uint32{3, 1, 4, 2, 0}, Sorted(docs, h))
	h = Delete(docs, h, 3, pos)
	assert.Equal(t, []string{"b", "c", "d", "e"}, order())
	assert.Len(t, Delete(docs, h, 3, pos), 4, "a document not in the heap leaves it as it was")
	var c cursor
	_, ok := c.Peek()
	assert.False(t, ok, "the zero Cursor yields nothing")
}

func TestSmallestAllocs(t *testing.T) {
	ids := make([]string, 200)
	for i := range ids {
		ids[i] = fmt.Sprintf("d%03d", (i*37)%200)
	}
	gs := newCopyGroups(docsOf(t, ids...))
	for i := uint32(1); i < 200; i++ {
		gs.Join(0, 0, i)
	}
	dst := make([]detector.Match, 0, 16)
	allocs := testing.AllocsPerRun(50, func() {
		dst = gs.Smallest(dst[:0], 0, 0, 10, 5, 1)
	})
	assert.Zero(t, allocs, "a capped read allocates nothing")
	allocs = testing.AllocsPerRun(50, func() {
		_, _ = gs.Leave(0, 7)
		gs.Join(0, 0, 7)
	})
	assert.Zero(t, allocs, "a member leaving and joining again allocates nothing")
}

// TestCollectHiding checks that the members hide reports are left out of
// a capped answer and that their groups give others in their place, as a
// lookup that screens single documents out needs.
func TestCollectHiding(t *testing.T) {
	gs := newCopyGroups(docsOf(t, "a", "b", "c", "d", "e", "f"))
	// Group 0: a, c, e (a heap); group 1: b alone; group 2: d, f.
	gs.Join(0, 0, 2)
	gs.Join(0, 0, 4)
	gs.Join(2, 3, 5)
	first := func(g uint32) uint32 { return []uint32{0, 1, 3}[g] }
	cands := func() []Candidate { return []Candidate{{0, 0.5}, {1, 0.9}, {2, 0.5}} }
	ids := func(ms []detector.Match) (out []string) {
		for _, m := range ms {
			out = append(out, fmt.Sprintf("%s:%v", m.ID, m.Score))
		}
		return out
	}
	hide := func(idx uint32) bool { return idx == 0 || idx == 1 } // a and b
	assert.Equal(t, []string{"c:0.5", "d:0.5", "e:0.5"}, ids(gs.CollectHiding(cands(), first, NoDoc, hide, 3)))
	assert.Equal(t, []string{"b:0.9", "a:0.5", "c:0.5"}, ids(gs.Collect(cands(), first, NoDoc, 3)))
	assert.Equal(t, ids(gs.Collect(cands(), first, 4, 10)), ids(gs.CollectHiding(cands(), first, 4, nil, 10)))
}
