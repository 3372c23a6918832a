package shingle_test

import (
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/detectortest"
	"github.com/seed-9ef9c1df/neardup/shingle"
)

// TestConformance runs the detector suite on every method. SampleStride is
// left out on purpose: positional sampling loses a contained text whose
// position shifts (see TestStrideIsPositional), which the suite's
// Asymmetric check is built to catch.
func TestConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  shingle.Config
	}{
		{"FFP", shingle.Config{}},
		{"DSC", shingle.Config{Method: shingle.DSC}},
		{"DSCMin", shingle.Config{Method: shingle.DSC, Sampling: shingle.SampleMin}},
		{"DSCSuper", shingle.Config{Method: shingle.DSC, SuperShingle: 2}},
		{"SpotSigs", shingle.Config{Method: shingle.SpotSigs}},
	} {
		t.Run(tc.name, func(t *testing.T) {
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
