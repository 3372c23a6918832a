package textcfg

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

func TestPipeline(t *testing.T) {
	tc, err := Pipeline("tr", false, true, 0)
	require.NoError(t, err)
	assert.Equal(t, textproc.FullConfig(language.Turkish), tc)
	tc, err = Pipeline("", true, false, 3)
	require.NoError(t, err)
	assert.Equal(t, textproc.Config{PrefixLen: 3}, tc)
	_, err = Pipeline("not a tag!", false, true, 0)
	assert.ErrorContains(t, err, "Language")
	_, err = Pipeline("en", false, true, -1)
	assert.ErrorContains(t, err, "PrefixLen (-1) must be ≥ 0")
}
