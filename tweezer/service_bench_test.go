package tweezer

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/benchfloor"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/soak"
	"github.com/seed-9ef9c1df/neardup/internal/synth"
)

// serviceCorpora returns the corpora the service benchmarks run on: 100,000
// synthetic English documents (internal/synth) and, when the shared data is
// present, the Reuters-21578 bodies.
func serviceCorpora(b *testing.B) map[string][]detector.Doc {
	out := map[string][]detector.Doc{"synth100k": synth.Docs(100_000, synth.Config{Seed: 11})}
	recs, err := dataset.Load("reuters21578.jsonl")
	if err != nil {
		b.Logf("Reuters-21578 skipped: %v", err)
		return out
	}
	out["reuters"] = dataset.Docs(recs)
	return out
}

// BenchmarkMemoryPerDoc adds 20,000 synthetic English documents in each
// Mode and reports the live heap the detector holds per document
// ("B/doc").
func BenchmarkMemoryPerDoc(b *testing.B) {
	docs := synth.Docs(20_000, synth.Config{Seed: 11})
	for _, mode := range []Mode{Overlap, Exact} {
		b.Run(mode.String(), func(b *testing.B) {
			for range b.N {
				before := soak.LiveHeap()
				d, err := New(Config{Language: "en", Mode: mode})
				if err != nil {
					b.Fatal(err)
				}
				for _, doc := range docs {
					if _, err := d.Add(doc); err != nil {
						b.Fatal(err)
					}
				}
				after := soak.LiveHeap()
				b.ReportMetric(float64(int64(after)-int64(before))/float64(len(docs)), "B/doc")
				d.Close()
			}
		})
	}
}

var _ = bytes.MinRead
var _ = fmt.Sprint
var _ = benchfloor.Floor
