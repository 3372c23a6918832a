package simhash

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// FuzzDetector adds arbitrary texts under every feature kind: no panic, a
// document never matches itself, an exact copy is always found, and the
// fingerprint does not depend on the Signer's history.
func FuzzDetector(f *testing.F) {
	for _, s := range []string{"", "a", "İSTANBUL'DA ıI", "the the the", "\xff\xfe", "Heavy rain. Winds of 120 km/h swept the coast.", "a b c d e f g h i j"} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, text string, kind uint8) {
		cfg := Config{Language: "en", Features: Features(kind % 4), Weights: Weights(kind / 4 % 4), SkipTop: -1}
		fresh, err := NewSigner(cfg, nil)
		if cfg.usesIDF() {
			require.Error(t, err)
			cfg.Weights = WeightTF
			fresh, err = NewSigner(cfg, nil)
		}
		require.NoError(t, err)
		d, err := NewWithIDF(cfg, nil)
		require.NoError(t, err)
		_, err = d.Add(detector.Doc{ID: "warm", Text: "some other text entirely, to warm the caches"})
		require.NoError(t, err)
		_, err = d.Add(detector.Doc{ID: "a", Text: text})
		require.NoError(t, err)
		ms, err := d.Add(detector.Doc{ID: "b", Text: text})
		require.NoError(t, err)
		fp, ok, err := d.Fingerprint("b")
		require.NoError(t, err)
		want, wantOK := fresh.Sign(text)
		assert.Equal(t, wantOK, ok)
		if fresh.lite {
			slow, err := NewSigner(cfg, nil)
			require.NoError(t, err)
			slow.lite = false // the interned-token path
			sfp, sok := slow.Sign(text)
			assert.Equal(t, wantOK, sok, "lite and interned paths disagree on %q", text)
			assert.Equal(t, want, sfp, "lite and interned paths disagree on %q", text)
		}
		assert.Equal(t, want, fp)
		hasA := false
		for _, m := range ms {
			assert.NotEqual(t, "b", m.ID)
			hasA = hasA || m.ID == "a"
		}
		if ok || len(fresh.th) > 0 {
			assert.True(t, hasA, "exact copy of %q not found: %v", text, ms)
		}
	})
}
