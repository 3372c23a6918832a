package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(&out, "", false))
	s := out.String()
	assert.Contains(t, s, "detector")
	assert.Contains(t, s, "precision")
	// The reference detector finds the round-up's contents.
	assert.Contains(t, s, "en-vaccine         ⊆ en-roundup")
	assert.Regexp(t, `(?m)^imatch +near-duplicate +0 +– `, s, "no pair: precision undefined, not 1.00")
	assert.NotContains(t, s, "µs", "one time unit")
	assert.Error(t, run(&out, "no-such-detector", true))
}
