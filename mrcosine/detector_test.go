package mrcosine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/detectortest"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// TestConformance runs the contract on the configurations the registry
// does not name: its "mrcosine" (Config{}) and "mrcosine-centered"
// (Centered) run in the root package's TestEveryNameConforms.
func TestConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"Exhaustive", Config{Exhaustive: true}},
		{"ExhaustiveCentered", Config{Exhaustive: true, Centered: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			detectortest.Run(t, func() detector.Detector {
				d, err := New(tc.cfg)
				if err != nil {
					panic(err)
				}
				return d
			}, detectortest.Options{Symmetric: true})
		})
	}
}

func TestNewInvalid(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{T2: 1.5}, "mrcosine: T2 (1.5) must be in (0, 1]"},
		{Config{T2: -0.1}, "mrcosine: T2 (-0.1) must be in (0, 1]"},
		{Config{T1: 0.5, T2: 0.9}, "mrcosine: T1 (0.5) must be in [T2 (0.9), 1]"},
		{Config{T1: 1.2}, "mrcosine: T1 (1.2) must be in [T2 (0.88), 1]"},
		{Config{Rows: 65}, "mrcosine: Rows (65) must be in [1, 64]"},
		{Config{Rows: -1}, "mrcosine: Rows (-1) must be in [1, 64]"},
		{Config{MissRate: 1}, "mrcosine: MissRate (1) must be in (0, 1)"},
		{Config{Bands: -3}, "mrcosine: Bands (-3) must be in [1, 4096]"},
		{Config{MaxTextBytes: -1}, "mrcosine: MaxTextBytes (-1) must be ≥ 0"},
	} {
		_, err := New(tc.cfg)
		if assert.ErrorIs(t, err, detector.ErrInvalidConfig, "New(%+v)", tc.cfg) {
			assert.Contains(t, err.Error(), tc.want, "New(%+v)", tc.cfg)
		}
	}
	_, err := NewWithReference(Config{}, nil)
	assert.ErrorIs(t, err, detector.ErrInvalidConfig, "NewWithReference(nil)")
	plain, err := NewReference(Default().Genes(), DefaultParts, TextConfig{})
	require.NoError(t, err)
	_, err = NewWithReference(Config{Centered: true}, plain)
	assert.ErrorIs(t, err, detector.ErrInvalidConfig, "Centered with a reference without a center")
	_, err = NewWithReference(Config{Centered: true}, plain.Centered([]string{"some text to center on"}))
	assert.NoError(t, err)
}

func TestDefaults(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	cfg := d.Config()
	assert.Equal(t, DefaultT1, cfg.T1)
	assert.Equal(t, DefaultT2, cfg.T2)
	assert.Equal(t, DefaultRows, cfg.Rows)
	assert.Equal(t, Bands(1-PlainSlack*(1-DefaultT2), DefaultRows, DefaultMissRate), cfg.Bands,
		"plain signatures are hashed from the center, at the slackened threshold")
	assert.Equal(t, DefaultMissRate, cfg.MissRate)
	assert.Equal(t, DefaultContent, cfg.Content)
	assert.Equal(t, detector.DefaultMaxTextBytes, cfg.MaxTextBytes)
	assert.Equal(t, Default().Genes(), d.Reference().Genes())
	d, err = New(Config{Centered: true})
	require.NoError(t, err)
	assert.Equal(t, DefaultCenteredT1, d.Config().T1)
	assert.Equal(t, DefaultCenteredT2, d.Config().T2)
	assert.Equal(t, Bands(DefaultCenteredT2, DefaultCenteredRows, DefaultMissRate), d.Config().Bands)
	// A reference without a center hashes plain signatures at T2 itself.
	plain, err := NewReference(Default().Genes(), DefaultParts, TextConfig{})
	require.NoError(t, err)
	d, err = NewWithReference(Config{}, plain)
	require.NoError(t, err)
	assert.Equal(t, Bands(DefaultT2, DefaultRows, DefaultMissRate), d.Config().Bands)
	// A T2 above the default T1 lifts T1 with it.
	d, err = New(Config{T2: 0.99})
	require.NoError(t, err)
	assert.Equal(t, 0.99, d.Config().T1)
}

func TestBands(t *testing.T) {
	for _, tc := range []struct {
		t, miss float64
		rows    int
	}{
		{0.88, 0.002, 16}, {0.95, 0.01, 8}, {0.5, 0.1, 4}, {0.99, 0.001, 32},
	} {
		L := Bands(tc.t, tc.rows, tc.miss)
		p := pow(1-acos(tc.t)/3.141592653589793, tc.rows)
		// L bands reach the miss rate and L-1 do not.
		assert.LessOrEqual(t, pow(1-p, L), tc.miss, "Bands(%v)", tc)
		if L > 1 {
			assert.Greater(t, pow(1-p, L-1), tc.miss, "Bands(%v)", tc)
		}
	}
	assert.Equal(t, 1, Bands(1, 16, 0.01), "identical vectors always collide")
}

func TestClassify(t *testing.T) {
	d, err := New(Config{T1: 0.95, T2: 0.8})
	require.NoError(t, err)
	for _, tc := range []struct {
		s    float64
		want Class
	}{{1, Duplicate}, {0.95, Duplicate}, {0.949, NearDuplicate}, {0.8, NearDuplicate}, {0.79, Unrelated}, {0, Unrelated}} {
		assert.Equal(t, tc.want, d.Classify(tc.s), "Classify(%v)", tc.s)
	}
	assert.Equal(t, "near-duplicate", NearDuplicate.String())
	assert.Equal(t, "Class(7)", Class(7).String())
}

// TestIndexMatchesExhaustive checks on a synthetic stream that every pair
// the index reports is one exhaustive comparison reports with the same
// score, and that the index misses few.
func TestIndexMatchesExhaustive(t *testing.T) {
	docs := dataset.SynthDocs(600, dataset.SynthConfig{Seed: 3})
	ex, err := New(Config{Exhaustive: true})
	require.NoError(t, err)
	ix, err := New(Config{})
	require.NoError(t, err)
	missed, total := 0, 0
	for _, doc := range docs {
		want, err := ex.Add(doc)
		require.NoError(t, err)
		got, err := ix.Add(doc)
		require.NoError(t, err)
		w := map[string]float64{}
		for _, m := range want {
			w[m.ID] = m.Score
		}
		for _, m := range got {
			s, ok := w[m.ID]
			if assert.True(t, ok, "Add(%q) reports %q, exhaustive does not", doc.ID, m.ID) {
				assert.Equal(t, s, m.Score)
			}
		}
		total += len(want)
		missed += len(want) - len(got)
	}
	require.Greater(t, total, 100)
	assert.LessOrEqual(t, float64(missed), 0.01*float64(total), "index missed %d of %d pairs", missed, total)
}

func TestRemoveReusesIndex(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	text := strings.Repeat("The central bank raised its key interest rate by half a point on Tuesday. ", 5)
	for i := range 50 {
		id := fmt.Sprintf("d%d", i)
		ms, err := d.Add(detector.Doc{ID: id, Text: text})
		require.NoError(t, err)
		if i > 0 {
			assert.Len(t, ms, 1, "Add(%q) sees only the one live copy", id)
		}
		if i > 0 {
			require.NoError(t, d.Remove(fmt.Sprintf("d%d", i-1)))
		}
	}
	assert.Equal(t, 1, d.Len())
	d.ix().buckets.eachList(func(_ uint32, _ uint64, l []uint32) {
		assert.Len(t, l, 1, "bucket lists hold only live documents")
	})
	assert.Equal(t, d.Config().Bands, d.ix().buckets.keys(), "one key per band")
}

func TestAppendBandKeys(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	sig := d.Reference().Signature("Oil prices rose sharply after the pipeline closed.")
	keys := d.AppendBandKeys(nil, sig)
	assert.Len(t, keys, d.Config().Bands)
	assert.Equal(t, keys, d.AppendBandKeys(nil, sig), "band keys are deterministic")
	assert.Panics(t, func() { d.AppendBandKeys(nil, sig[:3]) })
	ex, err := New(Config{Exhaustive: true})
	require.NoError(t, err)
	assert.Empty(t, ex.AppendBandKeys(nil, sig))
}
