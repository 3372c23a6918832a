package shingle_test

import (
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/detectortest"
	"github.com/seed-9ef9c1df/neardup/shingle"
)

func TestConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  shingle.Config
	}{
		{"FFP", shingle.Config{}},
		{"DSC", shingle.Config{Method: shingle.DSC}},
		{"DSCMin", shingle.Config{Method: shingle.DSC, Sampling: shingle.SampleMin}},
		{"DSCStride", shingle.Config{Method: shingle.DSC, Sampling: shingle.SampleStride}},
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
