package shingle

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// TestHotPathsDoNotAllocate: in the steady state (every word seen before),
// shingling, sampling, spot-signature extraction, the sorted intersection
// and the multiset Jaccard allocate nothing.
func TestHotPathsDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	text := dataset.SynthDocs(1, dataset.SynthConfig{Seed: 4})[0].Text
	for _, m := range []Method{FullFingerprint, DSC, SpotSigs} {
		cfg, err := Config{Method: m, Antecedents: "ro,mi,tan"}.withDefaults()
		require.NoError(t, err)
		e, err := newExtractor(cfg)
		require.NoError(t, err)
		run := func() {
			switch m {
			case FullFingerprint:
				e.shingles(text)
			case DSC:
				e.sample(text)
			default:
				e.spots(text)
			}
		}
		run()
		assert.Zero(t, testing.AllocsPerRun(20, run), "%v extraction allocates", m)
	}
	a := []uint64{1, 3, 5, 7, 9, 11}
	c := []uint64{2, 3, 4, 5, 6, 7, 8}
	assert.Zero(t, testing.AllocsPerRun(100, func() { intersect(a, c, 2) }))
	as, ac := []uint32{1, 2, 3}, []uint32{2, 1, 1}
	bs, bc := []uint32{2, 3, 4}, []uint32{1, 3, 1}
	assert.Zero(t, testing.AllocsPerRun(100, func() { jaccard(as, ac, bs, bc, 4, 5, 0.5, nil, false, false) }))
	assert.Equal(t, 3, intersect(a, c, 0))
	assert.InDelta(t, 2.0/7.0, jaccard(as, ac, bs, bc, 4, 5, 0, nil, false, false), 1e-12)
}
