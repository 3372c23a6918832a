package shingle_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
	"github.com/seed-9ef9c1df/neardup/shingle"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// stream returns a deterministic mix of synthetic news (copies, edits,
// truncations, merges) and short texts of 0 to 5 words.
func stream(n int, seed uint64) []detector.Doc {
	docs := dataset.SynthDocs(n, dataset.SynthConfig{Seed: seed, Vocabulary: 2000, Recent: 40, MinSentences: 2, MaxSentences: 8})
	r := rand.New(rand.NewPCG(seed, 7))
	words := strings.Fields("alpha beta gamma delta epsilon")
	for i := range n / 10 {
		k := r.IntN(6)
		docs = append(docs, detector.Doc{ID: fmt.Sprintf("short%d", i), Text: strings.Join(words[:min(k, len(words))], " ")})
	}
	r.Shuffle(len(docs), func(i, j int) { docs[i], docs[j] = docs[j], docs[i] })
	return docs
}

// sameMatches asserts got and want name the same documents with the same
// scores, in the same order.
func sameMatches(t *testing.T, call string, want, got []detector.Match) {
	t.Helper()
	require.Equal(t, len(want), len(got), "%s = %v, want %v", call, got, want)
	for i := range want {
		assert.Equal(t, want[i].ID, got[i].ID, "%s = %v, want %v", call, got, want)
		assert.InDelta(t, want[i].Score, got[i].Score, 1e-12, "%s score of %s", call, want[i].ID)
	}
}

// TestFFPDifferential compares full fingerprinting with the exact
// reference of internal/naive (every live document compared): the same
// containers with the same ratios, for every Add and Containers, at several
// thresholds and shingle lengths, with removals: shingles of 4, 2 and 1
// words by default, also w4-θ0.2 and w5-θ1 with NEARDUP_LONG.
func TestFFPDifferential(t *testing.T) {
	for _, tc := range []struct {
		shingle int
		theta   float64
	}{{4, 0.6}, {4, 0.2}, {2, 0.9}, {5, 1}, {1, 0.05}} {
		t.Run(fmt.Sprintf("w%d-θ%v", tc.shingle, tc.theta), func(t *testing.T) {
			if shingle.RaceEnabled && tc.theta != 0.6 {
				t.Skip("one case under -race keeps CI fast")
			}
			if (tc.shingle == 4 && tc.theta == 0.2) || tc.shingle == 5 {
				dataset.SkipLong(t)
			}
			ref := naive.New(naive.Config{Shingle: tc.shingle, Threshold: tc.theta, MaxResults: noCap})
			d, err := shingle.New(shingle.Config{Language: "und", KeepStopwords: true, Stemmer: textproc.StemNone, Shingle: tc.shingle, Threshold: tc.theta, MaxResults: noCap,
				Content: textproc.ContentAll, MinOverlap: 1}) // the reference: whole texts, no evidence rule
			require.NoError(t, err)
			docs := stream(300, uint64(tc.shingle))
			for i, doc := range docs {
				want, err := ref.Add(doc)
				require.NoError(t, err)
				got, err := d.Add(doc)
				require.NoError(t, err)
				sameMatches(t, "Add("+doc.ID+")", want, got)
				if i%7 == 3 { // forget an earlier document
					old := docs[i/2].ID
					require.NoError(t, ref.Remove(old))
					require.NoError(t, d.Remove(old))
					docs[i/2].ID = ""
				}
			}
			for _, doc := range docs {
				if doc.ID == "" {
					continue
				}
				want, err := ref.Containers(doc.ID)
				require.NoError(t, err)
				got, err := d.Containers(doc.ID)
				require.NoError(t, err)
				sameMatches(t, "Containers("+doc.ID+")", want, got)
			}
		})
	}
}

// TestDSCModulusOneIsFFP checks that DSC with m = 1 (every shingle
// selected) answers exactly as full fingerprinting.
func TestDSCModulusOneIsFFP(t *testing.T) {
	ffp, err := shingle.New(shingle.Config{Threshold: 0.3, MinOverlap: 1, MaxResults: noCap}) // DSC's default: no evidence rule
	require.NoError(t, err)
	dsc, err := shingle.New(shingle.Config{Method: shingle.DSC, Modulus: 1, Threshold: 0.3, MaxResults: noCap})
	require.NoError(t, err)
	docs := stream(200, 5)
	for _, doc := range docs {
		want, err := ffp.Add(doc)
		require.NoError(t, err)
		got, err := dsc.Add(doc)
		require.NoError(t, err)
		sameMatches(t, "Add("+doc.ID+")", want, got)
	}
}

// TestStrideIsPositional pins the behaviour that sets reading (a) of Varol
// 2012 §4.1.1 apart: stride sampling finds a copy whose words keep their
// positions, and loses the same text shifted by one word, which modulus
// sampling still finds.
func TestStrideIsPositional(t *testing.T) {
	text := dataset.SynthDocs(1, dataset.SynthConfig{Seed: 9})[0].Text
	for _, tc := range []struct {
		sampling shingle.Sampling
		shifted  bool
	}{{shingle.SampleStride, false}, {shingle.SampleModulus, true}} {
		d, err := shingle.New(shingle.Config{Method: shingle.DSC, Sampling: tc.sampling, MaxResults: noCap, KeepStopwords: true, Stemmer: textproc.StemNone,
			Content: textproc.ContentAll}) // positions count: every block read
		require.NoError(t, err)
		_, err = d.Add(detector.Doc{ID: "long", Text: text + " and a tail of new words at the end"})
		require.NoError(t, err)
		_, err = d.Add(detector.Doc{ID: "shifted", Text: "Breaking " + text})
		require.NoError(t, err)
		got, err := d.Add(detector.Doc{ID: "short", Text: text})
		require.NoError(t, err)
		ids := map[string]bool{}
		for _, m := range got {
			ids[m.ID] = true
		}
		assert.True(t, ids["long"], "%v: Add(short) = %v, want long ⊇ short", tc.sampling, got)
		assert.Equal(t, tc.shifted, ids["shifted"], "%v: Add(short) = %v: shifted copy", tc.sampling, got)
	}
}
