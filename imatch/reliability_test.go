package imatch

import (
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// The reliability checks and reports every detector with an online table
// shares; see internal/testkit for what each requires.

func TestConfigSweep(t *testing.T) {
	testkit.ConfigSweep(t, Config{}, func(cfg Config) (detector.Detector, error) { return New(cfg) })
}

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

// TestHostileMemoryReport (NEARDUP_LONG=1) adds three documents of 1.4M
// distinct tokens (20 MB each) to a detector holding 1000 ordinary ones,
// removes them, and logs the live heap before and after.
func TestHostileMemoryReport(t *testing.T) { testkit.HostileMemoryReport(t, newLarge) }

// TestSoakReport (NEARDUP_LONG=1: 210,000 Adds; NEARDUP_LONG=N: N) streams documents with three
// fresh tokens each through a window of 10,000 and logs the live heap
// every 100,000 Adds.
func TestSoakReport(t *testing.T) {
	testkit.SoakReport(t, func() (testkit.Detector, error) { return New(Config{}) })
}

// TestStallReport (NEARDUP_LONG=1) adds one document of 1.4M distinct
// tokens (20 MB) while another goroutine calls Containers and Len in a
// loop, and logs the longest of those calls: how long an Add stalls the
// Detector's readers.
func TestStallReport(t *testing.T) { testkit.StallReport(t, newLarge) }
