package testkit

import (
	"sync"
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// AddParallel times adding docs to a new detector from newDetector with
// the given number of goroutines, goroutine w taking documents w, w+g,
// w+2g, ... It reports bytes/s and docs/s; a detector's "2 goroutines over
// 1" is read against [Floor]'s own scaling in the same run.
func AddParallel(b *testing.B, newDetector func() (detector.Detector, error), docs []detector.Doc, goroutines int) {
	var total int64
	for _, d := range docs {
		total += int64(len(d.Text))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		d, err := newDetector()
		if err != nil {
			b.Fatal(err)
		}
		var wg sync.WaitGroup
		for w := range goroutines {
			wg.Go(func() {
				for i := w; i < len(docs); i += goroutines {
					if _, err := d.Add(docs[i]); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		d.Close()
	}
	b.ReportMetric(float64(len(docs))*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}
