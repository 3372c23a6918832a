package main

import (
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/examples/internal/registry"
)

func TestParseSweep(t *testing.T) {
	for _, c := range []struct {
		in     string
		want   sweep
		values []float64
		err    string // "" for no error
	}{
		{in: "Threshold=0.1:0.9:0.2", want: sweep{"Threshold", 0.1, 0.9, 0.2}, values: []float64{0.1, 0.3, 0.5, 0.7, 0.9}},
		{in: "Threshold=0.1:0.3:0.05", want: sweep{"Threshold", 0.1, 0.3, 0.05}, values: []float64{0.1, 0.15, 0.2, 0.25, 0.3}},
		{in: " K = 2 : 10 : 4 ", want: sweep{"K", 2, 10, 4}, values: []float64{2, 6, 10}},
		{in: "MinOverlap=10:25:10", want: sweep{"MinOverlap", 10, 25, 10}, values: []float64{10, 20}},
		{in: "T2=0.5:0.5:0.1", want: sweep{"T2", 0.5, 0.5, 0.1}, values: []float64{0.5}},
		{in: "Threshold", err: "no option name"},
		{in: "=0.1:0.9:0.1", err: "no option name"},
		{in: "Threshold=0.1:0.9", err: "2 values after '=', want 3"},
		{in: "Threshold=0.1:0.9:0.1:4", err: "4 values after '=', want 3"},
		{in: "Threshold=a:0.9:0.1", err: `"a" is not a finite number`},
		{in: "Threshold=0.1:NaN:0.1", err: `"NaN" is not a finite number`},
		{in: "Threshold=0.1:Inf:0.1", err: `"Inf" is not a finite number`},
		{in: "Threshold=0.1:0.9:0", err: "STEP must be positive"},
		{in: "Threshold=0.1:0.9:-0.1", err: "STEP must be positive"},
		{in: "Threshold=0.9:0.1:0.1", err: "FROM (0.9) is above TO (0.1)"},
		{in: "Threshold=0:1:0.001", err: "more than 200 points"},
	} {
		t.Run(c.in, func(t *testing.T) {
			got, err := parseSweep(c.in)
			if c.err != "" {
				require.Error(t, err)
				assert.ErrorContains(t, err, c.err)
				assert.ErrorContains(t, err, "want Key=FROM:TO:STEP", "the error shows the form")
				assert.ErrorIs(t, err, detector.ErrInvalidConfig)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
			assert.Equal(t, c.values, got.Values())
		})
	}
}

func TestSweepOption(t *testing.T) {
	minhash, err := registry.Lookup("minhash")
	require.NoError(t, err)
	codet, err := registry.Lookup("codet")
	require.NoError(t, err)
	sw := sweep{Key: "threshold", From: 0.1, To: 0.2, Step: 0.1}
	key, err := sw.option(minhash, nil)
	require.NoError(t, err)
	assert.Equal(t, "Threshold", key, "spelt as the detector spells it")

	_, err = sw.option(codet, nil)
	assert.ErrorContains(t, err, "codet has no option threshold (its options: Language, ")
	assert.ErrorIs(t, err, detector.ErrInvalidConfig)

	_, err = sweep{Key: "Mode"}.option(minhash, nil)
	assert.ErrorContains(t, err, "minhash fixes Mode by its name")

	_, err = sw.option(minhash, map[string]string{"Threshold": "0.3"})
	assert.ErrorContains(t, err, "both set it")
}

func TestSweepRun(t *testing.T) {
	data := writeJSONL(t, []map[string]string{
		{"id": "a1", "cluster": "A", "text": story + " Reporting by staff."},
		{"id": "a2", "cluster": "A", "text": story + " Written by agencies in the capital today."},
		{"id": "b1", "cluster": "B", "text": "A completely different story about football results and the weather in the south of the country this weekend."},
	})
	svg := filepath.Join(t.TempDir(), "sweep.svg")
	var out, errOut strings.Builder
	require.NoError(t, run(&out, &errOut, options{data: data, detectors: "reference", lang: "en",
		sweep: "Threshold=0.2:1:0.4", svg: svg}))
	s := out.String()
	assert.Contains(t, s, "\nreference, Threshold swept on ")
	// The two versions share most shingles, not all: found at 0.2 and
	// 0.6, not at 1.
	assert.Regexp(t, `(?m)^ +0\.2 +1 +1\.000 +1\.000 +1\.000 +1 +0 +0 `, s)
	assert.Regexp(t, `(?m)^ +0\.6 +1 +1\.000 +1\.000 +1\.000 +1 +0 +0 `, s)
	assert.Regexp(t, `(?m)^ +1 +0 +– +0\.000 +0\.000 +0 +0 +1 `, s)
	assert.Contains(t, s, "best F1 1.000 at Threshold=0.2")
	assert.Contains(t, errOut.String(), "evaluate: reference Threshold=1 (3/3): F1 0.000", "progress on stderr")
	assert.NotContains(t, s, "F1 0.000 (", "progress not on stdout")

	f, err := os.Open(svg)
	require.NoError(t, err)
	defer f.Close()
	dec := xml.NewDecoder(f)
	var polylines int
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			polylines++
		}
	}
	// F1 and recall over three points; precision undefined at 1 (nothing
	// reported), so its line has two.
	assert.Equal(t, 3, polylines)
}

func TestSweepErrors(t *testing.T) {
	data := writeJSONL(t, []map[string]string{{"id": "a", "text": story}})
	for _, c := range []struct {
		name string
		o    options
		err  string
	}{
		{"no such option", options{data: data, detectors: "codet", sweep: "Threshold=0.1:0.9:0.1"}, "codet has no option Threshold"},
		{"one of two detectors lacks it", options{data: data, detectors: "minhash,imatch", sweep: "Threshold=0.1:0.9:0.1"}, "imatch has no option Threshold"},
		{"bad form", options{data: data, detectors: "minhash", sweep: "Threshold=0.1"}, "want Key=FROM:TO:STEP"},
		{"value the type cannot hold", options{data: data, detectors: "simhash", sweep: "K=0.5:2:0.5"}, `option K: "0.5" is not an integer`},
		{"svg without sweep", options{data: data, detectors: "minhash", svg: "x.svg"}, "-svg draws a sweep: it needs -sweep"},
		{"no labels", options{data: data, detectors: "reference", sweep: "Threshold=0.5:0.6:0.1"}, "neither \"cluster\" nor"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.o.lang = "en"
			var out, errOut strings.Builder
			err := run(&out, &errOut, c.o)
			require.Error(t, err)
			assert.ErrorContains(t, err, c.err)
			assert.ErrorIs(t, err, detector.ErrInvalidConfig)
		})
	}
}
