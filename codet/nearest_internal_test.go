package codet

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// TestNearestCopy checks the path Nearest takes when the eviction of a
// full window would compact the index (a private copy evicts and ranks):
// it changes nothing, lists what the same path of Query reports with
// Query's scores, and ranks as the path without the copy does.
func TestNearestCopy(t *testing.T) {
	docs := dataset.SynthDocs(60, dataset.SynthConfig{Seed: 4, VariantRate: 0.7, Vocabulary: 1500})
	for _, cfg := range []Config{
		{Language: "en", Window: 10},
		{Language: "en", Window: 7, IDF: IDFOnline, Collapse: CollapseNear},
	} {
		d := build(t, cfg, nil)
		ranked := 0
		for i, doc := range docs {
			if i%4 == 3 {
				doc.Text = docs[i/2].Text
			}
			before := encode(t, d)
			d.ix().copyLookups = true
			ms, err := d.Nearest(doc.Text, 50)
			require.NoError(t, err)
			q, err := d.Query(detector.Doc{Text: doc.Text})
			require.NoError(t, err)
			d.ix().copyLookups = false
			require.Equal(t, before, encode(t, d), "the copy changed the snapshot")
			score := map[string]float64{}
			for _, m := range ms {
				score[m.ID] = m.Score
			}
			for _, m := range q {
				sc, ok := score[m.ID]
				require.True(t, ok && sc == m.Score, "Query reports %v; Nearest = %v", m, ms)
			}
			direct, err := d.Nearest(doc.Text, 50)
			require.NoError(t, err)
			require.Equal(t, direct, ms, "Nearest with and without the copy")
			ranked += len(ms) - len(q)
			_, err = d.Add(doc)
			require.NoError(t, err)
		}
		require.Positive(t, ranked, "%+v: nothing ranked beyond Query's", cfg)
	}
}

// TestNearestSetAside: on a stream whose common words make long visitor
// lists, which the probe sets aside, Nearest at k of 1, 5 and 40 answers
// what it answers with every list scanned (scanAll), to the last bit,
// and both of its ways of completing the scores are taken.
func TestNearestSetAside(t *testing.T) {
	docs := dataset.SynthDocs(400, dataset.SynthConfig{Seed: 21, VariantRate: 0.5, Vocabulary: 600})
	d := build(t, Config{Language: "en"}, nil)
	for i, doc := range docs {
		if i >= 150 && i%5 == 0 {
			for _, k := range []int{1, 5, 40} {
				got, err := d.Nearest(doc.Text, k)
				require.NoError(t, err)
				d.locked(func(x *index) { x.scanAll = true })
				want, err := d.Nearest(doc.Text, k)
				require.NoError(t, err)
				d.locked(func(x *index) { x.scanAll = false })
				require.Equal(t, want, got, "Nearest(%s's text, %d)", doc.ID, k)
			}
		}
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	w := d.ix().work
	t.Logf("aside %d entries; Nearest calls bounded %d, rescanned %d", w.aside, w.rankBound, w.rankAll)
	require.Positive(t, w.rankBound, "no Nearest left lists set aside")
	require.Positive(t, w.rankAll, "no Nearest scanned every list again")
}
