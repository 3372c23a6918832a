package minhash

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// counted is what a document's weights are made of: the counts count (or
// countWhole) leaves in a Sketcher.
type counted struct {
	phrDF  []int64
	termDF map[uint64]int64
	cut, n int64
}

func countedOf(sk *Sketcher) counted {
	c := counted{phrDF: append([]int64(nil), sk.phrDF[:len(sk.keys)]...), termDF: map[uint64]int64{}, cut: sk.cut, n: sk.n}
	for t, h := range sk.dterms {
		c.termDF[h] = sk.tdf[t]
	}
	return c
}

// TestCountInParts: documents counted from 4 goroutines through the parts
// get the counts they would get counted whole one after another in ticket
// order (each document's phrase and term dfs, the rare-phrase cut and N),
// with Removes between them, under both rare-phrase rules; the statistics
// end with the fingerprint of the sequential ones.
func TestCountInParts(t *testing.T) {
	docs := nearCopies(160, 5)
	for _, rule := range []RareRule{RareDocFraction, RarePercentile} {
		t.Run(fmt.Sprintf("Rare=%d", rule), func(t *testing.T) {
			cfg, err := Config{Mode: Weighted, Rare: rule}.withDefaults()
			require.NoError(t, err)
			par := newStats(cfg)
			// The Detector draws tickets under its lock; mu plays it here,
			// and order records who drew which.
			var mu sync.Mutex
			type step struct {
				doc    int
				remove bool
				got    counted
			}
			var order []*step
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Go(func() {
					sk := newSketcher(cfg)
					for i := g; i < len(docs); i += 4 {
						sk.phrases(docs[i].Text)
						mu.Lock()
						st := &step{doc: i}
						order = append(order, st)
						tk := par.ticket()
						mu.Unlock()
						sk.count(par, tk)
						st.got = countedOf(sk)
						if i%5 == 2 {
							// Take an earlier document of this goroutine out again.
							sk.phrases(docs[i-4*((i/4)%3)].Text)
							mu.Lock()
							order = append(order, &step{doc: i - 4*((i/4)%3), remove: true})
							par.exclusive(func() { par.remove(sk.dterms, sk.keys) })
							mu.Unlock()
						}
					}
				})
			}
			wg.Wait()

			seq := newStats(cfg)
			sk := newSketcher(cfg)
			for k, st := range order {
				sk.phrases(docs[st.doc].Text)
				if st.remove {
					seq.exclusive(func() { seq.remove(sk.dterms, sk.keys) })
					continue
				}
				countWhole(sk, seq)
				require.Equal(t, countedOf(sk), st.got, "step %d: document %d", k, st.doc)
			}
			assert.Equal(t, seq.fingerprint(), par.fingerprint())
			assert.Equal(t, seq.N(), par.N())
			assert.Equal(t, seq.hist, par.hist)
			assert.Equal(t, seq.nphr, par.nphr)
		})
	}
}

// TestStatPartsSpread: phrase hashes of real text spread over every part,
// none holding more than twice its share (the pipeline is as slow as its
// busiest part).
func TestStatPartsSpread(t *testing.T) {
	cfg, err := Config{Mode: Weighted}.withDefaults()
	require.NoError(t, err)
	st := newStats(cfg)
	for _, d := range dataset.SynthDocs(200, dataset.SynthConfig{Seed: 8}) {
		st.AddDocument(d.Text)
	}
	total := 0
	for p := range st.parts {
		total += st.parts[p].phrDF.m.Len()
	}
	require.Positive(t, total)
	for p := range st.parts {
		n := st.parts[p].phrDF.m.Len()
		assert.Positive(t, n, "part %d", p)
		assert.Less(t, n, 2*total/statParts, "part %d", p)
	}
}
