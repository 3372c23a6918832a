package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	var out, errOut strings.Builder
	require.NoError(t, run(&out, &errOut, "minhash", 50, 300, 100))
	assert.Equal(t, 3+3, strings.Count(out.String(), "\n")-0, out.String())
	assert.Error(t, run(&out, &errOut, "nope", 50, 300, 100))
	assert.Error(t, run(&out, &errOut, "minhash", 0, 300, 100))
}
