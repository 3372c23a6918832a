package minhash

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/detectortest"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

func TestConformance(t *testing.T) {
	stats, err := NewStats(WeightedConfig())
	require.NoError(t, err)
	for _, doc := range dataset.SynthDocs(100, dataset.SynthConfig{Seed: 4}) {
		stats.AddDocument(doc.Text)
	}
	cases := []struct {
		name      string
		cfg       Config
		symmetric bool
		slow      bool // skipped under -race (the suite's 5 MB input)
		long      bool // skipped unless NEARDUP_LONG is set
		stats     *Stats
	}{
		{"Jaccard", Config{}, true, false, false, nil},
		{"JaccardKHash", Config{Scheme: KHash}, true, true, true, nil},
		{"Supershingles", Config{Supershingles: 16, Threshold: 0.5}, true, false, false, nil},
		{"Weighted", WeightedConfig(), true, true, true, nil},
		{"WeightedStats", WeightedConfig(), true, true, false, stats},
		{"Containment", Config{Mode: Containment}, false, false, false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.slow && raceEnabled {
				// ICWS and K-hash cost K hashes per shingle: the suite's
				// 5 MB document takes minutes under the race detector.
				// TestWeightedConcurrent covers the Weighted locking.
				t.Skip("slow under -race; runs without it")
			}
			if tc.long {
				// The default run checks each mode, and the weighted one
				// with statistics; K-hash and plain Weighted follow with
				// NEARDUP_LONG.
				dataset.SkipLong(t)
			}
			detectortest.Run(t, func() detector.Detector {
				d, err := NewWithStats(tc.cfg, tc.stats)
				require.NoError(t, err)
				return d
			}, detectortest.Options{Symmetric: tc.symmetric})
		})
	}
}

// TestWeightedConcurrent exercises Weighted mode's locking (online
// statistics counted in turn and sampled outside the lock, frozen
// statistics signed outside it) from several goroutines; run it with
// -race.
func TestWeightedConcurrent(t *testing.T) {
	docs := dataset.SynthDocs(200, dataset.SynthConfig{Seed: 5})
	st, err := NewStats(WeightedConfig())
	require.NoError(t, err)
	for _, doc := range docs {
		st.AddDocument(doc.Text)
	}
	for name, stats := range map[string]*Stats{"online": nil, "frozen": st} {
		t.Run(name, func(t *testing.T) {
			d, err := NewWithStats(WeightedConfig(), stats)
			require.NoError(t, err)
			var wg sync.WaitGroup
			errs := make(chan error, 4)
			for g := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := g; i < len(docs); i += 4 {
						if _, err := d.Add(docs[i]); err != nil {
							errs <- err
							return
						}
						if _, err := d.Containers(docs[i].ID); err != nil {
							errs <- err
							return
						}
						if i%10 == 0 {
							if err := d.Remove(docs[i].ID); err != nil {
								errs <- err
								return
							}
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				assert.NoError(t, err)
			}
			// Every copy among the live documents finds its source when
			// both are live and identical texts.
			ms, err := d.Add(detector.Doc{ID: "copy", Text: docs[1].Text})
			require.NoError(t, err)
			assert.Equal(t, docs[1].ID, ms[0].ID, "an exact copy is reported first")
			assert.Equal(t, 1.0, ms[0].Score)
		})
	}
}
