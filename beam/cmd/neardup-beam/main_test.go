package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/minhash"
	"github.com/seed-9ef9c1df/neardup/shingle"
)

func TestMain(m *testing.M) {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4})))
	os.Exit(ptest.MainRet(m)) // beam.Init, then the tests
}

type pairLine struct {
	A     string  `json:"a"`
	B     string  `json:"b"`
	Score float64 `json:"score"`
}

type containedLine struct {
	Doc       string  `json:"doc"`
	Container string  `json:"container"`
	Score     float64 `json:"score"`
}

// runCommand writes docs as JSONL, runs the command's pipeline on Prism
// with the given mode and returns the output lines decoded as T.
func runCommand[T comparable](t *testing.T, docs []detector.Doc, m string) map[T]bool {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "docs.jsonl"), filepath.Join(dir, "out.jsonl")
	f, err := os.Create(in)
	require.NoError(t, err)
	enc := json.NewEncoder(f)
	for _, d := range docs {
		require.NoError(t, enc.Encode(map[string]string{"id": d.ID, "text": d.Text, "title": "ignored"}))
	}
	require.NoError(t, f.Close())

	*input, *output, *mode, *threshold = in, out, m, 0.5
	p, s := beam.NewPipelineWithRoot()
	require.NoError(t, build(context.Background(), s))
	_, err = beam.Run(context.Background(), "prism", p)
	require.NoError(t, err)

	got := map[T]bool{}
	r, err := os.Open(out)
	require.NoError(t, err)
	defer r.Close()
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		var v T
		require.NoError(t, json.Unmarshal(sc.Bytes(), &v))
		require.False(t, got[v], "line %q twice", sc.Text())
		got[v] = true
	}
	require.NoError(t, sc.Err())
	return got
}

func TestCommandPairsEqualDetector(t *testing.T) {
	docs := dataset.SynthDocs(800, dataset.SynthConfig{Seed: 9})
	d, err := minhash.New(minhash.Config{Threshold: 0.5})
	require.NoError(t, err)
	want := map[pairLine]bool{}
	for _, doc := range docs {
		ms, err := d.Add(doc)
		require.NoError(t, err)
		for _, m := range ms {
			a, b := doc.ID, m.ID
			if b < a {
				a, b = b, a
			}
			want[pairLine{a, b, m.Score}] = true
		}
	}
	require.NotEmpty(t, want)
	require.Equal(t, want, runCommand[pairLine](t, docs, "pairs"))
}

func TestCommandContainmentEqualsDetector(t *testing.T) {
	docs := dataset.SynthDocs(400, dataset.SynthConfig{Seed: 10})
	d, err := shingle.New(shingle.Config{Threshold: 0.5})
	require.NoError(t, err)
	for _, doc := range docs {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	want := map[containedLine]bool{}
	for _, doc := range docs {
		ms, err := d.Containers(doc.ID)
		require.NoError(t, err)
		for _, m := range ms {
			want[containedLine{doc.ID, m.ID, m.Score}] = true
		}
	}
	require.NotEmpty(t, want)
	*maxDF = -1
	require.Equal(t, want, runCommand[containedLine](t, docs, "containment"))
}

func TestCommandBadFlags(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	docs := filepath.Join(dir, "docs.jsonl")
	require.NoError(t, os.WriteFile(docs, []byte(`{"id":"a","text":"x"}`+"\n"), 0o644))

	*input, *output, *mode = docs, filepath.Join(dir, "y.jsonl"), "nonsense"
	_, s := beam.NewPipelineWithRoot()
	require.ErrorContains(t, build(ctx, s), `unknown --mode "nonsense"`)

	*mode = "pairs"
	for _, missing := range []string{filepath.Join(dir, "none.jsonl"), filepath.Join(dir, "*.json")} {
		*input = missing
		_, s = beam.NewPipelineWithRoot()
		err := build(ctx, s)
		require.Error(t, err, "an input that matches nothing is an error, not an empty output")
		require.ErrorContains(t, err, fmt.Sprintf("--input %q matches no file", missing))
	}

	*input = ""
	_, s = beam.NewPipelineWithRoot()
	require.ErrorContains(t, build(ctx, s), "--input and --output are required")
}

func TestUsageLeadsWithOwnFlags(t *testing.T) {
	var b strings.Builder
	flag.CommandLine.SetOutput(&b)
	defer flag.CommandLine.SetOutput(nil)
	usage()
	out := b.String()
	own, sdk := strings.Index(out, "Flags of neardup-beam:"), strings.Index(out, "Flags of the Beam SDK")
	require.True(t, own >= 0 && sdk > own, "the command's flags come first:\n%s", out)
	for _, name := range ownFlags {
		require.Regexp(t, `(?m)^  -`+name+`\b`, out[own:sdk], "flag -%s among the command's own", name)
		require.NotRegexp(t, `(?m)^  -`+name+`\b`, out[sdk:], "flag -%s not again among the SDK's", name)
	}
	require.True(t, strings.Contains(out[sdk:], "-runner"), "the SDK's flags follow")
}
