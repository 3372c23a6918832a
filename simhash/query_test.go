package simhash

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// TestQueryChangesNothing runs one stream on two detectors, one of which
// answers Queries before every step (of the next document, of a live
// document's text under its own ID, of another text with an empty ID):
// each Query of the next document must equal the Add that follows, and the
// two detectors must give the same answers, lengths, online tables and
// snapshots throughout.
func TestQueryChangesNothing(t *testing.T) {
	texts := synthTexts(80)
	ops := floodStream(texts, 5, 10)
	for _, b := range append(builds(texts), build{"Unfrozen", func(t testing.TB, cfg Config) *Detector {
		return withTable(t, cfg, texts, false)
	}}) {
		t.Run(b.name, func(t *testing.T) {
			cfg := Config{Language: "en", MaxResults: 4}
			plain, probed := b.new(t, cfg), b.new(t, cfg)
			testkit.QueryChangesNothing(t, plain, probed, ops, func(step int) string { return texts[step%len(texts)] }, true)
			if plain.own {
				require.Equal(t, plain.IDF().N(), probed.IDF().N())
				require.Equal(t, plain.IDF().Fingerprint(), probed.IDF().Fingerprint(), "Queries counted nothing")
			}
		})
	}
}

// TestQueryWeightsMatchTable checks ownWeight, the weight Query gives a
// term of a document not yet counted, against the table after counting it.
func TestQueryWeightsMatchTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	idf := textproc.NewIDF(true)
	for range 300 {
		var doc []string
		for range 1 + rng.IntN(30) {
			doc = append(doc, fmt.Sprint("w", rng.IntN(200)))
		}
		n, dfs := idf.N(), map[string]int64{}
		for _, w := range doc {
			dfs[w] = idf.DF(w)
		}
		require.NoError(t, idf.AddDocument(doc))
		for w, df := range dfs {
			require.Equal(t, idf.Weight(w), ownWeight(n+1, df+1), "%s", w)
		}
	}
}

// The lookup errors every name shares are the root suite's
// (TestEveryNameLookupErrors); a negative MaxResults is refused by name.
func TestMaxResultsRefused(t *testing.T) {
	_, err := New(Config{MaxResults: -1})
	require.ErrorIs(t, err, detector.ErrInvalidConfig)
	assert.Contains(t, err.Error(), "MaxResults (-1)")
}

// TestConcurrentQueryAdd queries copies of the texts being added from
// other goroutines, under IDs no Add uses: no Query may ever be seen by an
// Add or another Query, and the online table counts the added documents
// only (its counts do not depend on the order of the Adds).
func TestConcurrentQueryAdd(t *testing.T) {
	texts := synthTexts(40)
	cfg := Config{Language: "en", MaxResults: 1000}
	d, err := New(cfg)
	require.NoError(t, err)
	want, err := New(cfg)
	require.NoError(t, err)
	// Containers depend on the order of the Adds (the table weighs each
	// document as it was then); the counts do not.
	testkit.ConcurrentQueryAdd(t, d, want, texts, false)
	require.Equal(t, 2*len(texts), d.Len())
	assert.Equal(t, want.IDF().Fingerprint(), d.IDF().Fingerprint(), "the table counts the added documents only")
}
