package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the shared collections")
	}
	var b, errOut strings.Builder
	err := run(&b, &errOut, "imatch", 100)
	if errors.Is(err, dataset.ErrNoData) {
		dataset.Missing(t, "goldset-dev.jsonl", err)
	}
	require.NoError(t, err)
	assert.Contains(t, b.String(), "| `imatch` | near-duplicate |")
	assert.Contains(t, errOut.String(), "table: imatch (1/1): Gold Set dev", "progress on stderr")
	assert.NotContains(t, b.String(), "table: ", "stdout holds only the table")
}

func TestSplice(t *testing.T) {
	p := filepath.Join(t.TempDir(), "README.md")
	require.NoError(t, os.WriteFile(p, []byte("a\n"+begin+"\nold\n"+end+"\nb\n"), 0o644))
	require.NoError(t, splice(p, "new\n"))
	got, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "a\n"+begin+"\nnew\n"+end+"\nb\n", string(got))
	require.NoError(t, os.WriteFile(p, []byte("no markers"), 0o644))
	assert.Error(t, splice(p, "x"))
}
