package replaytext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMark(t *testing.T) {
	text := strings.Repeat("x", 100)
	same := strings.Clone(text)
	assert.False(t, Marked(text))
	release := Mark(text)
	assert.True(t, Marked(text))
	assert.True(t, Marked(text[:]), "the same bytes")
	assert.False(t, Marked(same), "equal content elsewhere is not marked")
	assert.False(t, Marked(text[:50]), "a prefix is another text")
	release()
	assert.False(t, Marked(text))
	assert.False(t, Marked(""))
	Mark("")()
}
