package main

import (
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

func TestRun(t *testing.T) {
	var out, errOut strings.Builder
	require.NoError(t, run(&out, &errOut, options{name: "minhash", window: 50, n: 300, every: 100}))
	assert.Equal(t, 3+3, strings.Count(out.String(), "\n")-0, out.String())
	// Every row: the window holds 50 documents, the rest were evicted.
	rows := regexp.MustCompile(`(?m)^ +(\d+) +(\d+) +(\d+) `).FindAllStringSubmatch(out.String(), -1)
	require.Len(t, rows, 3)
	for _, r := range rows {
		done, _ := strconv.Atoi(r[1])
		assert.Equal(t, "50", r[2], "live")
		assert.Equal(t, strconv.Itoa(done-50), r[3], "evicted")
	}
	assert.Error(t, run(&out, &errOut, options{name: "nope", window: 50, n: 300, every: 100}))
	err := run(&out, &errOut, options{name: "minhash", window: 0, n: 300, every: 100})
	assert.ErrorIs(t, err, detector.ErrInvalidConfig)
}

// A data file without documents is an error, not a stream of nothing.
func TestEmptyData(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "reuters21578.jsonl"), []byte("\n"), 0o644))
	t.Setenv("NEARDUP_DATA", dir)
	var out, errOut strings.Builder
	assert.ErrorContains(t, run(&out, &errOut, options{name: "minhash", window: 50, n: 300, every: 100}), "holds no documents")
}

func TestSVG(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "stream.svg")
	var out, errOut strings.Builder
	require.NoError(t, run(&out, &errOut, options{name: "minhash", window: 50, n: 300, every: 100, svg: svg}))
	assert.Equal(t, 3, strings.Count(out.String(), "\n")-4, "rows on stdout stay one per -every")
	assert.Contains(t, out.String(), "chart written to "+svg)
	f, err := os.Open(svg)
	require.NoError(t, err)
	defer f.Close()
	dec := xml.NewDecoder(f)
	var lines []string
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			for _, a := range se.Attr {
				if a.Name.Local == "points" {
					lines = append(lines, a.Value)
				}
			}
		}
	}
	require.Len(t, lines, 2, "heap and rate")
	for _, l := range lines {
		assert.Len(t, strings.Fields(l), 15, "sampled 5 times per report: 300 documents, a point every 20")
	}
}
