package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

func TestSet(t *testing.T) {
	s := NewSet("pkg", 10)
	_, err := s.Add(detector.Doc{ID: ""})
	assert.ErrorIs(t, err, detector.ErrEmptyID)
	assert.Contains(t, err.Error(), "pkg: ")
	_, err = s.Add(detector.Doc{ID: "big", Text: strings.Repeat("x", 11)})
	assert.ErrorIs(t, err, detector.ErrTooLarge)
	idx, err := s.Add(detector.Doc{ID: "a", Text: "0123456789"})
	require.NoError(t, err)
	assert.Equal(t, "a", s.ID(idx))
	_, err = s.Add(detector.Doc{ID: "a"})
	assert.ErrorIs(t, err, detector.ErrDuplicateID)
	_, err = s.Lookup("Containers", "b")
	assert.ErrorIs(t, err, detector.ErrUnknownID)
	assert.Contains(t, err.Error(), `Containers("b")`)
	got, err := s.Remove("a")
	require.NoError(t, err)
	assert.Equal(t, idx, got)
	assert.False(t, s.Live(idx))
	assert.True(t, s.Close())
	assert.False(t, s.Close())
	assert.Zero(t, s.Len(), "a closed set holds nothing")
	_, err = s.Add(detector.Doc{ID: "c"})
	assert.ErrorIs(t, err, detector.ErrClosed)
	_, err = s.Lookup("Containers", "c")
	assert.ErrorIs(t, err, detector.ErrClosed)
	assert.Equal(t, detector.DefaultMaxTextBytes, NewSet("x", 0).maxText)
}

func TestLoadable(t *testing.T) {
	s := NewSet("x", 0)
	require.NoError(t, s.Loadable())
	_, err := s.Add(detector.Doc{ID: "a"})
	require.NoError(t, err)
	err = s.Loadable()
	require.ErrorIs(t, err, detector.ErrSnapshot)
	assert.EqualError(t, err, "x: ReadFrom needs an empty detector (this one holds 1 document): load the snapshot into a fresh one from New")
	_, err = s.Add(detector.Doc{ID: "b"})
	require.NoError(t, err)
	err = s.Loadable()
	require.ErrorIs(t, err, detector.ErrSnapshot)
	assert.EqualError(t, err, "x: ReadFrom needs an empty detector (this one holds 2 documents): load the snapshot into a fresh one from New")
	s.Close()
	require.ErrorIs(t, s.Loadable(), detector.ErrClosed)
}

// A closed Set lets go of its IDs: a closed detector that stays reachable
// holds none of them.
func TestCloseLetsGoOfIDs(t *testing.T) {
	s := NewSet("pkg", 0)
	for _, id := range []string{"a", "b", "c"} {
		_, err := s.Add(detector.Doc{ID: id, Text: "x"})
		require.NoError(t, err)
	}
	assert.True(t, s.Close())
	assert.False(t, s.Close())
	assert.Zero(t, s.Cap())
	assert.Zero(t, s.ids.Len())
	_, err := s.Lookup("Containers", "a")
	assert.ErrorIs(t, err, detector.ErrClosed)
}
