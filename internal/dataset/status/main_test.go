package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

func TestLine(t *testing.T) {
	full, partial := t.TempDir(), t.TempDir()
	for _, f := range files {
		require.NoError(t, os.WriteFile(filepath.Join(full, f), nil, 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(partial, "bbc.jsonl"), nil, 0o644))
	none := func() (string, error) { return "", dataset.ErrNoData }
	at := func(d string) func() (string, error) { return func() (string, error) { return d, nil } }
	for _, tc := range []struct {
		name  string
		dir   func() (string, error)
		long  bool
		wants []string
	}{
		{"absent", none, false, []string{"NO DATA", "SKIPPED (not passed)", "NEARDUP_LONG=1 runs them"}},
		{"absent long", none, true, []string{"NO DATA", "SKIPPED", "long tests on"}},
		{"partial", at(partial), false, []string{"lacks goldset-dev.jsonl, clough-stevenson.jsonl", "SKIPPED"}},
		{"full", at(full), true, []string{"data found at " + full, "the tests that read it ran", "long tests on"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := line(tc.dir, tc.long)
			for _, w := range tc.wants {
				assert.Contains(t, got, w)
			}
			assert.NotContains(t, got, "\n", "one line")
		})
	}
	assert.NotContains(t, line(at(full), false), "SKIPPED")
	assert.NotContains(t, line(at(partial), false), "bbc.jsonl")
}
