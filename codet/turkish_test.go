package codet_test

import (
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/codet"
)

// TestTurkishCaseCopies adds a Turkish text and then copies of it in other
// cases: upper-cased with the Turkish rules (i → İ, ı → I), lower-cased
// with them (İ → i, I → ı) and lower-cased with strings.ToLower (İ → i
// and a combining dot). Every copy must be found: codet compares the
// terms of each sentence, and case is folded by the Turkish pipeline.
//
// The lower-cased copies are skipped while the text pipeline splits them
// into other sentences than the original: its sentence splitter does not
// end a sentence before a word that starts in lower case ("15. yüzyıl"),
// so a lower-cased text is one sentence, and no sequence of it is a
// sequence of the original. codet reads the sentences the pipeline gives;
// nothing in codet depends on case.
func TestTurkishCaseCopies(t *testing.T) {
	orig := handMade[1].short + " " + handMade[1].extra
	for _, c := range []struct{ name, text string }{
		{"upper (Turkish)", strings.ToUpperSpecial(unicode.TurkishCase, orig)},
		{"lower (Turkish)", strings.ToLowerSpecial(unicode.TurkishCase, orig)},
		{"lower", strings.ToLower(orig)},
		// The same with each sentence's first letter upper-cased again, so
		// that the sentences are the original's: the terms must match.
		{"lower (Turkish), sentence starts kept", sentenceCase(strings.ToLowerSpecial(unicode.TurkishCase, orig))},
		{"lower, sentence starts kept", sentenceCase(strings.ToLower(orig))},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := codet.Config{Language: "tr"}
			d := mustNew(t, cfg)
			add(t, d, "orig", orig)
			ms := add(t, d, "copy", c.text)
			so, err := codet.Sequences(orig, cfg, nil)
			require.NoError(t, err)
			sc, err := codet.Sequences(c.text, cfg, nil)
			require.NoError(t, err)
			if len(so) != len(sc) {
				t.Skipf("textproc's sentence splitter gives the %s copy %d sentences, the original %d: "+
					"it ends no sentence before a word in lower case", c.name, len(sc), len(so))
			}
			assert.Contains(t, ids(ms), "orig", "the %s copy is not found", c.name)
		})
	}
}

// sentenceCase upper-cases (with the Turkish rules) the first letter of
// the text and of every word after ". ".
func sentenceCase(text string) string {
	parts := strings.Split(text, ". ")
	for i, p := range parts {
		r := []rune(p)
		if len(r) > 0 {
			r[0] = unicode.TurkishCase.ToUpper(r[0])
		}
		parts[i] = string(r)
	}
	return strings.Join(parts, ". ")
}
