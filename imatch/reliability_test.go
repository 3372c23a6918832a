package imatch

import (
	"testing"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// The benchmarks of the reliability checks every detector with an online
// table shares; see internal/testkit. The config sweep and the hostile
// memory, soak and stall reports run for every registry name in the root
// package's shared suite (suite_sweep_test.go).

// BenchmarkAddParallel adds the first 5000 Reuters-21578 bodies into a
// fresh detector per iteration from 1 and from 2 goroutines, with the
// floor in the same run: the ratio G1/G2 is the speed-up of concurrent
// Adds.
func BenchmarkAddParallel(b *testing.B) {
	testkit.AddParallelBuilds(b, dataset.Texts(dataset.Reuters(b, 5000)), benchDetectors(b))
}

// BenchmarkAfterHostile measures an ordinary Add (and Remove) on a detector
// holding 2000 Reuters bodies, fresh and after one hostile document of 1.4M
// distinct tokens (20 MB) was added and removed, or added and kept: scratch
// space sized by the outlier must not slow every later Add.
func BenchmarkAfterHostile(b *testing.B) {
	docs := dataset.Texts(dataset.Reuters(b, 3000))
	testkit.AfterHostile(b, docs[:2000], docs[2000:], newLarge)
}

// newLarge returns a Detector that accepts the hostile documents of the
// reports (20 MB each).
func newLarge() (testkit.Detector, error) { return New(Config{MaxTextBytes: 64 << 20}) }
