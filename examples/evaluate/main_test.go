package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

func writeJSONL(t *testing.T, recs []map[string]string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "data.jsonl")
	var b strings.Builder
	for _, r := range recs {
		line, err := json.Marshal(r)
		require.NoError(t, err)
		b.Write(line)
		b.WriteByte('\n')
	}
	require.NoError(t, os.WriteFile(p, []byte(b.String()), 0o644))
	return p
}

const story = "The council approved the new budget for road repairs on Tuesday after a long debate about school funding and public transport in the northern districts."

func TestClusters(t *testing.T) {
	data := writeJSONL(t, []map[string]string{
		{"id": "a1", "cluster": "A", "text": story},
		{"id": "a2", "cluster": "A", "text": story + " Reporting by staff."},
		{"id": "b1", "cluster": "B", "text": "A completely different story about football results and the weather in the south of the country this weekend."},
	})
	pairs := filepath.Join(t.TempDir(), "pairs.tsv")
	var out, errOut strings.Builder
	require.NoError(t, run(&out, &errOut, options{data: data, detectors: "reference", pairs: pairs, lang: "en", set: []string{"Symmetric=true"}}))
	assert.Contains(t, out.String(), "pairs strict   P 1.000  R 1.000  F1 1.000")
	b, err := os.ReadFile(pairs)
	require.NoError(t, err)
	assert.Contains(t, string(b), "a1\ta2\t")
}

func TestContainment(t *testing.T) {
	data := writeJSONL(t, []map[string]string{
		{"id": "orig", "task": "a", "category": "orig", "text": story},
		{"id": "cut", "task": "a", "category": "cut", "text": "In short: " + story},
		{"id": "non", "task": "a", "category": "non", "text": "Football results and the weather in the south of the country this weekend were both poor."},
	})
	var out, errOut strings.Builder
	require.NoError(t, run(&out, &errOut, options{data: data, detectors: "reference", lang: "en"}))
	assert.Contains(t, out.String(), "cut 1.00")
	assert.Contains(t, out.String(), "non 0.00")
}

func TestErrors(t *testing.T) {
	var out, errOut strings.Builder
	require.NoError(t, run(&out, &errOut, options{detectors: "list"}))
	assert.Contains(t, out.String(), "reference")
	assert.Error(t, run(&out, &errOut, options{data: "x.jsonl", detectors: "reference", lang: "en", set: []string{"Nope=1"}}))
	assert.ErrorContains(t, run(&out, &errOut, options{data: "x.jsonl", detectors: "nope", lang: "en"}), "unknown detector")
	assert.Error(t, run(&out, &errOut, options{data: "definitely-missing.jsonl", detectors: "reference", lang: "en"}))
}

// TestHalves: a2 and b1 are the same text in different clusters, so the
// whole collection ranks b1 first for a2; each split puts A and B in
// different halves, where every document finds its one mate first.
func TestHalves(t *testing.T) {
	data := writeJSONL(t, []map[string]string{
		{"id": "a1", "cluster": "A", "text": story},
		{"id": "a2", "cluster": "A", "text": story + " Reporting by staff."},
		{"id": "b1", "cluster": "B", "text": story + " Reporting by staff."},
		{"id": "b2", "cluster": "B", "text": story + " Reporting by staff. Updated on Wednesday."},
	})
	var out, errOut strings.Builder
	require.NoError(t, run(&out, &errOut, options{data: data, detectors: "reference", lang: "en", rank: 5, halves: 3}))
	assert.NotContains(t, out.String(), "  MAP 1.000")
	assert.Contains(t, out.String(), "6 halves of 3 splits: MAP min 1.000  p10 1.000  median 1.000  max 1.000")

	// A half of single-page clusters has no query, and no MAP: it is left
	// out, not counted as 0.
	data = writeJSONL(t, []map[string]string{
		{"id": "a1", "cluster": "A", "text": story},
		{"id": "a2", "cluster": "A", "text": story},
		{"id": "b1", "cluster": "B", "text": "Football results and the weather in the south of the country this weekend."},
		{"id": "c1", "cluster": "C", "text": "The central bank raised its interest rate by half a point on Wednesday."},
	})
	out.Reset()
	require.NoError(t, run(&out, &errOut, options{data: data, detectors: "reference", lang: "en", rank: 5, halves: 4}))
	assert.Contains(t, out.String(), "4 halves of 4 splits: MAP min 1.000  p10 1.000  median 1.000  max 1.000")
}

// A flag the chosen mode does not read is refused, not ignored.
func TestFlagsOfOtherModes(t *testing.T) {
	var out, errOut strings.Builder
	for _, o := range []options{
		{rank: 5, sweep: "Threshold=0.3:0.6:0.3"},
		{rank: 5, pairs: "p.tsv"},
		{rank: 5, pool: "pool.tsv"},
		{sweep: "Threshold=0.3:0.6:0.3", pairs: "p.tsv"},
		{halves: 3},
	} {
		o.data, o.detectors, o.lang = "x.jsonl", "reference", "en"
		assert.ErrorIs(t, run(&out, &errOut, o), detector.ErrInvalidConfig, "%+v", o)
	}
}
