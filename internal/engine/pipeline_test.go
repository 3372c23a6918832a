package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

func TestPipeline(t *testing.T) {
	tc, err := Pipeline("tr", false, textproc.StemDefault, textproc.StemPrefix, 0)
	require.NoError(t, err)
	assert.Equal(t, textproc.FullConfig(language.Turkish), tc)
	tc, err = Pipeline("", true, textproc.StemDefault, textproc.StemNone, 3)
	require.NoError(t, err)
	assert.Equal(t, textproc.Config{Language: language.Und, Stemmer: textproc.StemNone, PrefixLen: 3}, tc)
	tc, err = Pipeline("zh", false, textproc.StemNone, textproc.StemPrefix, 0)
	require.NoError(t, err, "a language without rules is accepted as neutral")
	assert.Equal(t, textproc.StemNone, tc.Stemmer)
	assert.Equal(t, "", textproc.RuleSet(tc.Language))
	for _, bad := range []struct {
		lang string
		st   textproc.Stemmer
		n    int
		msg  string
	}{
		{"not a tag!", 0, 0, `Language ("not a tag!") is not a BCP 47 tag`},
		{"en", 0, -1, "PrefixLen (-1) must be ≥ 0"},
		{"en", 7, 0, "Stemmer (7) must be"},
	} {
		_, err = Pipeline(bad.lang, false, bad.st, textproc.StemPrefix, bad.n)
		assert.ErrorContains(t, err, bad.msg)
		assert.ErrorIs(t, err, detector.ErrInvalidConfig)
	}
}
