package shingle_test

import (
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/detectortest"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/shingle"
)

// TestConformance runs the detector suite on every method. SampleStride is
// left out on purpose: positional sampling loses a contained text whose
// position shifts (see TestStrideIsPositional), which the suite's
// Asymmetric check is built to catch.
func TestConformance(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cfg   shingle.Config
		extra bool // a variant: skipped under -race and -short to keep CI fast
	}{
		{"FFP", shingle.Config{}, false},
		{"DSC", shingle.Config{Method: shingle.DSC}, false},
		{"DSCMin", shingle.Config{Method: shingle.DSC, Sampling: shingle.SampleMin}, true},
		{"DSCSuper", shingle.Config{Method: shingle.DSC, SuperShingle: 2}, true},
		{"SpotSigs", shingle.Config{Method: shingle.SpotSigs}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.extra {
				if testing.Short() || shingle.RaceEnabled {
					t.Skip("variant: skipped under -short and -race")
				}
				// The root suite runs the dsc variants Sampling=min and
				// SuperShingle=2 through its families by default; their
				// conformance follows with NEARDUP_LONG.
				dataset.SkipLong(t)
			}
			detectortest.Run(t, func() detector.Detector {
				d, err := shingle.New(tc.cfg)
				if err != nil {
					panic(err)
				}
				return d
			}, detectortest.Options{Symmetric: tc.cfg.Method == shingle.SpotSigs})
		})
	}
}
