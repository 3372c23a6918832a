package eval_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
)

func TestRankMeasures(t *testing.T) {
	rel := func(id string) bool { return id[0] == 'r' }
	for _, tc := range []struct {
		ranked    []string
		r, k      int
		ap, ndcg3 float64
	}{
		{[]string{"r1", "r2", "x"}, 2, 20, 1, 1},
		{[]string{"x", "r1"}, 1, 20, 0.5, 1 / math.Log2(3)},
		{[]string{"x", "r1", "r2"}, 2, 20, (0.5 + 2.0/3) / 2, (1/math.Log2(3) + 0.5) / (1 + 1/math.Log2(3))},
		{[]string{"r1", "x", "r2"}, 30, 2, 0.5, (1 + 0.5) / (1 + 1/math.Log2(3) + 0.5)}, // normalised by min(R, k)
		{[]string{}, 3, 20, 0, 0},
		{[]string{"r1"}, 0, 20, 0, 0},
	} {
		assert.InDelta(t, tc.ap, eval.AveragePrecision(tc.ranked, rel, tc.r, tc.k), 1e-12, "AP %v", tc.ranked)
		assert.InDelta(t, tc.ndcg3, eval.NDCG(tc.ranked, rel, tc.r, 3), 1e-12, "nDCG %v", tc.ranked)
	}
	for _, k := range []int{0, -1} { // no places to score
		assert.Zero(t, eval.AveragePrecision([]string{"r1"}, rel, 1, k), "AP at k %d", k)
		assert.Zero(t, eval.NDCG([]string{"r1"}, rel, 1, k), "nDCG at k %d", k)
	}
	assert.Equal(t, 1.0, eval.AUC([]float64{0.9, 0.8}, []float64{0.1, 0.2}))
	assert.Equal(t, 0.0, eval.AUC([]float64{0.1}, []float64{0.2, 0.3}))
	assert.Equal(t, 0.5, eval.AUC([]float64{0.5}, []float64{0.5}))
	assert.Equal(t, 0.75, eval.AUC([]float64{0.5, 0.9}, []float64{0.5}))
	assert.True(t, math.IsNaN(eval.AUC(nil, []float64{1})))
}

func TestClusterAndSourceRanking(t *testing.T) {
	// text returns n distinct words of a stem: a text of n-m words is
	// contained in the text of n.
	text := func(stem string, n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%s%c%c ", stem, 'a'+i%26, 'a'+i/26)
		}
		return b.String()
	}
	docs := []detector.Doc{
		{ID: "a1", Text: text("alpha", 30)},
		{ID: "a2", Text: text("alpha", 36)},
		{ID: "b1", Text: text("river", 30)},
		{ID: "b2", Text: text("river", 60)},
		{ID: "c1", Text: text("lonely", 20)},
	}
	truth := eval.ClusterTruth{"a1": "a", "a2": "a", "b1": "b", "b2": "b", "c1": "c"}
	s, err := eval.ClusterRanking(naive.New(naive.Config{}), docs, truth, 20, nil)
	require.NoError(t, err)
	assert.Equal(t, eval.RankScores{Queries: 4, MAP: 1, P1: 1, NDCG10: 1}, s)

	ct := eval.ContainmentTruth{
		Category: map[string]string{"a1": "orig", "a2": "cut", "b1": "orig", "b2": "non", "c1": "cut"},
		Task:     map[string]string{"a1": "a", "a2": "a", "b1": "b", "b2": "b", "c1": "b"},
	}
	ss, err := eval.SourceRanking(naive.New(naive.Config{}), docs, ct, 5, "cut")
	require.NoError(t, err)
	// a2 finds its source first; c1 shares nothing with b1 (rank and
	// score 0); b2, independent, scores between them.
	assert.Equal(t, 2, ss.Derived)
	assert.Equal(t, 1, ss.Independent)
	assert.InDelta(t, 0.5, ss.MRR, 1e-12)
	assert.InDelta(t, 0.5, ss.AUC, 1e-12, "a2 above b2 above c1")
}
