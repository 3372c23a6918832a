package tweezer

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// TestContextOverflow adds a document under the largest context a Config
// may ask for: before the bounds on Prefix and Suffix, math.MaxInt passed
// New and then overflowed the window arithmetic inside Add.
func TestContextOverflow(t *testing.T) {
	for _, v := range []int{math.MaxInt, math.MaxInt / 2} {
		for _, cfg := range []Config{{Prefix: v}, {Suffix: v}, {FallbackWords: v}} {
			_, err := New(cfg)
			require.ErrorIs(t, err, detector.ErrInvalidConfig, "New(%+v)", cfg)
		}
	}
	for _, cfg := range []Config{{Prefix: 1 << 16, Suffix: 1 << 16}, {FallbackWords: 1 << 16, ClipSentences: true}} {
		d, err := New(cfg)
		require.NoError(t, err)
		_, err = d.Add(detector.Doc{ID: "a", Text: fig41})
		require.NoError(t, err)
		ms, err := d.Add(detector.Doc{ID: "b", Text: fig41})
		require.NoError(t, err)
		assert.Len(t, ms, 1, "an exact copy under %+v", cfg)
	}
}
