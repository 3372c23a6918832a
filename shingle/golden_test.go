package shingle_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/shingle"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt (TestGolden) and testdata/v1.snapshot (TestSnapshotV1)")

// TestGolden pins the features of fixed texts and the relations a fixed
// sequence of documents produces, for every method.
//
// Do NOT make changes to the golden outputs by hand: a change means
// signatures stored by an earlier version no longer compare. Regenerate
// with `go test ./shingle -run TestGolden -update` only for an intended
// change, and say why in the commit.
func TestGolden(t *testing.T) {
	cfgs := []struct {
		name string
		cfg  shingle.Config
	}{
		{"ffp", shingle.Config{Language: "en"}},
		{"ffp-plain", shingle.Config{KeepStopwords: true, Stemmer: textproc.StemNone, Language: "und"}},
		{"dsc", shingle.Config{Language: "en", Method: shingle.DSC, Modulus: 2}},
		{"dsc-min", shingle.Config{Language: "en", Method: shingle.DSC, Sampling: shingle.SampleMin, SampleSize: 6}},
		{"dsc-stride-ss", shingle.Config{Language: "en", Method: shingle.DSC, Sampling: shingle.SampleStride, SuperShingle: 2}},
		{"spotsigs", shingle.Config{Language: "en", Method: shingle.SpotSigs, MinSignatures: 1, MinIDF: -1, MaxIDF: 2}},
		{"spotsigs-release", shingle.Config{Language: "en", Method: shingle.SpotSigs, Antecedents: releaseAntecedents, ChainLength: 1, SpotDistance: 1, ReleaseChains: true, MinSignatures: 1, MinIDF: -1, MaxIDF: 2}},
	}
	texts := map[string]string{"report": report, "roundup": roundup, "other": other}
	var b strings.Builder
	for _, c := range cfgs {
		for _, id := range []string{"other", "report", "roundup"} {
			f, err := shingle.Extract(c.cfg, texts[id])
			require.NoError(t, err)
			var sum uint64
			for i, h := range f.Hashes {
				sum = sum*31 + h
				if f.Counts != nil {
					sum += uint64(f.Counts[i])
				}
			}
			for _, h := range f.Super {
				sum = sum*37 + h
			}
			fmt.Fprintf(&b, "%s %s features %d/%d super %d sum %016x\n", c.name, id, len(f.Hashes), f.Shingles, len(f.Super), sum)
		}
		d, err := shingle.New(c.cfg)
		require.NoError(t, err)
		for _, id := range []string{"report", "other", "roundup"} {
			ms, err := d.Add(detector.Doc{ID: id, Text: texts[id]})
			require.NoError(t, err)
			fmt.Fprintf(&b, "%s Add(%s) %s\n", c.name, id, fmtMatches(ms))
		}
		for _, id := range []string{"report", "other", "roundup"} {
			ms, err := d.Containers(id)
			require.NoError(t, err)
			fmt.Fprintf(&b, "%s Containers(%s) %s\n", c.name, id, fmtMatches(ms))
		}
	}
	path := filepath.Join("testdata", "golden.txt")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), b.String(), "golden outputs differ (see the test's doc comment)")
}

func fmtMatches(ms []detector.Match) string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, fmt.Sprintf("%s:%.4f", m.ID, m.Score))
	}
	return "[" + strings.Join(parts, " ") + "]"
}
