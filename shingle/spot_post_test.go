package shingle

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// TestSigPostsMatchSets adds and removes groups under a few signatures at
// random and compares each signature's groups with a set after every step:
// singles kept inline, lists made, shrunk back to a single and reused:
// 10,000 steps (50,000 with NEARDUP_LONG).
func TestSigPostsMatchSets(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	var p sigPosts
	const sigs = 40
	want := make([]map[uint32]bool, sigs)
	for s := range want {
		p.grow()
		want[s] = map[uint32]bool{}
	}
	for step := range dataset.LongSize(10_000, 50_000) {
		s, g := uint32(r.IntN(sigs)), uint32(r.IntN(12))
		if step%7 == 0 {
			g = postMany - 1 // the largest group index
		}
		if want[s][g] {
			p.remove(s, g)
			delete(want[s], g)
		} else {
			p.add(s, g)
			want[s][g] = true
		}
		for s := range uint32(sigs) {
			got := slices.Sorted(slices.Values(p.of(s)))
			var exp []uint32
			for g := range want[s] {
				exp = append(exp, g)
			}
			slices.Sort(exp)
			require.Equal(t, exp, got, "step %d signature %d", step, s)
		}
	}
	require.Equal(t, sigs, p.ids())
	require.LessOrEqual(t, p.Lists(), sigs, "lists are reused")
}
