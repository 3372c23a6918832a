package codet

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/synth"
)

// TestNearestCopy checks the path Nearest takes when the eviction of a
// full window would compact the index (a private copy evicts and ranks):
// it changes nothing, lists what the same path of Query reports with
// Query's scores, and ranks as the path without the copy does.
func TestNearestCopy(t *testing.T) {
	docs := synth.Docs(60, synth.Config{Seed: 4, VariantRate: 0.7, Vocabulary: 1500})
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
			d.mu.Lock()
			ms, err := d.nearestCopy(doc.Text, 50)
			require.NoError(t, err)
			q, err := d.queryCopy(detector.Doc{Text: doc.Text}, noGroup)
			require.NoError(t, err)
			d.mu.Unlock()
			require.Equal(t, before, encode(t, d), "nearestCopy changed the snapshot")
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
