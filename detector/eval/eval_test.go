package eval

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
)

func TestKappaWorkedExample(t *testing.T) {
	// Varol 2012 (CoDet thesis), Table 2.2: both containment 40, B containment / A not 10,
	// A containment / B not 20, neither 30; κ = 0.4 (Eq. 2.4).
	assert.InDelta(t, 0.4, Kappa(40, 20, 10, 30), 1e-12)
	assert.InDelta(t, 1.0, Kappa(50, 0, 0, 50), 1e-12)
	assert.Zero(t, Kappa(0, 0, 0, 0))
}

func TestCDupWorkedExample(t *testing.T) {
	// Uyar 2009 (near-duplicate news detection using named entities), §6.1: with P(duplicate) = 0.07, C_dup = 13.29·F + M; the
	// I-Match example has F = 2/9, M = 2/11, printed as 13.29·0.22 + 0.18 = 3.10.
	assert.InDelta(t, 13.2857*2.0/9+2.0/11, CDup(2.0/9, 2.0/11, DefaultPDuplicate), 1e-3)
	assert.InDelta(t, 3.10, CDup(0.22, 0.18, DefaultPDuplicate), 0.01)
	c := Counts{TP: 9, FP: 2, FN: 2, TN: 7}
	assert.InDelta(t, 2.0/11, c.MissRate(), 1e-12)
	assert.InDelta(t, 2.0/9, c.FalseAlarmRate(), 1e-12)
}

func TestCountsAndMCC(t *testing.T) {
	c := Counts{TP: 8, FP: 2, FN: 2}.WithNegatives(100)
	assert.Equal(t, 88, c.TN)
	assert.InDelta(t, 0.8, c.Precision(), 1e-12)
	assert.InDelta(t, 0.8, c.Recall(), 1e-12)
	assert.InDelta(t, 0.8, c.F1(), 1e-12)
	assert.InDelta(t, (8.0*88-2*2)/900, c.MCC(), 1e-12) // sqrt(10·10·90·90) = 900
	assert.InDelta(t, 1.0, Counts{TP: 5, TN: 5}.MCC(), 1e-12)
	assert.Equal(t, 1.0, Counts{}.Precision(), "nothing reported")
}

func TestClusterTruth(t *testing.T) {
	truth := ClusterTruth{"a": "Shooting2", "b": "Shooting2", "c": "Shooting3", "d": "Adobe"}
	found := map[Pair]float64{NewPair("a", "b"): 1, NewPair("b", "c"): 1, NewPair("c", "d"): 1}
	strict := truth.Score(found, false)
	assert.Equal(t, Counts{TP: 1, FP: 2, FN: 0}, strict)
	lenient := truth.Score(found, true)
	assert.Equal(t, Counts{TP: 1, FP: 1, FN: 0}, lenient, "a pair across siblings is not an error, nor a positive")
	assert.Equal(t, 2, truth.SiblingPairs(), "a–c and b–c, neither negative nor positive in lenient mode")
	numbered := ClusterTruth{"a": "1", "b": "1", "c": "2"}
	assert.Zero(t, numbered.SiblingPairs(), "clusters named by numbers are not siblings")
	assert.Equal(t, Counts{TP: 1, FP: 1}, numbered.Score(map[Pair]float64{NewPair("a", "b"): 1, NewPair("a", "c"): 1}, true))
}

func TestRelationsAndRates(t *testing.T) {
	d := naive.New(naive.Config{})
	src := "the quick brown fox jumps over the lazy dog near the river bank today"
	docs := []detector.Doc{
		{ID: "orig", Text: "intro words stand here before " + src},
		{ID: "cut", Text: src}, // a part of orig
		{ID: "non", Text: "completely different text about something else entirely with many words"},
	}
	edges, err := Relations(d, docs, nil)
	require.NoError(t, err)
	truth := ContainmentTruth{
		Category: map[string]string{"orig": "orig", "cut": "cut", "non": "non"},
		Task:     map[string]string{"orig": "a", "cut": "a", "non": "a"},
	}
	rates, counts := truth.Rates(edges, "cut", "light")
	assert.Equal(t, 1.0, rates["cut"])
	assert.Equal(t, 0.0, rates["non"])
	assert.Equal(t, Counts{TP: 1, TN: 1}, counts)
	pairs := Pairs(edges)
	assert.Contains(t, pairs, NewPair("orig", "cut"))
	assert.Equal(t, NewPair("cut", "orig"), Pool(pairs, map[Pair]float64{NewPair("a", "z"): 1})[1])
}

func TestClusters(t *testing.T) {
	order := []string{"a", "b", "c", "d", "e"}
	edges := []Edge{
		{Container: "a", Contained: "b"}, {Container: "b", Contained: "a"}, // dup a-b
		{Container: "c", Contained: "d"},                                   // c ⊇ d only
		{Container: "d", Contained: "b"}, {Container: "b", Contained: "d"}, // dup b-d
	}
	cs := Clusters(order, edges, false)
	require.Len(t, cs, 3)
	assert.Equal(t, Cluster{Representative: "a", Members: []string{"a", "b", "d"}}, cs[0])
	assert.Equal(t, Cluster{Representative: "c", Members: []string{"c"}, Contains: []string{"d"}}, cs[1])
	assert.Equal(t, "e", cs[2].Representative)
	sym := Clusters(order, edges, true)
	assert.Len(t, sym, 2)
}
