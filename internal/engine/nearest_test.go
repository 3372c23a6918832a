package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// Rank lists every group sharing a word with f, by Jaccard similarity:
// Search's score, without its threshold.
func (ix *toyIndex) Rank(dst []Candidate, f *words, groups *Groups[words], _ int) []Candidate {
	shared := map[uint32]int{}
	for _, w := range f.w {
		for _, g := range ix.post[w] {
			shared[g]++
		}
	}
	for g, n := range shared {
		dst = append(dst, Candidate{Group: g, Score: float64(n) / float64(len(f.w)+len(groups.Features(g).w)-n)})
	}
	return dst
}

func nearest(t *testing.T, e *Engine[words, string], text string, k int) []detector.Match {
	t.Helper()
	ms, err := e.Nearest(text, k)
	require.NoError(t, err)
	return ms
}

func TestNearest(t *testing.T) {
	e := newToy(t, toy{}, 4)
	add(t, e, "a", "x y z")
	add(t, e, "b", "z y x")
	add(t, e, "c", "x q r s")
	add(t, e, "d", "u v")
	add(t, e, "blank", "")

	// Below Search's 0.5 too, best first; copies fill places; a group
	// sharing nothing is left out.
	assert.Equal(t, []detector.Match{{ID: "a", Score: 1}, {ID: "b", Score: 1}, {ID: "c", Score: 1.0 / 6}},
		nearest(t, e, "x y z", 10))
	assert.Equal(t, []detector.Match{{ID: "a", Score: 1}}, nearest(t, e, "x y z", 1))
	// Where Query reports a document, Nearest gives it the same score.
	q, err := e.Query(detector.Doc{Text: "x y z w"})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "a", Score: 0.75}, {ID: "b", Score: 0.75}}, q)
	assert.Equal(t, append(q, detector.Match{ID: "c", Score: 1.0 / 7}), nearest(t, e, "x y z w", 10))
	// Capped at MaxResults (4) whatever k asks.
	for i := range 3 {
		add(t, e, string(rune('e'+i)), "x y z")
	}
	assert.Len(t, nearest(t, e, "x y z", 10), 4)
	assert.Equal(t, []detector.Match{}, nearest(t, e, "", 3))
	assert.Equal(t, []detector.Match{}, nearest(t, e, "nothing shared", 3))
	assert.Equal(t, 8, e.Len(), "Nearest stores nothing")

	for _, k := range []int{0, -2} {
		_, err := e.Nearest("x", k)
		assert.ErrorIs(t, err, detector.ErrInvalidConfig)
	}
	_, err = e.Nearest(string(make([]byte, 101)), 1)
	assert.ErrorIs(t, err, detector.ErrTooLarge)
	require.NoError(t, e.Close())
	_, err = e.Nearest("x", 1)
	assert.ErrorIs(t, err, detector.ErrClosed)
}

// With a Counter, Nearest reads the statistics as a Query does, in a turn
// of its own, and counts nothing.
func TestNearestCounting(t *testing.T) {
	e := newToy(t, toy{counting: true}, 5)
	add(t, e, "a", "x y")
	add(t, e, "b", "x z")
	assert.Equal(t, []detector.Match{{ID: "a", Score: 1}, {ID: "b", Score: 1.0 / 3}}, nearest(t, e, "x y", 5))
	e.Inspect(func(ix Index[words], _ int) {
		c := ix.(*countingIndex)
		assert.Equal(t, 2, c.n)
		assert.Equal(t, 2, c.df["x"])
	})
}
