package simhash

import (
	"flag"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "print new golden fingerprints")

// Do NOT make changes to the golden outputs: they pin the feature hashing
// (seeded xxh3), the analysis and the accumulation. Regenerate them with
// -update only for a deliberate, documented change of fingerprints.
var golden = []struct {
	cfg  Config
	text string
	fp   uint64
}{
	{Config{Weights: WeightUnit, SkipTop: -1}, "Heavy rain and winds swept across the northern coast on Tuesday.", 0x2018c7e9fc716cff},
	{Config{Weights: WeightTF, SkipTop: -1, Language: "tr"}, "Belediye, kentin doğu ilçelerinde yaşanan su kesintilerinin önümüzdeki hafta sona ereceğini açıkladı.", 0x93132c45c706ce85},
	{Config{Weights: WeightUnit, SkipTop: -1, Features: FeatureWordNGrams}, "The central bank raised its benchmark interest rate by half a percentage point.", 0x1633569ac6c318f0},
	{Config{Weights: WeightTF, SkipTop: -1, Features: FeatureCharNGrams, Seed: 42}, "KADIN İSTANBUL'DA", 0x4800905382e7791},
	{Config{Weights: WeightTF, SkipTop: -1, Features: FeatureSpots, Language: "en"}, "A late header from the veteran defender gave the visitors a win in the cup semi-final.", 0x861e88c8727fcfe1},
}

func TestGolden(t *testing.T) {
	for i, g := range golden {
		s, err := NewSigner(g.cfg, nil)
		require.NoError(t, err)
		fp, ok := s.Sign(g.text)
		require.True(t, ok)
		if *update {
			fmt.Printf("golden[%d] = %#x\n", i, fp)
			continue
		}
		assert.Equal(t, g.fp, fp, "golden[%d]: Sign(%q) = %#x", i, g.text, fp)
	}
}
