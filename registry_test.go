package neardup

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/minhash"
	"github.com/seed-9ef9c1df/neardup/shingle"
	"github.com/seed-9ef9c1df/neardup/simhash"
)

func TestEveryNameBuilds(t *testing.T) {
	require.Len(t, Names(), 15)
	for _, name := range Names() {
		info, err := Lookup(name)
		require.NoError(t, err)
		for _, lang := range []string{"", "en", "tr"} {
			opts := map[string]string{"language": lang}
			if !slices.Contains(info.Options, "Language") {
				opts = nil // mrcosine and the reference are language-independent
			}
			d, err := New(name, opts)
			if name == "simhash-spots" && lang == "" {
				require.ErrorIs(t, err, detector.ErrInvalidConfig, "spot signatures need a stopword list")
				continue
			}
			require.NoError(t, err, "%s, Language %q", name, lang)
			ms, err := d.Add(detector.Doc{ID: "a", Text: "The council approved the budget on Monday after a long debate."})
			require.NoError(t, err, name)
			assert.Empty(t, ms)
			require.NoError(t, d.Close())
		}
		assert.Equal(t, name, info.Name)
		for _, f := range info.Fixed {
			assert.NotContains(t, info.Options, f, "%s: a fixed field is not an option", name)
		}
	}
}

func TestNamesFixWhatTheyName(t *testing.T) {
	d, err := New("dsc", nil)
	require.NoError(t, err)
	assert.Equal(t, shingle.DSC, d.(*shingle.Detector).Config().Method)
	d, err = New("minhash-containment", nil)
	require.NoError(t, err)
	assert.Equal(t, minhash.Containment, d.(*minhash.Detector).Config().Mode)
}

func TestPresetValuesAreOverridable(t *testing.T) {
	d, err := New("simhash-spots", nil)
	require.NoError(t, err)
	assert.Equal(t, 20, d.(*simhash.Detector).Config().K)
	d, err = New("simhash-spots", map[string]string{"K": "10"})
	require.NoError(t, err)
	cfg := d.(*simhash.Detector).Config()
	assert.Equal(t, 10, cfg.K, "an option overrides the preset's value")
	assert.Equal(t, simhash.FeatureSpots, cfg.Features, "and the fixed field stays")
}

func TestNewErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		opts map[string]string
		want string
	}{
		{"nope", nil, `unknown detector "nope"`},
		{"codet", map[string]string{"Nope": "1"}, `unknown option "Nope"`},
		{"ffp", map[string]string{"method": "2"}, "option Method is fixed"},
		{"tweezer-exact", map[string]string{"Mode": "0"}, "option Mode is fixed"},
		{"mrcosine-centered", map[string]string{"Centered": "false"}, "option Centered is fixed"},
		{"minhash", map[string]string{"Threshold": "high"}, "option Threshold=\"high\""},
		{"minhash", map[string]string{"Threshold": "1e999"}, "option Threshold=\"1e999\""},
		{"codet", map[string]string{"Language": "xx-!!"}, "Language"},
		{"shingle", nil, `unknown detector "shingle"`},
	} {
		_, err := New(c.name, c.opts)
		require.Error(t, err, c.name)
		assert.ErrorIs(t, err, detector.ErrInvalidConfig, c.name)
		assert.Contains(t, err.Error(), c.want, c.name)
	}
	_, err := Lookup("nope")
	assert.ErrorIs(t, err, detector.ErrInvalidConfig)
}

func TestParseOptions(t *testing.T) {
	got, err := ParseOptions([]string{"Language=tr", "Threshold=0.3", "X="})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"Language": "tr", "Threshold": "0.3", "X": ""}, got)
	for _, bad := range []string{"noequals", "=1"} {
		_, err := ParseOptions([]string{bad})
		assert.ErrorIs(t, err, detector.ErrInvalidConfig, bad)
	}
}

func TestLookupReturnsCopies(t *testing.T) {
	a, err := Lookup("ffp")
	require.NoError(t, err)
	a.Options[0] = "changed"
	b, err := Lookup("ffp")
	require.NoError(t, err)
	assert.NotEqual(t, "changed", b.Options[0])
}

// TestLen: every named detector counts its live documents, and none after
// Close.
func TestLen(t *testing.T) {
	for _, name := range Names() {
		d, err := New(name, nil)
		if name == "simhash-spots" {
			d, err = New(name, map[string]string{"Language": "en"})
		}
		require.NoError(t, err, name)
		l, ok := d.(interface{ Len() int })
		require.True(t, ok, "%s has no Len", name)
		for _, id := range []string{"a", "b"} {
			_, err := d.Add(detector.Doc{ID: id, Text: "The council approved the budget on Monday after a long debate."})
			require.NoError(t, err)
		}
		assert.Equal(t, 2, l.Len(), name)
		if r, ok := d.(detector.Remover); ok {
			require.NoError(t, r.Remove("a"))
			assert.Equal(t, 1, l.Len(), name)
		}
		require.NoError(t, d.Close())
		assert.Zero(t, l.Len(), "%s after Close", name)
	}
}
