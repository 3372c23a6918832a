package shingle

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
)

// TestSpotResolveThenFree resolves a SpotSigs text's signature IDs
// (Prepare), then, before the text is inserted, removes the documents
// holding them, freeing the IDs, and adds others that take the freed IDs
// for other signatures: Insert must not use the stale IDs, and must leave
// the index as an Insert of features never prepared does.
func TestSpotResolveThenFree(t *testing.T) {
	cfg := Config{Method: SpotSigs, Language: "und", Antecedents: "ro,mi,tan,le"}
	docs := dataset.SynthDocs(60, dataset.SynthConfig{Seed: 8, VariantRate: 0.7, Recent: 3})
	d, err := New(cfg)
	require.NoError(t, err)
	seq, err := New(cfg)
	require.NoError(t, err)
	for _, doc := range docs[:40] {
		_, err := d.Add(doc)
		require.NoError(t, err)
		_, err = seq.Add(doc)
		require.NoError(t, err)
	}
	x, y := testIndex(d).(*spotIndex), testIndex(seq).(*spotIndex)
	alg := testAlgorithm(d.cfg)
	// Text: a variant of document 39's story, sharing its signatures.
	text := docs[39].Text + " " + docs[38].Text
	a, b := alg.Features(text), alg.Features(text)
	d.e.Inspect(func(engine.Index[features], int) { x.Prepare(&a) })
	found := 0
	for _, s := range a.sids {
		if s != noSig {
			found++
		}
	}
	require.Positive(t, found)
	require.NotNil(t, x.prepared(&a), "fresh IDs are used")
	for _, z := range []*Detector{d, seq} {
		for _, old := range docs[30:40] {
			require.NoError(t, z.Remove(old.ID))
		}
		for _, nw := range docs[40:] {
			_, err := z.Add(nw)
			require.NoError(t, err)
		}
	}
	require.NotEqual(t, a.sidsAt, x.frees, "signature IDs were freed")
	require.Nil(t, x.prepared(&a), "stale IDs are not used")
	const g = 1 << 10 // a group number no document holds
	x.Insert(g, &a)
	y.Insert(g, &b)
	multiset := func(x *spotIndex) ([]uint64, []uint32, spotDoc) {
		d := x.docs[g]
		var hs []uint64
		var cs []uint32
		for i, s := range d.sigs {
			hs = append(hs, x.hash[s])
			cs = append(cs, d.cnt[i])
		}
		return hs, cs, spotDoc{band: d.band, above: d.above, counted: d.counted}
	}
	xh, xc, xd := multiset(x)
	yh, yc, yd := multiset(y)
	require.True(t, xd.counted)
	require.ElementsMatch(t, yh, xh)
	require.Equal(t, len(yc), len(xc))
	require.Equal(t, yd, xd)
	require.Equal(t, y.n, x.n)
	for i, h := range xh {
		k := slices.Index(yh, h)
		require.Equal(t, yc[k], xc[i], "count of %#x", h)
	}
}

// testAlgorithm returns the algorithm of a detector of the effective
// Config cfg, to compute features outside a detector.
func testAlgorithm(cfg Config) *algorithm {
	alg := &algorithm{cfg: cfg}
	alg.ex.New = func() (*extractor, error) { return newExtractor(cfg) }
	return alg
}

// testIndex returns d's index.
func testIndex(d *Detector) engine.Index[features] {
	var x engine.Index[features]
	d.e.Inspect(func(ix engine.Index[features], _ int) { x = ix })
	return x
}
