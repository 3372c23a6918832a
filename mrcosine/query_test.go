package mrcosine

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// TestQueryChangesNothing runs one stream on two detectors, one of which
// answers a Query before every step (of the next document, of a live
// document under its own ID, with an empty ID): each Query must equal the
// Add that follows, and the two detectors must give the same answers,
// lengths and snapshots throughout.
func TestQueryChangesNothing(t *testing.T) {
	texts := synthTexts(80, 5)
	texts = append(texts, "", strings.ToUpper(texts[3]), "...")
	ops := floodStream(texts, 5, 10)
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			cfg := m.cfg
			cfg.MaxResults = 4
			plain, err := New(cfg)
			require.NoError(t, err)
			probed, err := New(cfg)
			require.NoError(t, err)
			var last detector.Doc
			for step, o := range ops {
				if last.ID != "" {
					q, err := probed.Query(last)
					require.NoError(t, err)
					c, err := probed.Containers(last.ID)
					if err == nil {
						require.Equal(t, c, q, "step %d: Query of a live document under its ID is its Containers", step)
					}
				}
				_, err := probed.Query(detector.Doc{Text: texts[step%len(texts)]})
				require.NoError(t, err)
				if o.remove {
					require.NoError(t, plain.Remove(o.id))
					require.NoError(t, probed.Remove(o.id))
					continue
				}
				doc := detector.Doc{ID: o.id, Text: o.text}
				q, err := probed.Query(doc)
				require.NoError(t, err)
				a, err := probed.Add(doc)
				require.NoError(t, err)
				require.Equal(t, a, q, "step %d: Query agrees with the Add after it", step)
				p, err := plain.Add(doc)
				require.NoError(t, err)
				require.Equal(t, p, a, "step %d: Queries changed a later Add", step)
				require.Equal(t, plain.Len(), probed.Len())
				last = doc
			}
			require.Equal(t, encode(t, plain), encode(t, probed), "the snapshots after the stream")
		})
	}
}

func TestQueryErrors(t *testing.T) {
	d, err := New(Config{MaxTextBytes: 10})
	require.NoError(t, err)
	_, err = d.Query(detector.Doc{Text: strings.Repeat("x", 11)})
	require.ErrorIs(t, err, detector.ErrTooLarge)
	ms, err := d.Query(detector.Doc{})
	require.NoError(t, err)
	assert.NotNil(t, ms)
	assert.Empty(t, ms)
	_, err = d.Copies("nope")
	require.ErrorIs(t, err, detector.ErrUnknownID)
	require.NoError(t, d.Close())
	_, err = d.Query(detector.Doc{Text: "x"})
	require.ErrorIs(t, err, detector.ErrClosed)
	_, err = d.Copies("x")
	require.ErrorIs(t, err, detector.ErrClosed)
}

// TestConcurrentQueryAdd queries copies of the texts being added from
// other goroutines, under IDs no Add uses: no Query may ever be seen by an
// Add, a Containers or another Query, and at the end every live document
// answers as in a sequential run.
func TestConcurrentQueryAdd(t *testing.T) {
	texts := synthTexts(40, 6)
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			cfg := m.cfg
			cfg.MaxResults = 1000
			d, err := New(cfg)
			require.NoError(t, err)
			probe := func(ms []detector.Match) {
				for _, m := range ms {
					if strings.HasPrefix(m.ID, "probe") {
						t.Errorf("a Query's document %s was reported", m.ID)
					}
				}
			}
			var wg sync.WaitGroup
			for g := range 2 {
				wg.Go(func() {
					for i, text := range texts {
						ms, err := d.Add(detector.Doc{ID: fmt.Sprintf("g%d-%d", g, i), Text: text})
						if err != nil {
							t.Error(err)
							return
						}
						probe(ms)
					}
				})
			}
			for q := range 2 {
				wg.Go(func() {
					for i, text := range texts {
						ms, err := d.Query(detector.Doc{ID: fmt.Sprintf("probe%d-%d", q, i), Text: text})
						if err != nil {
							t.Error(err)
							return
						}
						probe(ms)
					}
				})
			}
			wg.Wait()
			seq, err := New(cfg)
			require.NoError(t, err)
			for g := range 2 {
				for i, text := range texts {
					_, err := seq.Add(detector.Doc{ID: fmt.Sprintf("g%d-%d", g, i), Text: text})
					require.NoError(t, err)
				}
			}
			require.Equal(t, seq.Len(), d.Len())
			for g := range 2 {
				for i := range texts {
					id := fmt.Sprintf("g%d-%d", g, i)
					a, err := d.Containers(id)
					require.NoError(t, err)
					b, err := seq.Containers(id)
					require.NoError(t, err)
					require.Equal(t, b, a, "Containers(%s)", id)
				}
			}
			require.Equal(t, encode(t, seq), encode(t, d))
		})
	}
}
