package tweezer

import (
	"encoding/hex"
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zeebo/xxh3"
	"golang.org/x/text/language"
)

var update = flag.Bool("update", false, "print the golden digests instead of checking them")

// Do NOT make changes to the golden outputs: a change means that every
// stored Tweezer signature is invalidated. Regenerate them only with
// -update, for a deliberate change of the signature, and say so.
var golden = []struct {
	name string
	lang language.Tag
	text string
	hex  string
}{
	{"fig41", language.Turkish, fig41, "a568e2bb431fd7433acf773353277dba"},
	{"fallback", language.Turkish, "bu metinde hiç özel isim yok.", "a02db2e50c5bc908f05a9c1eac8fe910"},
	{"english", language.English, "Mr. John Smith, chairman of General Motors Corp., said in New York on Monday that sales rose.", "24b79069238891303144ae8e907cf383"},
}

func TestGolden(t *testing.T) {
	for _, g := range golden {
		s, err := NewSigner(Config{Language: g.lang.String()})
		require.NoError(t, err)
		sig := s.Sign(g.text)
		got := hex.EncodeToString(sig.Digest[:])
		if *update {
			t.Logf("%s: %s", g.name, got)
			continue
		}
		assert.Equal(t, g.hex, got, "Sign(%s).Digest", g.name)
	}
}

// TestDigestEncoding recomputes a digest from its definition: a tag byte,
// then each sorted shingle as a uvarint length and its bytes, hashed with
// xxh3-128.
func TestDigestEncoding(t *testing.T) {
	s, err := NewSigner(Config{})
	require.NoError(t, err)
	sig := s.Sign(fig41)
	buf := []byte{'N'}
	for _, sh := range sig.Shingles {
		buf = append(buf, byte(len(sh)))
		buf = append(buf, sh...)
	}
	want := xxh3.Hash128(buf).Bytes()
	assert.Equal(t, Digest(want), sig.Digest)
}
