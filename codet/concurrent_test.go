package codet

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// concurrentDocs are real articles when the shared data is there (Reuters
// in date order, with its repeated stories), a synthetic stream otherwise.
func concurrentDocs(t *testing.T, n int) []detector.Doc {
	if _, err := dataset.Path("reuters21578.jsonl"); err == nil {
		return dataset.Docs(dataset.Reuters(t, n))
	}
	return dataset.SynthDocs(n, dataset.SynthConfig{Seed: 9, Recent: 30, VariantRate: 0.5})
}

// addConcurrently adds docs to d from g goroutines that take them in
// turn, and returns each document's answer, by position.
func addConcurrently(t *testing.T, d *Detector, docs []detector.Doc, g int) [][]detector.Match {
	got := make([][]detector.Match, len(docs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range g {
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
	return got
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
		got := addConcurrently(t, d, docs, 4)
		// The order the Adds took the lock.
		order := make([]int, len(docs))
		x := d.ix()
		for i, doc := range docs {
			idx, err := x.docs.Lookup("test", doc.ID)
			require.NoError(t, err)
			order[x.docOrd[idx]] = i
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
		requireSameBytes(t, seq, d)
		_ = d.Close()
		_ = seq.Close()
	}
}

// requireSameBytes requires the snapshots of a and b to be the same bytes
// (term and node IDs included).
func requireSameBytes(t *testing.T, a, b *Detector) {
	t.Helper()
	var x, y bytes.Buffer
	_, err := a.WriteTo(&x)
	require.NoError(t, err)
	_, err = b.WriteTo(&y)
	require.NoError(t, err)
	require.True(t, bytes.Equal(x.Bytes(), y.Bytes()), "snapshots differ")
}

// TestConcurrentAddsCompacting adds, from 4 goroutines, documents that
// each bring hundreds of terms of their own to a detector with a time
// window, so that the vocabulary is compacted (every term ID renumbered)
// while other Adds hold sequences whose terms they mapped to the IDs of
// before, outside the exclusive lock. Every answer, the counters and the
// snapshot bytes must be those of sequential Adds in the order the
// concurrent ones took the lock.
func TestConcurrentAddsCompacting(t *testing.T) {
	docs := ownTermDocs(t, 200)
	cfg := Config{Language: "en", Window: 30}
	d, err := New(cfg)
	require.NoError(t, err)
	defer d.Close()
	var order []string // under the lock
	d.eng.SetTrace(func(remove bool, id string) {
		if !remove {
			order = append(order, id)
		}
	})
	answers := addConcurrently(t, d, docs, 4)
	got := make(map[string][]detector.Match, len(docs))
	for i, doc := range docs {
		got[doc.ID] = answers[i]
	}
	// The index's first vocabulary is epoch 1; each compaction takes the next.
	compactions := d.ix().epoch - 1
	require.GreaterOrEqual(t, compactions, uint64(2), "the vocabulary was not compacted twice")
	t.Logf("%d compactions, %d Adds resolved before one", compactions, d.ix().work.stale)
	byID := make(map[string]detector.Doc, len(docs))
	for _, doc := range docs {
		byID[doc.ID] = doc
	}
	seq, err := New(cfg)
	require.NoError(t, err)
	defer seq.Close()
	require.Len(t, order, len(docs))
	for _, id := range order {
		ms, err := seq.Add(byID[id])
		require.NoError(t, err)
		require.Equal(t, ms, got[id], "Add(%s)", id)
	}
	for _, id := range order[len(order)-cfg.Window:] {
		a, err := d.Containers(id)
		require.NoError(t, err)
		b, err := seq.Containers(id)
		require.NoError(t, err)
		require.Equal(t, b, a, "Containers(%s)", id)
	}
	assert.Equal(t, seq.Stats(), d.Stats())
	requireSameBytes(t, seq, d)
}

// ownTermDocs returns n documents (those of concurrentDocs) to each of
// which 100 sentences of random words are appended: hundreds of terms
// of its own, which fill the vocabulary fast.
func ownTermDocs(t *testing.T, n int) []detector.Doc {
	base := concurrentDocs(t, n)
	rng := rand.New(rand.NewPCG(5, 7))
	docs := make([]detector.Doc, len(base))
	for i, doc := range base {
		var sb strings.Builder
		sb.WriteString(doc.Text)
		for range 100 {
			sb.WriteString("\n\n")
			for w := range 5 {
				if w > 0 {
					sb.WriteByte(' ')
				}
				for range 7 {
					sb.WriteByte(byte('a' + rng.IntN(26)))
				}
			}
			sb.WriteString(".")
		}
		docs[i] = detector.Doc{ID: doc.ID, Text: sb.String()}
	}
	return docs
}

// TestResolvedBeforeCompaction prepares each odd document of a stream
// (its terms mapped to detector IDs) before the even
// one before it is added, and inserts it after: the even Adds intern terms
// the odd one had pending, and some compact
// the vocabulary and the tree (term and node IDs renumbered, the table
// rebuilt) in between. The answers, counters and snapshot bytes must be
// those of the documents added one after the other.
func TestResolvedBeforeCompaction(t *testing.T) {
	docs := ownTermDocs(t, 160)
	cfg := Config{Language: "en", Window: 30}
	d, err := New(cfg)
	require.NoError(t, err)
	defer d.Close()
	seq, err := New(cfg)
	require.NoError(t, err)
	defer seq.Close()
	for i := 0; i+1 < len(docs); i += 2 {
		f := d.prepare(docs[i+1])
		a, err := d.Add(docs[i])
		require.NoError(t, err)
		b, err := d.eng.AddFeatures(docs[i+1], f)
		require.NoError(t, err)
		want, err := seq.Add(docs[i])
		require.NoError(t, err)
		require.Equal(t, want, a, "Add(%s)", docs[i].ID)
		want, err = seq.Add(docs[i+1])
		require.NoError(t, err)
		require.Equal(t, want, b, "Add(%s)", docs[i+1].ID)
	}
	require.Positive(t, d.ix().work.stale, "no Add was resolved before a compaction")
	assert.Equal(t, seq.Stats(), d.Stats())
	requireSameBytes(t, seq, d)
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
			f := d.prepare(doc)
			t1 := time.Now()
			if _, err := d.eng.AddFeatures(doc, f); err != nil {
				b.Fatal(err)
			}
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

// prepare is the part of an Add of doc outside the exclusive lock: its
// features, and with frozen weights its terms resolved under the read
// lock (Prepare), as the engine's Add computes them before its commit.
func (d *Detector) prepare(doc detector.Doc) features {
	f := d.alg.Features(doc.Text)
	d.inspect(func(x *index) { x.Prepare(&f) })
	return f
}
