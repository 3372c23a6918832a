package shingle_test

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/shingle"
)

// synthConfig is cfg for the synthetic stream's invented language.
func synthConfig(cfg shingle.Config) shingle.Config {
	cfg.Language = "und"
	if cfg.Method == shingle.SpotSigs {
		cfg.Antecedents = synthAntecedents
	}
	return cfg
}

// TestAddAgreesWithContainers streams documents (with variants, so many
// pairs sit near the thresholds) and random removals through each method
// and requires Add's answer to be the one Containers gives right after it;
// for SpotSigs, a symmetric relation, every reported partner must report
// the new document back with the same score. Streams of 800 documents
// by default, 1,500 with NEARDUP_LONG.
func TestAddAgreesWithContainers(t *testing.T) {
	n := dataset.LongSize(800, 1500)
	if testing.Short() || shingle.RaceEnabled {
		n = 400
	}
	for _, mc := range methodConfigs {
		t.Run(mc.name, func(t *testing.T) {
			for seed := range uint64(3) {
				cfg := synthConfig(mc.cfg)
				if mc.cfg.Method == shingle.SpotSigs {
					cfg.MinIDF, cfg.MaxIDF = []float64{0, 0.3, 0.1}[seed], []float64{0, 0.7, 0.9}[seed]
				}
				d, err := shingle.New(cfg)
				require.NoError(t, err)
				r := rand.New(rand.NewPCG(seed, 3))
				docs := dataset.SynthDocs(n, dataset.SynthConfig{Seed: 30 + seed, VariantRate: 0.5, Recent: 50})
				var live []string
				for _, doc := range docs {
					add, err := d.Add(doc)
					require.NoError(t, err)
					live = append(live, doc.ID)
					got, err := d.Containers(doc.ID)
					require.NoError(t, err)
					require.Equal(t, add, got, "seed %d: Add(%s) and Containers disagree", seed, doc.ID)
					if mc.cfg.Method == shingle.SpotSigs {
						for _, m := range add {
							back, err := d.Containers(m.ID)
							require.NoError(t, err)
							require.Contains(t, back, detector.Match{ID: doc.ID, Score: m.Score}, "seed %d: %s reported %s, whose Containers do not report it back", seed, doc.ID, m.ID)
						}
					}
					if r.IntN(4) == 0 && len(live) > 10 {
						k := r.IntN(len(live))
						require.NoError(t, d.Remove(live[k]))
						live = append(live[:k], live[k+1:]...)
					}
				}
				require.NoError(t, d.Close())
			}
		})
	}
}

// TestSameIDConcurrentAdds: goroutines adding the same new ID at once; one
// succeeds, the others get ErrDuplicateID, and the winner is fully
// indexed: an exact copy added afterwards under another ID finds it with
// score 1, and its Containers finds the copy.
func TestSameIDConcurrentAdds(t *testing.T) {
	trials := 60
	if testing.Short() || shingle.RaceEnabled {
		trials = 15
	}
	texts := dataset.SynthDocs(trials, dataset.SynthConfig{Seed: 12})
	for _, mc := range methodConfigs {
		t.Run(mc.name, func(t *testing.T) {
			d, err := shingle.New(synthConfig(mc.cfg))
			require.NoError(t, err)
			defer d.Close()
			for trial := range trials {
				id := "same" + strconv.Itoa(trial)
				text := texts[trial].Text
				var wg sync.WaitGroup
				errs := make([]error, 6)
				for g := range errs {
					wg.Go(func() {
						// Different texts under the one ID: whichever wins
						// must be indexed whole.
						_, errs[g] = d.Add(detector.Doc{ID: id, Text: text + " " + strconv.Itoa(g)})
					})
				}
				wg.Wait()
				won := -1
				for g, err := range errs {
					if err == nil {
						require.Equal(t, -1, won, "trial %d: two Adds of %q succeeded", trial, id)
						won = g
						continue
					}
					require.True(t, errors.Is(err, detector.ErrDuplicateID), "trial %d: %v", trial, err)
				}
				require.NotEqual(t, -1, won, "trial %d: no Add of %q succeeded", trial, id)
				cp := "copy" + strconv.Itoa(trial)
				ms, err := d.Add(detector.Doc{ID: cp, Text: text + " " + strconv.Itoa(won)})
				require.NoError(t, err)
				assert.Contains(t, ms, detector.Match{ID: id, Score: 1}, "trial %d: the winner is not found by its exact copy", trial)
				ms, err = d.Containers(id)
				require.NoError(t, err)
				assert.Contains(t, ms, detector.Match{ID: cp, Score: 1}, "trial %d: the winner does not find its exact copy", trial)
			}
		})
	}
}

// TestConcurrentAddsMatchSequential adds one collection from 4 goroutines
// and one by one, removes the same documents from both, and requires every
// document's Containers to be the same: analysis outside the lock changes
// no result.
func TestConcurrentAddsMatchSequential(t *testing.T) {
	n := 800
	if testing.Short() || shingle.RaceEnabled {
		n = 200
	}
	docs := dataset.SynthDocs(n, dataset.SynthConfig{Seed: 40, VariantRate: 0.5, Recent: 40})
	for _, mc := range methodConfigs {
		t.Run(mc.name, func(t *testing.T) {
			cfg := synthConfig(mc.cfg)
			seq, err := shingle.New(cfg)
			require.NoError(t, err)
			par, err := shingle.New(cfg)
			require.NoError(t, err)
			for _, doc := range docs {
				_, err := seq.Add(doc)
				require.NoError(t, err)
			}
			var wg sync.WaitGroup
			for w := range 4 {
				wg.Go(func() {
					for i := w; i < len(docs); i += 4 {
						if _, err := par.Add(docs[i]); err != nil {
							t.Error(err)
						}
					}
				})
			}
			wg.Wait()
			compare := func(when string) {
				for i, doc := range docs {
					if i%5 == 0 && when == "after removals" {
						continue
					}
					want, err := seq.Containers(doc.ID)
					require.NoError(t, err)
					got, err := par.Containers(doc.ID)
					require.NoError(t, err)
					require.Equal(t, want, got, "%s: Containers(%s)", when, doc.ID)
				}
			}
			compare("after adds")
			for i := 0; i < len(docs); i += 5 {
				require.NoError(t, seq.Remove(docs[i].ID))
				require.NoError(t, par.Remove(docs[i].ID))
			}
			compare("after removals")
		})
	}
}

// TestRacingCalls runs Add, Containers and Remove of a small pool of IDs
// from 8 goroutines, with Close racing them half-way: no panic, every
// error one of the documented sentinels, and only ErrClosed after Close.
func TestRacingCalls(t *testing.T) {
	docs := dataset.SynthDocs(40, dataset.SynthConfig{Seed: 50, VariantRate: 0.5, Recent: 10})
	for _, mc := range methodConfigs {
		t.Run(mc.name, func(t *testing.T) {
			d, err := shingle.New(synthConfig(mc.cfg))
			require.NoError(t, err)
			allowed := func(err error) bool {
				return err == nil || errors.Is(err, detector.ErrDuplicateID) || errors.Is(err, detector.ErrUnknownID) || errors.Is(err, detector.ErrClosed)
			}
			var wg sync.WaitGroup
			for g := range 8 {
				wg.Go(func() {
					r := rand.New(rand.NewPCG(uint64(g), 1))
					for i := range 300 {
						if g == 0 && i == 150 {
							assert.NoError(t, d.Close())
						}
						doc := docs[r.IntN(len(docs))]
						var err error
						switch r.IntN(3) {
						case 0:
							_, err = d.Add(doc)
						case 1:
							_, err = d.Containers(doc.ID)
						default:
							err = d.Remove(doc.ID)
						}
						if !allowed(err) {
							t.Errorf("unexpected error: %v", err)
						}
					}
				})
			}
			wg.Wait()
			_, err = d.Add(docs[0])
			assert.ErrorIs(t, err, detector.ErrClosed)
			_, err = d.Containers(docs[0].ID)
			assert.ErrorIs(t, err, detector.ErrClosed)
			assert.ErrorIs(t, d.Remove(docs[0].ID), detector.ErrClosed)
		})
	}
}
