package shingle_test

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/shingle"
)

// linearConfigs are the configurations whose concurrent Adds are checked
// against sequential ones: every Method, and each DSC candidate path
// (MOD_m prefix filter, MIN_s, super-shingles).
var linearConfigs = []struct {
	name string
	cfg  shingle.Config
}{
	{"ffp", shingle.Config{}},
	{"dsc", shingle.Config{Method: shingle.DSC}},
	{"dsc-min", shingle.Config{Method: shingle.DSC, Sampling: shingle.SampleMin}},
	{"dsc-ss", shingle.Config{Method: shingle.DSC, SuperShingle: 2}},
	{"spotsigs", shingle.Config{Method: shingle.SpotSigs}},
}

// linearStream returns n synthetic documents in which many pairs contain
// each other (variants of recent stories) and every seventh is an exact
// copy of an earlier one under a new ID, so concurrent Adds join groups
// whose first member may still be going in.
func linearStream(n int, seed uint64) []detector.Doc {
	docs := dataset.SynthDocs(n, dataset.SynthConfig{Seed: seed, VariantRate: 0.5, Recent: 20})
	r := rand.New(rand.NewPCG(seed, 9))
	for i := 7; i < len(docs); i += 7 {
		docs[i].Text = docs[r.IntN(i)].Text
	}
	return docs
}

type turn struct {
	remove bool
	id     string
}

// TestConcurrentAddAnswersMatchSequential adds a stream from 4 goroutines,
// two of which also remove documents added earlier, and records the order
// of the exclusive turns (the linearisation). Replaying that order in one
// goroutine must give every Add the same answer, and leave every live
// document with the same Containers and Copies: whatever runs outside the
// exclusive turn (analysis, the search before it, the postings after it)
// changes no answer. Streams of 400 documents by default, 600 with
// NEARDUP_LONG.
func TestConcurrentAddAnswersMatchSequential(t *testing.T) {
	n := dataset.LongSize(400, 600)
	if testing.Short() || shingle.RaceEnabled {
		n = 200
	}
	for _, lc := range linearConfigs {
		t.Run(lc.name, func(t *testing.T) {
			for seed := range uint64(2) {
				cfg := synthConfig(lc.cfg)
				docs := linearStream(n, 70+seed)
				byID := map[string]string{}
				for _, doc := range docs {
					byID[doc.ID] = doc.Text
				}
				par, err := shingle.New(cfg)
				require.NoError(t, err)
				var (
					mu      sync.Mutex
					turns   []turn
					answers = map[string][]detector.Match{}
					added   []string
				)
				// Called under the detector's exclusive lock.
				shingle.OnTurn(par, func(remove bool, id string) { turns = append(turns, turn{remove, id}) })
				var wg sync.WaitGroup
				for w := range 4 {
					wg.Go(func() {
						r := rand.New(rand.NewPCG(seed, uint64(w)))
						for i := w; i < len(docs); i += 4 {
							ms, err := par.Add(docs[i])
							if err != nil {
								t.Error(err)
								return
							}
							mu.Lock()
							answers[docs[i].ID] = ms
							added = append(added, docs[i].ID)
							var victim string
							if w < 2 && r.IntN(5) == 0 && len(added) > 10 {
								k := r.IntN(len(added))
								victim = added[k]
								added = append(added[:k], added[k+1:]...)
							}
							mu.Unlock()
							if victim != "" {
								if err := par.Remove(victim); err != nil {
									t.Error(err)
									return
								}
							}
						}
					})
				}
				wg.Wait()
				require.False(t, t.Failed())

				seq, err := shingle.New(cfg)
				require.NoError(t, err)
				live := map[string]bool{}
				for _, tr := range turns {
					if tr.remove {
						require.NoError(t, seq.Remove(tr.id))
						delete(live, tr.id)
						continue
					}
					ms, err := seq.Add(detector.Doc{ID: tr.id, Text: byID[tr.id]})
					require.NoError(t, err)
					require.Equal(t, ms, answers[tr.id], "seed %d: Add(%s), linearised after %d turns", seed, tr.id, len(live))
					live[tr.id] = true
				}
				require.Equal(t, par.Len(), len(live))
				for id := range live {
					want, err := seq.Containers(id)
					require.NoError(t, err)
					got, err := par.Containers(id)
					require.NoError(t, err)
					require.Equal(t, want, got, "seed %d: Containers(%s)", seed, id)
					wc, err := seq.Copies(id)
					require.NoError(t, err)
					gc, err := par.Copies(id)
					require.NoError(t, err)
					require.Equal(t, wc, gc, "seed %d: Copies(%s)", seed, id)
				}
				require.NoError(t, par.Close())
				require.NoError(t, seq.Close())
			}
		})
	}
}
