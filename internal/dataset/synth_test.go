package dataset

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDeterministicAndRelated(t *testing.T) {
	a, b := NewSynth(SynthConfig{Seed: 3}), NewSynth(SynthConfig{Seed: 3})
	byID := map[string]string{}
	kinds := map[SynthKind]int{}
	for range 2000 {
		x, y := a.Next(), b.Next()
		require.Equal(t, x, y)
		kinds[x.Kind]++
		byID[x.Doc.ID] = x.Doc.Text
		switch x.Kind {
		case Truncated:
			body := x.Doc.Text[strings.Index(x.Doc.Text, "\n\n")+2:]
			assert.Contains(t, byID[x.Sources[0]], body, "a truncated document is part of its source")
		case Merged:
			src := byID[x.Sources[0]]
			assert.Contains(t, x.Doc.Text, src[strings.Index(src, "\n\n")+2:])
		}
	}
	for k := Base; k <= Merged; k++ {
		assert.Greater(t, kinds[k], 20, "kind %v", k)
	}
	assert.NotEqual(t, SynthDocs(5, SynthConfig{Seed: 1}), SynthDocs(5, SynthConfig{Seed: 2}))
}
