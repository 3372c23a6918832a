package cli

import (
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestUsageWrite(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.Int("n", 5, "documents")
	var b strings.Builder
	Usage{
		Synopsis: "go run ./examples/x [flags]",
		Does:     strings.Repeat("word ", 40),
		Reads:    "Reads " + DataNote,
		Takes:    "It takes 1s.",
		Examples: []string{"go run ./examples/x -n 3"},
	}.Write(&b, fs)
	s := b.String()
	assert.True(t, strings.HasPrefix(s, "Usage: go run ./examples/x [flags]\n\nword word"), s)
	assert.Contains(t, s, "$NEARDUP_DATA")
	assert.Contains(t, s, "\nExamples:\n  go run ./examples/x -n 3\n")
	assert.Contains(t, s, "\nFlags:\n  -n int\n")
	assert.Less(t, strings.Index(s, "It takes 1s."), strings.Index(s, "Flags:"), "the text comes before the flags")
	for _, line := range strings.Split(s, "\n") {
		assert.LessOrEqual(t, len([]rune(line)), 76, line)
	}
}

func TestProgress(t *testing.T) {
	var b strings.Builder
	p := NewProgress(&b, "x", time.Hour)
	p.Tick("tick %d", 1) // within the hour since NewProgress: dropped
	p.Stage("stage %d", 2)
	p.Docs("d", 10)(3) // a tick: dropped
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	assert.Len(t, lines, 1, b.String())
	assert.Regexp(t, `^x: stage 2 \(\d.*s elapsed\)$`, lines[0])

	b.Reset()
	p = NewProgress(&b, "x", 0)
	p.Docs("d", 10)(3)
	assert.Regexp(t, `^x: d: 3/10 documents \(.*elapsed\)\n$`, b.String())

	var none *Progress
	none.Stage("a")
	none.Tick("b")
	assert.Nil(t, none.Docs("c", 1), "no callback: eval.Relations skips it")
}
