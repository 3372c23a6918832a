package codet

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// TestChildTableMatchesMap runs random puts, deletes and lookups against
// the children table and a Go map side by side: a narrow key space makes
// long probe runs, wrap-arounds at the end of a part and deletions in
// the middle of runs common.
func TestChildTableMatchesMap(t *testing.T) {
	for _, tc := range []struct {
		name    string
		sized   int
		parents uint32
		terms   uint32
		ops     int
	}{
		{"dense", 0, 64, 64, 200_000},
		{"sized", 5000, 1000, 20, 100_000},
		{"sparse", 0, 1 << 30, 1 << 30, 50_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(tc.ops)))
			tab := makeChildTable(tc.sized)
			ref := map[[2]uint32]uint32{}
			next := uint32(1)
			for range tc.ops {
				p, term := rng.Uint32N(tc.parents), rng.Uint32N(tc.terms)
				k := [2]uint32{p, term}
				switch r := rng.IntN(10); {
				case r < 5:
					if _, ok := ref[k]; !ok {
						ref[k] = next
						tab.put(p, term, next)
						next++
					}
				case r < 8:
					delete(ref, k)
					tab.del(p, term)
				default:
					got, ok := tab.get(p, term)
					want, wok := ref[k]
					require.Equal(t, wok, ok, "get(%d, %d)", p, term)
					require.Equal(t, want, got, "get(%d, %d)", p, term)
				}
			}
			require.Equal(t, len(ref), tab.len())
			for k, v := range ref {
				got, ok := tab.get(k[0], k[1])
				require.True(t, ok, "get(%d, %d)", k[0], k[1])
				require.Equal(t, v, got)
			}
			// Every edge removed: the table is empty and finds nothing.
			for k := range ref {
				tab.del(k[0], k[1])
			}
			require.Zero(t, tab.len())
			for k := range ref {
				_, ok := tab.get(k[0], k[1])
				require.False(t, ok)
			}
		})
	}
	var zero childTable
	_, ok := zero.get(1, 2)
	require.False(t, ok)
	zero.del(1, 2)
	require.Zero(t, zero.len())
}

// TestChildTableTree checks the children table against the nodes of a
// detector after adds and removals: every live node is found under its
// parent and term, and nothing else is in the table.
func TestChildTableTree(t *testing.T) {
	d, err := New(Config{Language: "en"})
	require.NoError(t, err)
	defer d.Close()
	texts := []string{
		"The central bank raised interest rates again. Markets fell sharply in early trading.",
		"Markets fell sharply in early trading. The central bank raised interest rates again.",
		"A storm closed the harbour for two days. Fishermen stayed ashore.",
		"The central bank kept interest rates unchanged. Fishermen stayed ashore.",
	}
	for round := range 30 {
		for i, text := range texts {
			id := string(rune('a'+i)) + string(rune('a'+round))
			_, err := d.Add(detector.Doc{ID: id, Text: text + " Round " + string(rune('A'+round%26)) + "."})
			require.NoError(t, err)
		}
		if round%3 == 2 {
			require.NoError(t, d.Remove(string(rune('a'+round%4))+string(rune('a'+round))))
		}
	}
	x := d.ix()
	live := 0
	for i := 1; i < x.nodes.len(); i++ {
		nd := x.nodes.at(uint32(i))
		if nd.refs == 0 {
			continue
		}
		live++
		c, ok := x.children.get(nd.parent, nd.term)
		require.True(t, ok, "node %d", i)
		require.Equal(t, uint32(i), c)
	}
	require.Equal(t, live, x.children.len())
}

// TestWalkMatchesSequential checks the depth-by-depth walk of probe
// against a walk of one sequence after the other, on sequences made of
// the paths of a filled tree (whole, cut short, or with a term changed at
// some depth, so that the walk ends there) and empty ones.
func TestWalkMatchesSequential(t *testing.T) {
	d, err := NewWithIDF(Config{Language: "en"}, synthIDF(t, 1000))
	require.NoError(t, err)
	defer d.Close()
	for _, doc := range dataset.SynthDocs(1500, dataset.SynthConfig{Seed: 1, Vocabulary: 5000}) {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	x := d.ix()
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 200 {
		b := &seqBuf{}
		b.reset()
		for range 1 + rng.IntN(60) {
			// The path from the root to a random live node.
			var path []uint32
			if c := uint32(1 + rng.IntN(x.nodes.len()-1)); x.nodes.at(c).refs > 0 {
				for ; c != 0; c = x.nodes.at(c).parent {
					path = append([]uint32{x.nodes.at(c).term}, path...)
				}
			}
			switch r := rng.IntN(4); {
			case r == 0 && len(path) > 0:
				path[rng.IntN(len(path))] = uint32(rng.IntN(len(x.terms)))
			case r == 1 && len(path) > 1:
				path = path[:1+rng.IntN(len(path)-1)]
			}
			b.terms = append(b.terms, path...)
			b.w = append(b.w, make([]float64, len(path))...)
			b.off = append(b.off, int32(len(b.terms)))
		}
		x.buf = b
		x.walk()
		var want []uint32
		for k := range b.n() {
			ids, _ := b.seq(k)
			c := uint32(0)
			for _, id := range ids {
				if c != noGroup {
					if ch, ok := x.children.get(c, id); ok {
						c = ch
					} else {
						c = noGroup
					}
				}
				if c == noGroup {
					want = append(want, 0)
				} else {
					want = append(want, c)
				}
			}
		}
		require.Equal(t, want, append([]uint32(nil), x.visits...), "round %d", round)
	}
	x.buf = nil
}

// len returns the number of edges.
func (t *childTable) len() int {
	if t.parts == nil {
		return 0
	}
	n := 0
	for i := range t.parts {
		n += t.parts[i].Len()
	}
	return n
}
