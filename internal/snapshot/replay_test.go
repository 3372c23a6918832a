package snapshot

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMarkReplayed(t *testing.T) {
	text := strings.Repeat("x", 100)
	same := strings.Clone(text)
	assert.False(t, Replayed(text))
	release := MarkReplayed(text)
	assert.True(t, Replayed(text))
	assert.True(t, Replayed(text[:]), "the same bytes")
	assert.False(t, Replayed(same), "equal content elsewhere is not marked")
	assert.False(t, Replayed(text[:50]), "a prefix is another text")
	release()
	assert.False(t, Replayed(text))
	assert.False(t, Replayed(""))
	MarkReplayed("")()
}
