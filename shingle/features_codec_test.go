package shingle_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
	"github.com/seed-9ef9c1df/neardup/shingle"
)

// story is a news text of several sentences for the codec tests.
const story = "The city council approved the new transport budget on Tuesday after a debate that lasted most of the night. " +
	"The plan adds three bus lines to the northern districts and repairs two bridges over the river. " +
	"Opposition members said the cost of the bridges had been underestimated by the mayor's office. " +
	"The mayor replied that the estimate came from independent engineers and would be published next week. " +
	"Work on the first bus line is expected to begin in the spring, once the contracts have been signed. " +
	"Residents of the northern districts have waited for better connections to the centre for many years."

// codecConfigs are the Configs whose features the codec tests encode:
// every Method, every DSC Sampling, and DSC-SS.
var codecConfigs = []shingle.Config{
	{Method: shingle.FullFingerprint, Language: "en"},
	{Method: shingle.DSC, Language: "en"},
	{Method: shingle.DSC, Language: "en", Sampling: shingle.SampleMin},
	{Method: shingle.DSC, Language: "en", Sampling: shingle.SampleStride},
	{Method: shingle.DSC, Language: "en", SuperShingle: 2},
	{Method: shingle.SpotSigs, Language: "en"},
}

// same asserts a and b are equal features, an empty list equal to none.
func same(t *testing.T, a, b shingle.Features, msg string) {
	t.Helper()
	norm := func(f shingle.Features) shingle.Features {
		if len(f.Hashes) == 0 {
			f.Hashes = nil
		}
		if len(f.Counts) == 0 {
			f.Counts = nil
		}
		if len(f.Super) == 0 {
			f.Super = nil
		}
		return f
	}
	assert.Equal(t, norm(a), norm(b), msg)
}

func TestFeaturesBinaryRoundTrip(t *testing.T) {
	texts := []string{"", "one", strings.Repeat("the council approved the budget after a long debate on roads. ", 30), story}
	for _, cfg := range codecConfigs {
		for i, text := range texts {
			f, err := shingle.Extract(cfg, text)
			require.NoError(t, err)
			b, err := f.MarshalBinary()
			require.NoError(t, err)
			var g shingle.Features
			require.NoError(t, g.UnmarshalBinary(b), "%v text %d", cfg.Method, i)
			same(t, f, g, fmt.Sprintf("%v/%v text %d", cfg.Method, cfg.Sampling, i))
			again, _ := g.MarshalBinary()
			assert.Equal(t, b, again, "canonical")
		}
	}
}

func TestFeaturesUnmarshalRejects(t *testing.T) {
	f, err := shingle.Extract(shingle.Config{Method: shingle.SpotSigs, Language: "en"}, story)
	require.NoError(t, err)
	require.NotEmpty(t, f.Hashes)
	good, _ := f.MarshalBinary()
	unsorted := f
	unsorted.Hashes = slices.Clone(f.Hashes)
	unsorted.Hashes[0], unsorted.Hashes[1] = unsorted.Hashes[1], unsorted.Hashes[0]
	bad, _ := unsorted.MarshalBinary() // gaps wrap around: not ascending
	zeroCount := f
	zeroCount.Counts = slices.Clone(f.Counts)
	zeroCount.Counts[0] = 0
	zc, _ := zeroCount.MarshalBinary()
	ffp := shingle.Features{Method: shingle.FullFingerprint, Hashes: []uint64{1, 2}, Shingles: 3}
	wrongShingles, _ := ffp.MarshalBinary()
	super := shingle.Features{Method: shingle.FullFingerprint, Hashes: []uint64{1}, Shingles: 1, Super: []uint64{5}}
	superFFP, _ := super.MarshalBinary()
	for name, b := range map[string][]byte{
		"empty":                 {},
		"other format":          append([]byte{9}, good[1:]...),
		"cut":                   good[:len(good)-1],
		"trailing":              append(slices.Clone(good), 0),
		"hashes not ascending":  bad,
		"a zero count":          zc,
		"shingles of ffp":       wrongShingles,
		"super-shingles of ffp": superFFP,
		"unknown method":        {1, 7, 0, 0, 0, 0},
	} {
		t.Run(name, func(t *testing.T) {
			g := shingle.Features{Shingles: -5}
			err := g.UnmarshalBinary(b)
			require.ErrorIs(t, err, detector.ErrSnapshot)
			assert.Equal(t, -5, g.Shingles, "f is left unchanged")
		})
	}
}

func FuzzFeaturesUnmarshal(f *testing.F) {
	for _, cfg := range codecConfigs {
		ft, err := shingle.Extract(cfg, story)
		require.NoError(f, err)
		b, _ := ft.MarshalBinary()
		f.Add(b)
	}
	f.Add([]byte{1, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		var g shingle.Features
		if g.UnmarshalBinary(b) != nil {
			return
		}
		again, err := g.MarshalBinary()
		require.NoError(t, err)
		require.True(t, bytes.Equal(b, again), "what decodes re-encodes to the same bytes")
	})
}

func TestVerifier(t *testing.T) {
	_, err := shingle.Verifier(0)
	require.ErrorIs(t, err, detector.ErrInvalidConfig)
	_, err = shingle.Verifier(1.5)
	require.ErrorIs(t, err, detector.ErrInvalidConfig)
	verify, err := shingle.Verifier(0.6)
	require.NoError(t, err)

	ffp := shingle.Config{Method: shingle.FullFingerprint, Language: "en"}
	whole, _ := shingle.Extract(ffp, story)
	part, _ := shingle.Extract(ffp, story[:len(story)/2])
	s, ok := verify(whole, part)
	assert.True(t, ok, "the whole contains its first half (%v)", s)
	assert.InDelta(t, shingle.Containment(part, whole), s, 1e-12)
	_, ok = verify(part, whole)
	assert.False(t, ok, "the half does not contain the whole")

	spots := shingle.Config{Method: shingle.SpotSigs, Language: "en"}
	a, _ := shingle.Extract(spots, story)
	s, ok = verify(a, a)
	assert.True(t, ok)
	assert.Equal(t, 1.0, s)
	s, ok = verify(a, whole)
	assert.False(t, ok, "features of different methods are not related")
	assert.Zero(t, s)
}

// TestVerifierCascadeRestarts: a Cascade whose features are shingle
// Features and whose check is Verifier writes a snapshot, and a new one
// loaded from it answers as the first.
func TestVerifierCascadeRestarts(t *testing.T) {
	cfg := shingle.Config{Method: shingle.FullFingerprint, Language: "en"}
	features := func(text string) shingle.Features {
		f, err := shingle.Extract(cfg, text)
		require.NoError(t, err)
		return f
	}
	verify, err := shingle.Verifier(shingle.DefaultContainment)
	require.NoError(t, err)
	build := func() detector.Detector {
		c, err := detector.Cascade(naive.New(naive.Config{Threshold: 0.2}), features, verify)
		require.NoError(t, err)
		return c
	}
	docs := []detector.Doc{
		{ID: "whole", Text: story},
		{ID: "half", Text: story[:len(story)/2]},
		{ID: "other", Text: "the weather stayed dry across the north of the country for a third week running"},
		{ID: "copy", Text: story},
	}
	orig := build()
	for _, d := range docs {
		_, err := orig.Add(d)
		require.NoError(t, err)
	}
	p, ok := orig.(detector.Persister)
	require.True(t, ok, "a Cascade over shingle.Features persists")
	var buf bytes.Buffer
	_, err = p.WriteTo(&buf)
	require.NoError(t, err)
	restarted := build()
	_, err = restarted.(detector.Persister).ReadFrom(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	for _, d := range docs {
		want, err := orig.Containers(d.ID)
		require.NoError(t, err)
		got, err := restarted.Containers(d.ID)
		require.NoError(t, err)
		assert.Equal(t, want, got, d.ID)
	}
	got, err := restarted.Containers("half")
	require.NoError(t, err)
	assert.Len(t, got, 2, "the whole and its copy contain the half")
}
