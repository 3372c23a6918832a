package minhash

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/detectortest"
)

func TestConformance(t *testing.T) {
	cases := []struct {
		name      string
		cfg       Config
		symmetric bool
	}{
		{"Jaccard", Config{}, true},
		{"JaccardKHash", Config{Scheme: KHash}, true},
		{"Supershingles", Config{Supershingles: 16, Threshold: 0.5}, true},
		{"Weighted", WeightedConfig(), true},
		{"WeightedUniform", Config{Mode: Weighted}, true},
		{"Containment", Config{Mode: Containment}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			detectortest.Run(t, func() detector.Detector {
				d, err := New(tc.cfg)
				require.NoError(t, err)
				return d
			}, detectortest.Options{Symmetric: tc.symmetric})
		})
	}
}
