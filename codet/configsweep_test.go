package codet_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// TestConfigSweep sets every numeric Config field to 0, -1, 1, the largest
// and smallest values of its kind, half the largest, NaN and ±Inf, and
// requires New to reject every Config that Add, Containers or Remove
// cannot survive (no panic, no NaN or infinite score, no hang).
func TestConfigSweep(t *testing.T) {
	for name, base := range map[string]codet.Config{
		"default":               {Language: "en"},
		"CollapseNear/Pairwise": {Language: "en", Collapse: codet.CollapseNear, Mode: codet.ModePairwise},
	} {
		c := testkit.Sweep(t, base, func(cfg codet.Config) (detector.Detector, error) {
			return codet.New(cfg)
		})
		t.Logf("%s: %d cases, %d rejected, %d accepted", name, c.Cases, c.Rejected, c.Accepted)
		assert.Equal(t, c.Cases, c.Rejected+c.Accepted)
		assert.Positive(t, c.Rejected)
	}
}
