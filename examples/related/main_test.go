package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// collection writes a JSONL file of a story, a copy of it with a line
// added, a story sharing one sentence with it, and an unrelated one.
func collection(t *testing.T) string {
	story := "Heavy rain swept the northern coast on Tuesday and cut power to forty thousand homes. " +
		"Emergency crews worked through the night to clear fallen trees from the coastal highway. " +
		"The regional weather office said the storm would weaken slowly as it moved inland. " +
		"Schools in three districts stayed closed and the ferry operator cancelled every crossing."
	docs := []map[string]string{
		{"id": "storm", "text": story},
		{"id": "storm-update", "text": story + " Farmers reported damage to greenhouses and orchards across the valley."},
		{"id": "ferry", "text": "Schools in three districts stayed closed and the ferry operator cancelled every crossing. " +
			"The harbour master expects services to resume at the weekend once the swell has eased off the cape."},
		{"id": "bank", "text": "The central bank raised its benchmark interest rate by half a percentage point on Wednesday " +
			"as policymakers tried to cool inflation that has stayed above eight percent since the spring."},
	}
	var b strings.Builder
	for _, d := range docs {
		line, err := json.Marshal(d)
		require.NoError(t, err)
		b.Write(line)
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "docs.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

func TestRun(t *testing.T) {
	path := collection(t)
	for _, name := range []string{"codet", "reference"} {
		t.Run(name, func(t *testing.T) {
			var out, errOut strings.Builder
			require.NoError(t, run(&out, &errOut, options{name: name, data: path, id: "storm", lang: "en", k: 5}))
			got := out.String()
			assert.Contains(t, got, "storm (")
			assert.Contains(t, got, "storm-update  [related]", "the update contains the story")
			assert.NotContains(t, got, "bank", "an unrelated story shares no evidence")
			assert.NotContains(t, got, ". storm\n", "the story itself is not its own neighbour")
		})
	}
	var out, errOut strings.Builder
	assert.ErrorContains(t, run(&out, &errOut, options{name: "tweezer", data: path, id: "nope", k: 3}), `-id "nope" is not in`)
	assert.Error(t, run(&out, &errOut, options{name: "nope", data: path, k: 3}))
	assert.ErrorContains(t, run(&out, &errOut, options{name: "codet", data: path, id: "storm", k: 0}), "-k 0")
}
