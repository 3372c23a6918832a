package shingle_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/shingle"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg  shingle.Config
		want string
	}{
		{shingle.Config{Method: 7}, "shingle: unknown Method (7)"},
		{shingle.Config{Language: "not a tag!"}, `shingle: Language ("not a tag!") is not a BCP 47 tag`},
		{shingle.Config{Threshold: 1.5}, "shingle: Threshold (1.5) must be in (0, 1]"},
		{shingle.Config{Threshold: -0.1}, "shingle: Threshold (-0.1) must be in (0, 1]"},
		{shingle.Config{Shingle: -1}, "shingle: Shingle (-1) must be in [1, 64]"},
		{shingle.Config{Sampling: 9}, "shingle: unknown Sampling (9)"},
		{shingle.Config{Modulus: -2}, "shingle: Modulus (-2) must be ≥ 1"},
		{shingle.Config{SampleSize: -1}, "shingle: SampleSize (-1) must be ≥ 1"},
		{shingle.Config{Stride: -3}, "shingle: Stride (-3) must be in [1, 65536]"},
		{shingle.Config{Stride: math.MaxInt}, fmt.Sprintf("shingle: Stride (%d) must be in [1, 65536]", math.MaxInt)},
		{shingle.Config{SuperShingle: 65}, "shingle: SuperShingle (65) must be in [0, 64]"},
		{shingle.Config{Antecedents: " , ,"}, `shingle: Antecedents (" , ,") names no word`},
		{shingle.Config{ChainLength: -1}, "shingle: ChainLength (-1) must be in [1, 64]"},
		{shingle.Config{SpotDistance: -1}, "shingle: SpotDistance (-1) must be in [1, 65536]"},
		{shingle.Config{SpotDistance: math.MaxInt}, fmt.Sprintf("shingle: SpotDistance (%d) must be in [1, 65536]", math.MaxInt)},
		{shingle.Config{MinIDF: math.NaN()}, "shingle: MinIDF (NaN) must be a number"},
		{shingle.Config{MaxIDF: math.NaN()}, "shingle: MaxIDF (NaN) must be a number"},
		{shingle.Config{Threshold: math.NaN()}, "shingle: Threshold (NaN) must be in (0, 1]"},
		{shingle.Config{MinIDF: math.Inf(-1)}, "shingle: MinIDF (-Inf) must be finite (a snapshot stores it; any negative value turns the cut off)"},
		{shingle.Config{MinIDF: math.Inf(1)}, "shingle: MinIDF (+Inf) must be finite (a snapshot stores it; any negative value turns the cut off)"},
		{shingle.Config{MaxIDF: math.Inf(1)}, "shingle: MaxIDF (+Inf) must be finite (a snapshot stores it; any value above 1 turns the cut off)"},
		{shingle.Config{MaxIDF: math.Inf(-1)}, "shingle: MaxIDF (-Inf) must be finite (a snapshot stores it; any value above 1 turns the cut off)"},
		{shingle.Config{Threshold: math.Inf(1)}, "shingle: Threshold (+Inf) must be in (0, 1]"},
		{shingle.Config{MinSignatures: -4}, "shingle: MinSignatures (-4) must be ≥ 1"},
		{shingle.Config{MinIDF: 0.9}, "shingle: MinIDF (0.9) must be below MaxIDF (0.8)"},
		{shingle.Config{MaxTextBytes: -1}, "shingle: MaxTextBytes (-1) must be ≥ 0"},
		{shingle.Config{MaxResults: -1}, "shingle: MaxResults (-1) must be ≥ 0"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			d, err := shingle.New(tc.cfg)
			assert.Nil(t, d)
			require.Error(t, err)
			assert.True(t, errors.Is(err, detector.ErrInvalidConfig), "New(%+v) = %v, want ErrInvalidConfig", tc.cfg, err)
			assert.Equal(t, tc.want+": invalid config", err.Error())
			_, err = shingle.Extract(tc.cfg, "text")
			assert.ErrorIs(t, err, detector.ErrInvalidConfig)
		})
	}
}

func TestDefaults(t *testing.T) {
	d, err := shingle.New(shingle.Config{})
	require.NoError(t, err)
	assert.Equal(t, shingle.Config{
		Stemmer: textproc.StemPrefix, PrefixLen: 5, Threshold: shingle.DefaultContainment, Shingle: 4, Modulus: shingle.DefaultModulus, SampleSize: 64, Stride: 3,
		Antecedents: "is,the,said,was", ChainLength: 3, SpotDistance: 2, MinSignatures: 4, MaxResults: detector.DefaultMaxResults,
		MinIDF: 0.2, MaxIDF: 0.8, MinOverlap: shingle.DefaultMinOverlap, Content: shingle.DefaultContent,
		MaxTextBytes: detector.DefaultMaxTextBytes,
	}, d.Config())
	s, err := shingle.New(shingle.Config{Method: shingle.SpotSigs})
	require.NoError(t, err)
	assert.Equal(t, 0.1, s.Config().Threshold)
	for _, m := range []shingle.Method{shingle.FullFingerprint, shingle.DSC, shingle.SpotSigs, 5} {
		assert.NotEmpty(t, m.String())
	}
	for _, s := range []shingle.Sampling{shingle.SampleModulus, shingle.SampleMin, shingle.SampleStride, 5} {
		assert.NotEmpty(t, s.String())
	}
}

// TestFeatures checks the pure per-document functions against the
// detector's scores.
func TestFeatures(t *testing.T) {
	for _, cfg := range []shingle.Config{
		{}, {Method: shingle.DSC, Modulus: 2}, {Method: shingle.DSC, Sampling: shingle.SampleMin, SampleSize: 8},
		{Method: shingle.DSC, SuperShingle: 2, Modulus: 2},
	} {
		a, err := shingle.Extract(cfg, report)
		require.NoError(t, err)
		c, err := shingle.Extract(cfg, roundup)
		require.NoError(t, err)
		o, err := shingle.Extract(cfg, other)
		require.NoError(t, err)
		assert.Equal(t, 1.0, shingle.Containment(a, c), "%+v: roundup ⊇ report", cfg)
		assert.Less(t, shingle.Containment(c, a), 1.0, "%+v: report ⊉ roundup", cfg)
		assert.Zero(t, shingle.Containment(a, o), "%+v", cfg)
		assert.Equal(t, cfg.SuperShingle > 0, len(a.Super) > 0)
		assert.Panics(t, func() { shingle.Jaccard(a, c) })
	}
	cfg := shingle.Config{Method: shingle.SpotSigs}
	b, err := shingle.Extract(cfg, report)
	require.NoError(t, err)
	require.NotEmpty(t, b.Hashes)
	a := b
	a.Counts = nil
	for _, c := range b.Counts {
		a.Counts = append(a.Counts, 2*c)
	}
	assert.Equal(t, 0.5, shingle.Jaccard(a, b), "doubling every signature count halves the multiset Jaccard")
	assert.Equal(t, 1.0, shingle.Jaccard(b, b))
	assert.Zero(t, shingle.Jaccard(shingle.Features{Method: shingle.SpotSigs}, shingle.Features{Method: shingle.SpotSigs}))
	assert.Panics(t, func() { shingle.Containment(a, b) })
	f, err := shingle.Extract(shingle.Config{}, report)
	require.NoError(t, err)
	assert.Panics(t, func() { shingle.Containment(f, a) })
}

// TestConfigIsEffective: Config returns what New resolved, and New of
// that Config is the same detector.
func TestConfigIsEffective(t *testing.T) {
	for _, m := range []shingle.Method{shingle.FullFingerprint, shingle.DSC, shingle.SpotSigs} {
		d, err := shingle.New(shingle.Config{Method: m})
		require.NoError(t, err)
		e, err := shingle.New(d.Config())
		require.NoError(t, err)
		assert.Equal(t, d.Config(), e.Config(), "%v: the effective config is a fixed point", m)
		assert.NotZero(t, d.Config().Threshold)
		assert.NotZero(t, d.Config().MinOverlap)
		assert.Equal(t, detector.DefaultMaxTextBytes, d.Config().MaxTextBytes)
	}
}
