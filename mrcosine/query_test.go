package mrcosine

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// TestConcurrentQueryAdd queries copies of the texts being added from
// other goroutines, under IDs no Add uses: no Query may ever be seen by an
// Add, a Containers or another Query, and at the end every live document
// answers as in a sequential run.
func TestConcurrentQueryAdd(t *testing.T) {
	texts := synthTexts(40, 6)
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			cfg := m.cfg
			cfg.MaxResults = 1000
			d, seq := mustNew(t, cfg), mustNew(t, cfg)
			testkit.ConcurrentQueryAdd(t, d, seq, texts, true)
			require.Equal(t, encode(t, seq), encode(t, d))
		})
	}
}
