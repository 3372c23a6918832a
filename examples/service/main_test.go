package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain runs the child service when run re-executes the test binary.
func TestMain(m *testing.M) {
	if os.Getenv(envDir) != "" {
		os.Exit(childMain())
	}
	os.Exit(m.Run())
}

func TestRun(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(&out, "reference"))
	t.Log("\n" + out.String())
	for _, want := range []string{
		"killed the service (SIGKILL) while it wrote the record of document 18",
		"restored snapshot.1: ",
		", 10 documents\n",
		"replayed journal.1: 7 adds, 0 removes; torn last record of ",
		"24 documents live; 31 answers (Adds after the restart, Containers of every document) equal an uninterrupted run's: true",
	} {
		assert.Contains(t, out.String(), want)
	}
	assert.NotContains(t, out.String(), "torn last record of 0 bytes")
}

func TestRejectsDetectorWithoutSnapshots(t *testing.T) {
	assert.Error(t, run(&strings.Builder{}, "nope"))
}

func TestDefaultName(t *testing.T) {
	name, err := defaultName()
	require.NoError(t, err)
	assert.NotEmpty(t, name)
}
