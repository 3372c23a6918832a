package neardup

import (
	"bytes"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/detectortest"
)

// englishOptions returns the options that make name read English, where
// it reads a language at all.
func englishOptions(t testing.TB, name string) map[string]string {
	info, err := Lookup(name)
	require.NoError(t, err)
	if slices.Contains(info.Options, "Language") {
		return map[string]string{"Language": "en"}
	}
	return nil
}

// The contract of package detector, every optional interface included,
// holds for every registry name at its defaults, through NewIndex: the
// one place the shared behaviour is tested for every name.
func TestEveryNameConforms(t *testing.T) {
	for _, name := range Names() {
		info, err := Lookup(name)
		require.NoError(t, err)
		opts := englishOptions(t, name)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			detectortest.Run(t, func() detector.Detector {
				ix, err := NewIndex(name, opts)
				if err != nil {
					panic(err)
				}
				return ix
			}, detectortest.Options{Symmetric: !info.Containment})
		})
	}
}

// Every name is an Index, and so is a Window over it.
func TestNewIndex(t *testing.T) {
	for _, name := range Names() {
		ix, err := NewIndex(name, englishOptions(t, name))
		require.NoError(t, err, name)
		text := "The council approved the budget on Monday after a long debate about schools, roads and the harbour."
		_, err = ix.Add(detector.Doc{ID: "a", Text: text})
		require.NoError(t, err, name)
		_, err = ix.Add(detector.Doc{ID: "b", Text: text})
		require.NoError(t, err, name)
		near, err := ix.Nearest(text, 5)
		require.NoError(t, err, name)
		assert.Equal(t, []string{"a", "b"}, ids(near), name)
		var buf bytes.Buffer
		_, err = ix.WriteTo(&buf)
		require.NoError(t, err, name)
		require.NoError(t, ix.Close(), name)

		w, err := detector.NewWindow(mustIndex(t, name), detector.WindowConfig{Size: 10})
		require.NoError(t, err, name)
		wi, ok := w.(Index)
		assert.True(t, ok, "%s: a Window over an Index is an Index", name)
		if ok {
			_, err = wi.ReadFrom(&buf)
			assert.Error(t, err, "%s: a Window reads its own snapshots, not its member's", name)
		}
		require.NoError(t, w.Close())
	}
	_, err := NewIndex("nope", nil)
	assert.ErrorIs(t, err, detector.ErrInvalidConfig)
}

func mustIndex(t *testing.T, name string) Index {
	ix, err := NewIndex(name, englishOptions(t, name))
	require.NoError(t, err, name)
	return ix
}

func ids(ms []detector.Match) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.ID)
	}
	slices.Sort(out)
	return out
}
