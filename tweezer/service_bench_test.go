package tweezer

import (
	"testing"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// BenchmarkMemoryPerDoc adds 20,000 synthetic English documents in each
// Mode and reports the live heap the detector holds per document
// ("B/doc").
func BenchmarkMemoryPerDoc(b *testing.B) {
	docs := dataset.SynthDocs(20_000, dataset.SynthConfig{Seed: 11})
	for _, mode := range []Mode{Overlap, Exact} {
		b.Run(mode.String(), func(b *testing.B) {
			for range b.N {
				before := testkit.LiveHeap()
				d, err := New(Config{Language: "en", Mode: mode})
				if err != nil {
					b.Fatal(err)
				}
				for _, doc := range docs {
					if _, err := d.Add(doc); err != nil {
						b.Fatal(err)
					}
				}
				after := testkit.LiveHeap()
				b.ReportMetric(float64(int64(after)-int64(before))/float64(len(docs)), "B/doc")
				d.Close()
			}
		})
	}
}
