package minhash

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// TestConfigBounds: options whose product or size once overflowed are
// rejected with the field named, and Config returns the effective
// configuration.
func TestConfigBounds(t *testing.T) {
	for _, tc := range []struct {
		cfg   Config
		field string
	}{
		{Config{Bands: 1 << 32, Rows: 1 << 32}, "Bands"},
		{Config{Bands: math.MaxInt, Rows: 2}, "Bands"},
		{Config{Bands: 2, Rows: math.MaxInt / 2}, "Bands"},
		{Config{Bands: 64, Rows: 64}, "Bands·Rows"},
		{Config{NumHashes: math.MaxInt}, "NumHashes"},
		{Config{Supershingles: math.MaxInt}, "Supershingles"},
		{Config{Supershingles: 4, SupershingleMatches: math.MaxInt}, "SupershingleMatches"},
		{Config{FalsePositiveWeight: math.MaxFloat64}, "FalsePositiveWeight"},
		{Config{FalseNegativeWeight: math.Inf(1)}, "FalseNegativeWeight"},
		{Config{Power: math.NaN(), Mode: Weighted}, "Power"},
		{Config{MinOverlap: math.MaxInt}, "MinOverlap"},
		{Config{Shingle: math.MaxInt}, "Shingle"},
		{Config{Sampler: 7}, "Sampler"},
		{Config{MaxResults: -1}, "MaxResults"},
	} {
		_, err := New(tc.cfg)
		require.ErrorIs(t, err, detector.ErrInvalidConfig, "%+v", tc.cfg)
		assert.Contains(t, err.Error(), tc.field)
	}
	d, err := New(Config{Mode: Weighted})
	require.NoError(t, err)
	want := WeightedConfig()
	want.NumHashes, want.MinOverlap, want.Content = DefaultNumHashes, DefaultWeightedMinOverlap, DefaultContent
	want.FalsePositiveWeight, want.FalseNegativeWeight = DefaultFalsePositiveWeight, DefaultFalseNegativeWeight
	want.SupershingleMatches, want.MaxTextBytes = DefaultSupershingleMatches, detector.DefaultMaxTextBytes
	want.MaxResults = detector.DefaultMaxResults
	assert.Equal(t, want, d.Config(), "Config returns the effective configuration")
}
