package imatch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// FuzzDetector adds arbitrary texts: no panic, a document never matches
// itself, an exact copy with at least one term is always found.
func FuzzDetector(f *testing.F) {
	for _, s := range []string{"", "a", "İSTANBUL'DA ıI", "the the the", "\xff\xfe", "Heavy rain. Winds of 120 km/h swept the coast.", "a b c d e f g h i j k l m n"} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(5))
	}
	f.Fuzz(func(t *testing.T, text string, kind uint8) {
		cfg := Config{Language: "tr", Selection: Selection(kind % 2), Lexicons: int(kind % 4), Encoding: Encoding(kind / 4 % 2)}
		d, err := New(cfg)
		require.NoError(t, err)
		_, err = d.Add(detector.Doc{ID: "a", Text: text})
		require.NoError(t, err)
		ms, err := d.Add(detector.Doc{ID: "b", Text: text})
		require.NoError(t, err)
		hasA := false
		for _, m := range ms {
			assert.NotEqual(t, "b", m.ID)
			hasA = hasA || m.ID == "a"
		}
		probe, err := NewSigner(cfg, textproc.NewIDF(false))
		require.NoError(t, err)
		probe.analyze(text)
		if len(probe.toks) > 0 {
			assert.True(t, hasA, "exact copy of %q not found: %v", text, ms)
		}
		c, err := d.Cluster("a")
		require.NoError(t, err)
		assert.Contains(t, c, "a")
	})
}
