package testkit

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/naive"
)

func TestUnique(t *testing.T) {
	a, b := Unique("one two three four", 0), Unique("one two three four", 1)
	assert.NotEqual(t, a, b)
	assert.True(t, strings.HasPrefix(a, "zq0x "))
	assert.Contains(t, a, "one two")
}

func TestRunNaive(t *testing.T) {
	s, err := Soak(naive.New(naive.Config{}), SoakConfig{Adds: 300, Window: 100, Every: 50, Pool: 10})
	require.NoError(t, err)
	require.Len(t, s, 5)
	assert.Equal(t, 100, s[0].Adds)
	assert.Equal(t, 300, s[4].Adds)
	assert.Positive(t, s[0].HeapBytes)
}

func TestRunNeedsRemover(t *testing.T) {
	_, err := Soak(nil, SoakConfig{Adds: 1, Window: 1, Every: 1})
	require.Error(t, err)
}

func TestGrowth(t *testing.T) {
	assert.Zero(t, Growth([]SoakSample{{HeapBytes: 10}, {HeapBytes: 9}}))
	assert.Equal(t, uint64(5), Growth([]SoakSample{{HeapBytes: 10}, {HeapBytes: 11}, {HeapBytes: 15}}))
}
