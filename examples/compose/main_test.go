package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	var out, errOut strings.Builder
	require.NoError(t, run(&out, &errOut, 300, "jaccard", 0.3))
	assert.Error(t, run(&out, &errOut, 10, "nope", 0.3))
	assert.Error(t, run(&out, &errOut, 0, "jaccard", 0.3))
	assert.Contains(t, out.String(), "full fingerprinting alone")
	assert.Contains(t, out.String(), "speed-up of the cascade")
	assert.Contains(t, errOut.String(), "compose: full fingerprinting alone: done in ", "progress on stderr")
	assert.NotContains(t, out.String(), "done in", "and not on stdout")
}
