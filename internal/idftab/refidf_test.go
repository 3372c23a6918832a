package idftab_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zeebo/xxh3"
	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/idftab"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

func TestEmbeddedTables(t *testing.T) {
	for _, c := range []struct {
		tag  language.Tag
		n    int64
		term string // a common stem: low weight
		rare string // a stem absent from the table: weight log(N)
	}{
		{language.English, 21268, "said", "zzzzq"},
		{language.MustParse("en-GB"), 21268, "compa", "zzzzq"},
		{language.Turkish, 3600, "türki", "zzzzq"},
	} {
		idf, ok := idftab.For(c.tag)
		require.True(t, ok, c.tag)
		assert.True(t, idf.Frozen())
		assert.Equal(t, c.n, idf.N())
		assert.Greater(t, idf.DF(c.term), int64(c.n/20), "%s: df(%s)", c.tag, c.term)
		assert.Less(t, idf.Weight(c.term), idf.Weight(c.rare))
		assert.InDelta(t, idf.Weight(c.rare), idf.Weight("zzzzr"), 0)
	}
	_, ok := idftab.For(language.French)
	assert.False(t, ok)
	_, ok = idftab.For(language.Und)
	assert.False(t, ok)
}

func TestMatches(t *testing.T) {
	assert.True(t, idftab.Matches(textproc.FullConfig(language.English)))
	full := textproc.FullConfig(language.Turkish)
	full.PrefixLen = 0
	assert.True(t, idftab.Matches(full))
	full.PrefixLen = 6
	assert.False(t, idftab.Matches(full))
	keep := textproc.FullConfig(language.English)
	keep.RemoveStopwords = false
	assert.False(t, idftab.Matches(keep))
	assert.False(t, idftab.Matches(textproc.FullConfig(language.German)))
}

// TestReproducible rebuilds every table from the shared data and checks it
// is byte for byte the embedded one (the generator has been rerun after any
// change of the analyzer).
func TestReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("slow under -short")
	}
	for _, src := range idftab.Sources {
		var texts []string
		for _, f := range src.Files {
			texts = append(texts, dataset.Texts(dataset.ForTest(t, f))...)
		}
		tag := language.MustParse(src.Language)
		b, err := idftab.Build(textproc.FullConfig(tag), texts, idftab.MinDF)
		require.NoError(t, err)
		idf, ok := idftab.For(tag)
		require.True(t, ok)
		want, err := idf.MarshalBinary()
		require.NoError(t, err)
		assert.Equal(t, want, b, "%s: embedded table differs from a rebuild: run go test ./internal/idftab -run TestGenerateTables -count=1 -args -update", src.Language)
	}
}

func TestBuildDropsRareTerms(t *testing.T) {
	cfg := textproc.FullConfig(language.English)
	texts := []string{"Copper prices rose.", "Copper prices fell sharply.", "Zinc output fell."}
	b, err := idftab.Build(cfg, texts, 2)
	require.NoError(t, err)
	idf := textproc.NewIDF(false)
	require.NoError(t, idf.UnmarshalBinary(b))
	full := textproc.BuildIDF(mustAnalyzer(t, cfg), texts, false)
	for _, term := range []string{"coppe", "price", "fell", "zinc", "outpu", "rose", "sharp"} {
		assert.InDelta(t, full.Weight(term), idf.Weight(term), 1e-12, term)
	}
	assert.Equal(t, int64(0), idf.DF("zinc"))
	assert.Equal(t, int64(2), idf.DF("coppe"))
	_, err = idftab.Build(textproc.Config{PrefixLen: -1}, texts, 2)
	assert.Error(t, err)
}

func mustAnalyzer(t *testing.T, cfg textproc.Config) *textproc.Analyzer {
	an, err := textproc.NewAnalyzer(cfg)
	require.NoError(t, err)
	return an
}

// TestEmbeddedTablesUnchanged pins the contents of the embedded tables:
// the xxh3 hash of their body (flags, N and every term with its document
// frequency, the bytes between the version byte and the checksum, which
// versions 1 and 2 of the binary form share) and some exact weights, as
// the tables were first built. Regenerating them in a new version of the
// format must keep every count, and so every weight.
func TestEmbeddedTablesUnchanged(t *testing.T) {
	for _, c := range []struct {
		tag     language.Tag
		body    uint64
		weights map[string]float64
	}{
		{language.English, 0xee1ff6901d72b56c, map[string]float64{
			"said": 0.21037744534265204, "coppe": 5.0596840961858, "istan": 7.567063601825859, "zzzzq": 9.964958874624228,
		}},
		{language.Turkish, 0x95d2c3dfc2f8b4c6, map[string]float64{
			"said": 6.579251212010101, "türki": 1.0427046567298137, "istan": 1.669541836503806, "ankar": 2.582887058148204, "zzzzq": 8.1886891244442,
		}},
	} {
		idf, ok := idftab.For(c.tag)
		require.True(t, ok, c.tag)
		b, err := idf.MarshalBinary()
		require.NoError(t, err)
		assert.Equal(t, c.body, xxh3.Hash(b[len("NDIDF\x02"):len(b)-8]), "%s: body of the table", c.tag)
		for w, want := range c.weights {
			assert.Equal(t, want, idf.Weight(w), "%s: Weight(%q)", c.tag, w)
		}
	}
}
