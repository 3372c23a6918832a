package testkit

import (
	"fmt"
	"sync"
	"testing"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// BenchmarkFloorGoroutines runs the floor over the same texts from 1 and
// from 2 goroutines: the machine's own scaling, with no lock and no shared
// state, against which a detector's "2 goroutines over 1" is read. On a
// machine whose two cores are both free it approaches 2.
func BenchmarkFloorGoroutines(b *testing.B) {
	docs := dataset.SynthDocs(2000, dataset.SynthConfig{Seed: 1})
	var total int64
	for _, d := range docs {
		total += int64(len(d.Text))
	}
	for _, g := range []int{1, 2} {
		b.Run(fmt.Sprintf("goroutines=%d", g), func(b *testing.B) {
			b.SetBytes(total)
			for b.Loop() {
				var wg sync.WaitGroup
				for w := range g {
					wg.Go(func() {
						for i := w; i < len(docs); i += g {
							Floor(docs[i].Text)
						}
					})
				}
				wg.Wait()
			}
		})
	}
}
