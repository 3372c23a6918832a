package minhash

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/benchfloor"
	"github.com/seed-9ef9c1df/neardup/internal/synth"
)

// concurrentModes are the configurations the concurrency tests run: each
// Mode, and Weighted mode with statistics fixed in advance.
func concurrentModes(t testing.TB, docs []detector.Doc) map[string]func() (*Detector, error) {
	st, err := NewStats(Config{Mode: Weighted})
	require.NoError(t, err)
	for _, d := range docs {
		st.AddDocument(d.Text)
	}
	return map[string]func() (*Detector, error){
		"Jaccard":          func() (*Detector, error) { return New(Config{}) },
		"Weighted":         func() (*Detector, error) { return New(Config{Mode: Weighted}) },
		"WeightedICWS":     func() (*Detector, error) { return New(Config{Mode: Weighted, Sampler: IoffeICWS}) },
		"WeightedFixedIDF": func() (*Detector, error) { return NewWithStats(Config{Mode: Weighted}, st) },
		"Containment":      func() (*Detector, error) { return New(Config{Mode: Containment}) },
	}
}

// TestConcurrentSameID: goroutines adding the same new ID at once: exactly
// one succeeds, the others get ErrDuplicateID, and the winner is fully
// indexed (an exact copy added afterwards finds it with score 1).
func TestConcurrentSameID(t *testing.T) {
	docs := synth.Docs(60, synth.Config{Seed: 9})
	trials := 40
	if raceEnabled {
		trials = 10
	}
	for name, build := range concurrentModes(t, docs) {
		t.Run(name, func(t *testing.T) {
			d, err := build()
			require.NoError(t, err)
			for trial := range trials {
				doc := docs[trial%len(docs)]
				doc.ID = fmt.Sprintf("same%d", trial)
				const g = 4
				errs := make([]error, g)
				var wg sync.WaitGroup
				start := make(chan struct{})
				for i := range g {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						_, errs[i] = d.Add(doc)
					}()
				}
				close(start)
				wg.Wait()
				wins := 0
				for _, err := range errs {
					if err == nil {
						wins++
					} else {
						assert.ErrorIs(t, err, detector.ErrDuplicateID)
					}
				}
				require.Equal(t, 1, wins, "trial %d: exactly one Add succeeds", trial)
				copyDoc := detector.Doc{ID: doc.ID + "-copy", Text: doc.Text}
				ms, err := d.Add(copyDoc)
				require.NoError(t, err)
				assert.Contains(t, ms, detector.Match{ID: doc.ID, Score: 1}, "trial %d: the winner is indexed", trial)
				// Take the copy out again so that later trials of the same
				// text see one earlier document only.
				require.NoError(t, d.Remove(copyDoc.ID))
				require.NoError(t, d.Remove(doc.ID))
			}
		})
	}
}

// TestConcurrentMatchesSequential: 4 goroutines adding distinct documents
// (with Containers and Remove interleaved) leave the index a sequential
// run of the same Adds leaves: Containers of every live document agree.
// Weighted mode with online statistics weighs each document by the
// documents counted before it, so its concurrent result equals the
// sequential one of its own counting order, which a test cannot fix; it
// runs here for the race detector and the exact-copy guarantee.
func TestConcurrentMatchesSequential(t *testing.T) {
	docs := synth.Docs(300, synth.Config{Seed: 4})
	for name, build := range concurrentModes(t, docs) {
		t.Run(name, func(t *testing.T) {
			seq, err := build()
			require.NoError(t, err)
			for _, doc := range docs {
				_, err := seq.Add(doc)
				require.NoError(t, err)
			}
			par, err := build()
			require.NoError(t, err)
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := g; i < len(docs); i += 4 {
						_, err := par.Add(docs[i])
						assert.NoError(t, err)
						_, err = par.Containers(docs[i].ID)
						assert.NoError(t, err)
					}
				}()
			}
			wg.Wait()
			for _, doc := range docs {
				ms, err := par.Containers(doc.ID)
				require.NoError(t, err)
				if name == "Weighted" || name == "WeightedICWS" {
					continue
				}
				want, err := seq.Containers(doc.ID)
				require.NoError(t, err)
				assert.Equal(t, want, ms, "Containers(%s)", doc.ID)
			}
			ms, err := par.Add(detector.Doc{ID: "copy", Text: docs[3].Text})
			require.NoError(t, err)
			assert.Contains(t, ms, detector.Match{ID: docs[3].ID, Score: 1})
		})
	}
}

// TestCloseWhileAdding: Close racing Adds that sign outside the lock: no
// panic, no deadlock, and after Close only ErrClosed.
func TestCloseWhileAdding(t *testing.T) {
	docs := synth.Docs(80, synth.Config{Seed: 6})
	for name, build := range concurrentModes(t, docs) {
		t.Run(name, func(t *testing.T) {
			d, err := build()
			require.NoError(t, err)
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := g; i < len(docs); i += 4 {
						if _, err := d.Add(docs[i]); err != nil && !errors.Is(err, detector.ErrClosed) {
							t.Errorf("Add: %v", err)
						}
						if i == 40 {
							_ = d.Close()
						}
					}
				}()
			}
			wg.Wait()
			_, err = d.Add(docs[0])
			assert.ErrorIs(t, err, detector.ErrClosed)
			_, err = d.Containers(docs[1].ID)
			assert.ErrorIs(t, err, detector.ErrClosed)
		})
	}
}

// BenchmarkAddParallel adds the Reuters documents into a fresh Detector
// from 1 and from 2 goroutines, per mode, with the floor in the same run:
// the docs/s of goroutines=2 over goroutines=1 is the scaling of Add.
func BenchmarkAddParallel(b *testing.B) {
	texts, docs, _ := reutersTexts(b)
	b.Run("floor", func(b *testing.B) { benchfloor.Run(b, texts) })
	for _, mode := range []struct {
		name string
		cfg  Config
	}{{"Jaccard", Config{}}, {"Weighted", Config{Mode: Weighted}}, {"Containment", Config{Mode: Containment}}} {
		for _, g := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/goroutines=%d", mode.name, g), func(b *testing.B) {
				benchfloor.AddParallel(b, func() (detector.Detector, error) { return New(mode.cfg) }, docs, g)
			})
		}
	}
}
