package minhash

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestStridedChunks(t *testing.T) {
	s := newStrided[int32](3, -1)
	s.ensure(chunkDocs + 5)
	require.Equal(t, []int32{-1, -1, -1}, s.of(chunkDocs+5))
	s.of(7)[2] = 9
	require.Equal(t, []int32{-1, -1, 9}, s.of(7))
	require.Len(t, s.chunks, 2)
}
