package codet

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/synth"
)

// concurrentDocs are real articles when the shared data is there (Reuters
// in date order, with its repeated stories), a synthetic stream otherwise.
func concurrentDocs(t *testing.T, n int) []detector.Doc {
	if _, err := dataset.Path("reuters21578.jsonl"); err == nil {
		return dataset.Docs(dataset.Reuters(t, n))
	}
	return synth.Docs(n, synth.Config{Seed: 9, Recent: 30, VariantRate: 0.5})
}

// TestConcurrentAddsAreSequential adds documents from 4 goroutines and
// checks that every answer (each Add's result, then Containers of every
// document, and the counters) is the one of sequential Adds in the order
// the concurrent ones took the lock, with the reference table (sequences
// built outside the lock), with online idf (built under it), and with a
// NodeLimit small enough to deactivate nodes.
func TestConcurrentAddsAreSequential(t *testing.T) {
	docs := concurrentDocs(t, 250)
	for _, cfg := range []Config{
		{Language: "en"},
		{Language: "en", IDF: IDFOnline},
		{Language: "en", NodeLimit: 4}, // deactivation and its retraction
	} {
		d, err := New(cfg)
		require.NoError(t, err)
		got := make([][]detector.Match, len(docs))
		var next atomic.Int64
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for {
					i := int(next.Add(1)) - 1
					if i >= len(docs) {
						return
					}
					ms, err := d.Add(docs[i])
					assert.NoError(t, err)
					got[i] = ms
				}
			})
		}
		wg.Wait()
		// The order the Adds took the lock.
		order := make([]int, len(docs))
		for i, doc := range docs {
			idx, err := d.docs.Lookup("test", doc.ID)
			require.NoError(t, err)
			order[d.docOrd[idx]] = i
		}
		seq, err := New(cfg)
		require.NoError(t, err)
		for _, i := range order {
			ms, err := seq.Add(docs[i])
			require.NoError(t, err)
			require.Equal(t, ms, got[i], "%s: Add(%s)", d.Weights(), docs[i].ID)
		}
		for _, doc := range docs {
			a, err := d.Containers(doc.ID)
			require.NoError(t, err)
			b, err := seq.Containers(doc.ID)
			require.NoError(t, err)
			require.Equal(t, b, a, "%s: Containers(%s)", d.Weights(), doc.ID)
		}
		assert.Equal(t, seq.Stats(), d.Stats())
		_ = d.Close()
		_ = seq.Close()
	}
}

// BenchmarkAddPhases streams the Reuters documents (default Config) through
// the two halves of Add, timed apart: the analysis and sequence building
// done outside the lock, and the tree update done under it. Their ratio
// bounds what more goroutines can gain (Amdahl: with a serial share f, 2
// goroutines reach at most 1/(f + (1-f)/2) of one), independently of how
// loaded a shared machine is.
func BenchmarkAddPhases(b *testing.B) {
	docs := dataset.Docs(dataset.Reuters(b, 2000))
	var outside, inside time.Duration
	for b.Loop() {
		d, err := New(Config{Language: "en"})
		if err != nil {
			b.Fatal(err)
		}
		for _, doc := range docs {
			t0 := time.Now()
			w, err := d.pool.get()
			if err != nil {
				b.Fatal(err)
			}
			ad := d.prepare(w, doc)
			t1 := time.Now()
			d.mu.Lock()
			if _, err := d.addLocked(w, ad, doc); err != nil {
				b.Fatal(err)
			}
			d.mu.Unlock()
			d.pool.put(w)
			t2 := time.Now()
			outside += t1.Sub(t0)
			inside += t2.Sub(t1)
		}
		d.Close()
	}
	n := float64(b.N * len(docs))
	f := float64(inside) / float64(inside+outside)
	b.ReportMetric(float64(outside.Nanoseconds())/n, "ns-outside/doc")
	b.ReportMetric(float64(inside.Nanoseconds())/n, "ns-locked/doc")
	b.ReportMetric(1/(f+(1-f)/2), "max-speedup-2")
}
