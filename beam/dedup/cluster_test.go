package dedup

import (
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/minhash"
)

// memClusters labels every document in a pair with the smallest ID of its
// connected component, by a plain union-find over the pairs.
func memClusters(pairs []Pair) []Label {
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		if parent[x] == x {
			return x
		}
		r := find(parent[x])
		parent[x] = r
		return r
	}
	for _, p := range pairs {
		for _, x := range []string{p.A, p.B} {
			if _, ok := parent[x]; !ok {
				parent[x] = x
			}
		}
		a, b := find(p.A), find(p.B)
		if a > b {
			a, b = b, a
		}
		parent[b] = a
	}
	var out []Label
	for x := range parent {
		out = append(out, Label{ID: x, Cluster: find(x)})
	}
	return out
}

func TestClustersEqualUnionFind(t *testing.T) {
	docs := synthDocs(3000, 8)
	cfg := minhash.Config{Threshold: 0.3}
	pairs := memPairs(t, cfg, docs)
	want := memClusters(pairs)
	require.NotEmpty(t, want)

	// From the in-memory pairs, and end to end from the documents.
	p, s := beam.NewPipelineWithRoot()
	in := beam.CreateList(s, pairs)
	passert.EqualsList(s, Clusters(s, in), want)
	passert.EqualsList(s, StarClusters(s, in, 0), want)
	got, err := MinHashPairs(s, beam.CreateList(s, docs), MinHashConfig{Sketch: cfg, MaxBucket: -1})
	require.NoError(t, err)
	passert.EqualsList(s, Clusters(s, got), want)
	m, err := run(t, p)
	require.NoError(t, err)
	assert.Zero(t, m[MetricUnconverged])
	t.Logf("%d pairs, %d labelled documents, star changes %d", len(pairs), len(want), m[MetricStarChanges])
}

// TestStarClustersChain: a path of 64 nodes labelled in the worst order
// needs several rounds; one round leaves it unconverged and says so.
func TestStarClustersChain(t *testing.T) {
	var pairs []Pair
	id := func(i int) string { return string(rune('A'+i/26)) + string(rune('a'+i%26)) }
	for i := range 63 {
		a, b := ordered(id(i), id(i+1))
		pairs = append(pairs, Pair{A: a, B: b})
	}
	want := memClusters(pairs)

	p, s := beam.NewPipelineWithRoot()
	passert.EqualsList(s, StarClusters(s, beam.CreateList(s, pairs), 8), want)
	m, err := run(t, p)
	require.NoError(t, err)
	assert.Zero(t, m[MetricUnconverged])

	p, s = beam.NewPipelineWithRoot()
	StarClusters(s, beam.CreateList(s, pairs), 1)
	m, err = run(t, p)
	require.NoError(t, err)
	assert.Positive(t, m[MetricUnconverged], "one round cannot collapse a path of 64")
}

func TestClustersNegativeControl(t *testing.T) {
	pairs := []Pair{{A: "a", B: "b"}, {A: "c", B: "d"}}
	bad := append(memClusters(pairs), Label{ID: "e", Cluster: "a"})
	p, s := beam.NewPipelineWithRoot()
	passert.EqualsList(s, Clusters(s, beam.CreateList(s, pairs)), bad)
	_, err := run(t, p)
	require.Error(t, err)
}
