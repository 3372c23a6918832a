package minhash

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/synth"
)

// TestQueryChangesNothing runs one stream on two detectors, one of which
// answers Queries before every step (of the next document, of the last
// added one under its own ID, of an unrelated text with an empty ID): each
// Query of the next document must equal the Add that follows, and the two
// detectors must give the same answers, lengths, online statistics and
// snapshots throughout.
func TestQueryChangesNothing(t *testing.T) {
	texts := streamTexts(150, 8)
	ops := floodStream(texts, 5, 6)
	stats, err := NewStats(Config{Mode: Weighted})
	require.NoError(t, err)
	for _, text := range texts[:50] {
		stats.AddDocument(text)
	}
	cfgs := referenceConfigs(stats)
	cfgs = append(cfgs, struct {
		name  string
		cfg   Config
		stats *Stats
	}{"WeightedPercentile", Config{Mode: Weighted, Rare: RarePercentile, RarePercent: 30, Sampler: IoffeICWS, NumHashes: 32}, nil})
	for _, tc := range cfgs {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			if cfg.MaxResults == 0 {
				cfg.MaxResults = 4
			}
			plain, err := NewWithStats(cfg, tc.stats)
			require.NoError(t, err)
			probed, err := NewWithStats(cfg, tc.stats)
			require.NoError(t, err)
			var last detector.Doc
			for step, o := range ops {
				if last.ID != "" {
					_, err := probed.Query(last)
					require.NoError(t, err)
				}
				_, err := probed.Query(detector.Doc{Text: texts[(step*7)%len(texts)]})
				require.NoError(t, err)
				if o.remove {
					require.NoError(t, plain.Remove(o.id))
					require.NoError(t, probed.Remove(o.id))
					continue
				}
				doc := detector.Doc{ID: o.id, Text: o.text}
				q, err := probed.Query(doc)
				require.NoError(t, err)
				anon, err := probed.Query(detector.Doc{Text: o.text})
				require.NoError(t, err)
				a, err := probed.Add(doc)
				require.NoError(t, err)
				require.Equal(t, a, q, "step %d: Query agrees with the Add after it", step)
				require.Equal(t, a, anon, "step %d: Query with an empty ID agrees with the Add after it", step)
				p, err := plain.Add(doc)
				require.NoError(t, err)
				require.Equal(t, p, a, "step %d: Queries changed a later Add", step)
				require.Equal(t, plain.Len(), probed.Len())
				last = doc
			}
			if plain.online {
				assert.Equal(t, plain.stats.fingerprint(), probed.stats.fingerprint(), "the online statistics")
			}
			require.Equal(t, encode(t, plain), encode(t, probed), "the snapshots after the stream")
		})
	}
}

func TestQueryErrors(t *testing.T) {
	for _, mode := range []Mode{Jaccard, Weighted} {
		d, err := New(Config{Mode: mode, MaxTextBytes: 10})
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
	}
}

// TestConcurrentQueryAdd queries copies of the texts being added from
// other goroutines, under IDs no Add uses, in every mode: no Query may
// ever be seen by an Add, a Containers or another Query, and at the end
// every live document answers as in a sequential run (in Weighted mode
// with online statistics, the statistics are those of the Adds alone).
func TestConcurrentQueryAdd(t *testing.T) {
	docs := synth.Docs(40, synth.Config{Seed: 17})
	for _, cfg := range []Config{{}, {Mode: Weighted}, {Mode: Containment}} {
		t.Run(fmt.Sprint(cfg.Mode), func(t *testing.T) {
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
					for i, doc := range docs {
						ms, err := d.Add(detector.Doc{ID: fmt.Sprintf("g%d-%d", g, i), Text: doc.Text})
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
					for i, doc := range docs {
						ms, err := d.Query(detector.Doc{ID: fmt.Sprintf("probe%d-%d", q, i), Text: doc.Text})
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
			require.Equal(t, 2*len(docs), d.Len())
			if d.online {
				// The concurrent Adds counted in some interleaving; the
				// counts are those of the documents, whatever the order.
				for g := range 2 {
					for i, doc := range docs {
						_, err := seq.Add(detector.Doc{ID: fmt.Sprintf("g%d-%d", g, i), Text: doc.Text})
						require.NoError(t, err)
					}
				}
				assert.Equal(t, seq.stats.fingerprint(), d.stats.fingerprint(), "no Query was counted")
				return
			}
			for g := range 2 {
				for i, doc := range docs {
					_, err := seq.Add(detector.Doc{ID: fmt.Sprintf("g%d-%d", g, i), Text: doc.Text})
					require.NoError(t, err)
				}
			}
			for g := range 2 {
				for i := range docs {
					id := fmt.Sprintf("g%d-%d", g, i)
					a, err := d.Containers(id)
					require.NoError(t, err)
					b, err := seq.Containers(id)
					require.NoError(t, err)
					require.Equal(t, b, a, "Containers(%s)", id)
				}
			}
		})
	}
}
