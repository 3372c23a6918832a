package minhash

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// concurrentModes are the configurations the concurrency tests run: each
// Mode, Weighted mode with statistics fixed in advance, and Weighted mode's
// other sampler and rare-phrase rule.
func concurrentModes(t testing.TB, docs []detector.Doc) map[string]func() (*Detector, error) {
	st, err := NewStats(Config{Mode: Weighted})
	require.NoError(t, err)
	for _, d := range docs {
		st.AddDocument(d.Text)
	}
	return map[string]func() (*Detector, error){
		"Jaccard":       func() (*Detector, error) { return New(Config{}) },
		"Weighted":      func() (*Detector, error) { return New(Config{Mode: Weighted}) },
		"WeightedICWS":  func() (*Detector, error) { return New(Config{Mode: Weighted, Sampler: IoffeICWS}) },
		"WeightedDarts": func() (*Detector, error) { return New(Config{Mode: Weighted, Sampler: Darts}) },
		// The percentile rule reads the whole histogram of phrase dfs in
		// the last turn of the counting.
		"WeightedPercentile": func() (*Detector, error) { return New(Config{Mode: Weighted, Rare: RarePercentile}) },
		"WeightedFixedIDF":   func() (*Detector, error) { return NewWithStats(Config{Mode: Weighted}, st) },
		"Containment":        func() (*Detector, error) { return New(Config{Mode: Containment}) },
	}
}

// TestConcurrentMatchesSequential: 4 goroutines adding distinct documents
// (with Containers and Remove interleaved) leave the index a sequential
// run of the same Adds leaves: Containers of every live document agree.
// Weighted mode with online statistics weighs each document by the
// documents counted before it, so its concurrent result equals the
// sequential one of its own counting order, which a test cannot fix; it
// runs here for the race detector and the exact-copy guarantee. 150
// documents by default, 300 with NEARDUP_LONG.
func TestConcurrentMatchesSequential(t *testing.T) {
	docs := dataset.SynthDocs(dataset.LongSize(150, 300), dataset.SynthConfig{Seed: 4})
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
				if par.a.online {
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
	docs := dataset.SynthDocs(80, dataset.SynthConfig{Seed: 6})
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
	b.Run("floor", func(b *testing.B) { testkit.Run(b, texts) })
	for _, mode := range []struct {
		name string
		cfg  Config
	}{{"Jaccard", Config{}}, {"Weighted", Config{Mode: Weighted}}, {"Containment", Config{Mode: Containment}}} {
		for _, g := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/goroutines=%d", mode.name, g), func(b *testing.B) {
				testkit.AddParallel(b, func() (detector.Detector, error) { return New(mode.cfg) }, docs, g)
			})
		}
	}
}

// event is one linearised call: an Add or a Remove of id.
type event struct{ op, id string }

// recordOrder records the order in which Adds commit and Removes take
// effect (their turns under the exclusive lock) until the test ends.
func recordOrder(d *Detector) func() []event {
	var mu sync.Mutex
	var log []event
	d.e.SetTrace(func(remove bool, id string) {
		op := "add"
		if remove {
			op = "remove"
		}
		mu.Lock()
		log = append(log, event{op, id})
		mu.Unlock()
	})
	return func() []event {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(log)
	}
}

// replay makes the calls of log one after another on a fresh Detector
// and requires every Add's answer to be got[id], and the final state
// (Containers of every live document, snapshot bytes) to be par's.
func replay(t *testing.T, build func() (*Detector, error), log []event, byID map[string]detector.Doc, got map[string][]detector.Match, par *Detector) {
	t.Helper()
	seq, err := build()
	require.NoError(t, err)
	adds := 0
	live := map[string]bool{}
	for _, e := range log {
		if e.op == "remove" {
			require.NoError(t, seq.Remove(e.id))
			delete(live, e.id)
			continue
		}
		adds++
		live[e.id] = true
		ms, err := seq.Add(byID[e.id])
		require.NoError(t, err)
		want, ok := got[e.id]
		require.True(t, ok, "Add(%s) committed but returned no answer", e.id)
		require.Equal(t, ms, want, "Add(%s): the answer of the Adds one after another in commit order", e.id)
	}
	require.Equal(t, len(got), adds, "every successful Add committed once")
	for id := range live {
		want, err := seq.Containers(id)
		require.NoError(t, err)
		ms, err := par.Containers(id)
		require.NoError(t, err)
		require.Equal(t, want, ms, "Containers(%s)", id)
	}
	var a, b bytes.Buffer
	_, err = seq.WriteTo(&a)
	require.NoError(t, err)
	_, err = par.WriteTo(&b)
	require.NoError(t, err)
	require.Equal(t, a.Bytes(), b.Bytes(), "snapshots of the final states")
}

// nearCopies returns a stream rich in near-duplicates and exact copies:
// synthetic variants of a few recent stories, and every fifth document
// again under another ID.
func nearCopies(n int, seed uint64) []detector.Doc {
	docs := dataset.SynthDocs(n, dataset.SynthConfig{Seed: seed, VariantRate: 0.6, Recent: 15, MinSentences: 3, MaxSentences: 8})
	for i := 0; i < n; i += 5 {
		docs = append(docs, detector.Doc{ID: fmt.Sprintf("copy%d", i), Text: docs[i].Text})
	}
	return docs
}

// TestConcurrentAddsMatchSequential: 4 goroutines adding near-duplicates
// and exact copies (and, where the statistics are not online, removing
// some of them): every Add's answer, and the final Containers and
// snapshot, are those of the same calls one after another in the order
// they were linearised. In Weighted mode with online statistics Adds are
// linearised in the order they count their documents; a Remove between
// an Add's counting and its commit would count as after it in the
// statistics and before it in the index, so that mode runs Adds only.
func TestConcurrentAddsMatchSequential(t *testing.T) {
	docs := nearCopies(240, 11)
	byID := map[string]detector.Doc{}
	for _, d := range docs {
		byID[d.ID] = d
	}
	for name, build := range concurrentModes(t, docs) {
		t.Run(name, func(t *testing.T) {
			par, err := build()
			require.NoError(t, err)
			order := recordOrder(par)
			removes := !par.a.online
			var mu sync.Mutex
			got := map[string][]detector.Match{}
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Go(func() {
					for i := g; i < len(docs); i += 4 {
						ms, err := par.Add(docs[i])
						if !assert.NoError(t, err) {
							return
						}
						mu.Lock()
						got[docs[i].ID] = ms
						mu.Unlock()
						if removes && i%7 == 3 {
							assert.NoError(t, par.Remove(docs[i].ID))
						}
					}
				})
			}
			wg.Wait()
			replay(t, build, order(), byID, got, par)
		})
	}
}
