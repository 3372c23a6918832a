package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(&out, 300, "jaccard", 0.3))
	assert.Error(t, run(&out, 10, "nope", 0.3))
	assert.Contains(t, out.String(), "full fingerprinting alone")
	assert.Contains(t, out.String(), "speed-up of the cascade")
}
