package simhash

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
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
			var last detector.Doc
			for step, o := range ops {
				if last.ID != "" {
					_, err := probed.Query(last)
					require.NoError(t, err)
				}
				_, err := probed.Query(detector.Doc{Text: texts[step%len(texts)]})
				require.NoError(t, err)
				if o.remove {
					require.NoError(t, plain.Remove(o.id))
					require.NoError(t, probed.Remove(o.id))
					continue
				}
				doc := detector.Doc{ID: o.id, Text: o.text}
				q, err := probed.Query(doc)
				require.NoError(t, err)
				anon, err := probed.Query(detector.Doc{Text: o.text})
				require.NoError(t, err)
				a, err := probed.Add(doc)
				require.NoError(t, err)
				require.Equal(t, a, q, "step %d: Query agrees with the Add after it", step)
				require.Equal(t, a, anon, "step %d: Query with an empty ID agrees with the Add after it", step)
				p, err := plain.Add(doc)
				require.NoError(t, err)
				require.Equal(t, p, a, "step %d: Queries changed a later Add", step)
				require.Equal(t, plain.Len(), probed.Len())
				last = doc
			}
			if plain.turns != nil {
				require.Equal(t, plain.IDF().N(), probed.IDF().N())
				require.Equal(t, plain.IDF().Fingerprint(), probed.IDF().Fingerprint(), "Queries counted nothing")
			}
			require.Equal(t, encode(t, plain), encode(t, probed), "the snapshots after the stream")
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

func TestQueryErrors(t *testing.T) {
	d, err := New(Config{MaxTextBytes: 10})
	require.NoError(t, err)
	_, err = d.Query(detector.Doc{Text: strings.Repeat("x", 11)})
	require.ErrorIs(t, err, detector.ErrTooLarge)
	ms, err := d.Query(detector.Doc{})
	require.NoError(t, err)
	assert.NotNil(t, ms)
	assert.Empty(t, ms)
	_, err = d.Copies("nope")
	require.ErrorIs(t, err, detector.ErrUnknownID)
	_, err = New(Config{MaxResults: -1})
	require.ErrorIs(t, err, detector.ErrInvalidConfig)
	assert.Contains(t, err.Error(), "MaxResults (-1)")
	require.NoError(t, d.Close())
	_, err = d.Query(detector.Doc{Text: "x"})
	require.ErrorIs(t, err, detector.ErrClosed)
	_, err = d.Copies("x")
	require.ErrorIs(t, err, detector.ErrClosed)
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
	probe := func(ms []detector.Match) {
		for _, m := range ms {
			if strings.HasPrefix(m.ID, "probe") {
				t.Errorf("a Query's document %s was reported", m.ID)
			}
		}
	}
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() {
			for i, text := range texts {
				ms, err := d.Add(detector.Doc{ID: fmt.Sprintf("g%d-%d", g, i), Text: text})
				if err != nil {
					t.Error(err)
					return
				}
				probe(ms)
			}
		})
	}
	for q := range 2 {
		wg.Go(func() {
			for i, text := range texts {
				ms, err := d.Query(detector.Doc{ID: fmt.Sprintf("probe%d-%d", q, i), Text: text})
				if err != nil {
					t.Error(err)
					return
				}
				probe(ms)
			}
		})
	}
	wg.Wait()
	require.Equal(t, 2*len(texts), d.Len())
	want, err := New(cfg)
	require.NoError(t, err)
	for g := range 2 {
		for i, text := range texts {
			_, err := want.Add(detector.Doc{ID: fmt.Sprintf("g%d-%d", g, i), Text: text})
			require.NoError(t, err)
		}
	}
	assert.Equal(t, want.IDF().Fingerprint(), d.IDF().Fingerprint(), "the table counts the added documents only")
}
