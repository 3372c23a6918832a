package engine

import (
	"cmp"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

func TestTop(t *testing.T) {
	ms := func(ids ...string) []detector.Match {
		out := make([]detector.Match, len(ids))
		for i, id := range ids {
			out[i] = detector.Match{ID: id, Score: float64(len(id))}
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		in    []detector.Match
		limit int
		want  []detector.Match
	}{
		{"nil", nil, 0, []detector.Match{}},
		{"nil capped", nil, 3, []detector.Match{}},
		{"empty", ms(), 0, []detector.Match{}},
		{"uncapped", ms("a", "ccc", "bb"), 0, ms("ccc", "bb", "a")},
		{"capped", ms("a", "ccc", "bb"), 2, ms("ccc", "bb")},
		{"cap above length", ms("a", "bb"), 5, ms("bb", "a")},
		{"ties by ID", []detector.Match{{ID: "y", Score: 1}, {ID: "x", Score: 1}}, 1, []detector.Match{{ID: "x", Score: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Top(tc.in, tc.limit)
			require.NotNil(t, got)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, len(got), cap(got), "a capped result must not let an append overwrite the rest")
		})
	}
	b, err := json.Marshal(Top(nil, 0))
	require.NoError(t, err)
	assert.JSONEq(t, "[]", string(b))
}

func TestBest(t *testing.T) {
	score := func(x float64) float64 { return x }
	for _, tc := range []struct {
		name  string
		in    []float64
		limit int
		want  []float64 // sorted
	}{
		{"no cap", []float64{3, 1, 2}, 0, []float64{1, 2, 3}},
		{"under the cap", []float64{3, 1}, 5, []float64{1, 3}},
		{"capped", []float64{5, 1, 4, 2, 3}, 2, []float64{4, 5}},
		{"ties at the cut kept", []float64{1, 2, 2, 2, 3}, 2, []float64{2, 2, 2, 3}},
		{"all tied", []float64{7, 7, 7}, 1, []float64{7, 7, 7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := slices.Clone(Best(slices.Clone(tc.in), tc.limit, score))
			slices.Sort(got)
			assert.Equal(t, tc.want, got)
		})
	}
	// Against sorting, on random scores with many ties.
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		in := make([]float64, r.IntN(300))
		for i := range in {
			in[i] = float64(r.IntN(40))
		}
		limit := 1 + r.IntN(50)
		got := slices.Clone(Best(slices.Clone(in), limit, score))
		sorted := slices.Clone(in)
		slices.SortFunc(sorted, func(a, b float64) int { return cmp.Compare(b, a) })
		var want []float64
		if len(sorted) <= limit {
			want = sorted
		} else {
			cut := sorted[limit-1]
			for _, s := range sorted {
				if s >= cut {
					want = append(want, s)
				}
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		require.Equal(t, want, got)
	}
}
