package detector_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/detectortest"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// exact4 is an exact containment check over word 4-shingles at 0.6.
func exact4(container, contained string) (float64, bool) {
	an, _ := textproc.NewAnalyzer(textproc.Config{})
	a := naive.Shingles(an, contained, 4)
	c := naive.Shingles(an, container, 4)
	if len(a) == 0 {
		return 0, false
	}
	n := 0
	for h := range a {
		if _, ok := c[h]; ok {
			n++
		}
	}
	s := float64(n) / float64(len(a))
	return s, s >= 0.6
}

func TestCascadeConformance(t *testing.T) {
	// A permissive proposer (containment ≥ 0.2) confirmed by the exact check.
	detectortest.Run(t, func() detector.Detector {
		return detector.Cascade(naive.New(naive.Config{Threshold: 0.2}), detector.Identity, exact4)
	}, detectortest.Options{})
}

func TestVoteConformance(t *testing.T) {
	detectortest.Run(t, func() detector.Detector {
		return detector.Vote(2,
			naive.New(naive.Config{}),
			naive.New(naive.Config{Shingle: 3}),
			naive.New(naive.Config{Shingle: 5, Threshold: 0.5}))
	}, detectortest.Options{})
}

func TestCascadeFilters(t *testing.T) {
	c := detector.Cascade(naive.New(naive.Config{Threshold: 0.01}), detector.Identity, exact4)
	defer c.Close()
	_, err := c.Add(detector.Doc{ID: "a", Text: "one two three four five six seven eight nine ten"})
	require.NoError(t, err)
	ms, err := c.Add(detector.Doc{ID: "b", Text: "one two three four alpha beta gamma delta epsilon zeta"})
	require.NoError(t, err)
	assert.Empty(t, ms, "the proposer's weak candidate is rejected by the verifier")
	ms, err = c.Add(detector.Doc{ID: "c", Text: "one two three four five six seven eight nine ten"})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "a", Score: 1}}, ms)
}

func TestVoteUnionIntersection(t *testing.T) {
	strict := func() detector.Detector { return naive.New(naive.Config{Threshold: 0.99}) }
	loose := func() detector.Detector { return naive.New(naive.Config{Threshold: 0.3}) }
	texts := []string{"a b c d e f g h i j", "a b c d e f x y z w"}
	for _, tc := range []struct {
		k    int
		want int
	}{{1, 1}, {2, 0}} {
		v := detector.Vote(tc.k, strict(), loose())
		_, err := v.Add(detector.Doc{ID: "x", Text: texts[0]})
		require.NoError(t, err)
		ms, err := v.Add(detector.Doc{ID: "y", Text: texts[1]})
		require.NoError(t, err)
		assert.Len(t, ms, tc.want, "Vote(%d)", tc.k)
		require.NoError(t, v.Close())
	}
	assert.Panics(t, func() { detector.Vote(0, strict()) })
}
