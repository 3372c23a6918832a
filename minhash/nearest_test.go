package minhash

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// madeUpWords returns n distinct made-up words drawn by r.
func madeUpWords(r *rand.Rand, n int) []string {
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		w := fmt.Sprintf("w%x", r.Uint32())
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// bandCandidates returns the IDs of the live documents that share band
// keys with text where Query looks (d.minHit keys of the one table in
// Jaccard mode; one key at the level Query probes for the document's size
// partition in Containment mode), verified or not.
func bandCandidates(t *testing.T, d *Detector, text string) map[string]bool {
	t.Helper()
	require.False(t, d.a.online)
	r := newReference(d)
	q := r.sign(text)
	out := map[string]bool{}
	for _, id := range liveIDs(t, d) {
		require.NoError(t, d.e.Group("test", id, func(f *sketch) {
			if f != nil && q.size > 0 && f.sig != nil && r.candidate(q, &refDoc{sig: f.sig, size: int(f.size)}) {
				out[id] = true
			}
		}))
	}
	return out
}

// liveIDs returns the IDs of the live documents of d, from its snapshot.
func liveIDs(t *testing.T, d *Detector) []string {
	t.Helper()
	secs, _, err := d.e.SectionList()
	require.NoError(t, err)
	var ids []string
	dec := snapshot.NewDec(secs[0])
	for range dec.Len(3, 0) {
		d.a.DecodeGroup(dec)
		for range dec.Len(2, 0) {
			ids = append(ids, dec.String())
		}
	}
	require.NoError(t, dec.Err())
	return append(ids, snapshot.NewDec(secs[1]).IDs(0)...)
}

func ids(ms []detector.Match) map[string]float64 {
	out := map[string]float64{}
	for _, m := range ms {
		out[m.ID] = m.Score
	}
	return out
}

// TestNearestWidensJaccard stores a near-copy A of a text Q and a
// near-copy B of A that shares no band key with Q under a narrow banding
// (4 bands of 8 rows): Query cannot see B, however similar, and Nearest
// reaches it through A's band keys, with B's estimate as its score.
func TestNearestWidensJaccard(t *testing.T) {
	cfg := Config{Shingle: 1, Bands: 4, Rows: 8, MaxResults: 10}
	tried := 0
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 34))
		base, extra := madeUpWords(r, 200), madeUpWords(r, 40)
		q := strings.Join(base, " ")
		a := strings.Join(append(append([]string{}, base[:180]...), extra[:20]...), " ")
		b := strings.Join(append(append([]string{}, base[20:180]...), extra...), " ")
		d := mustNew(t, cfg, nil)
		_, err := d.Add(detector.Doc{ID: "a", Text: a})
		require.NoError(t, err)
		_, err = d.Add(detector.Doc{ID: "b", Text: b})
		require.NoError(t, err)
		cands := bandCandidates(t, d, q)
		if !cands["a"] || cands["b"] || !bandCandidates(t, d, a)["b"] {
			continue // B shares a band with Q, or A shares none with Q or B: not the case under test
		}
		tried++
		qs, err := d.Query(detector.Doc{Text: q})
		require.NoError(t, err)
		assert.NotContains(t, ids(qs), "b", "seed %d: Query sees B without a shared band", seed)
		ms, err := d.Nearest(q, 5)
		require.NoError(t, err)
		got := ids(ms)
		require.Contains(t, got, "a", "seed %d", seed)
		require.Contains(t, got, "b", "seed %d: widening through A's bands", seed)
		assert.Greater(t, got["b"], 0.4, "seed %d: B's estimate against Q (true Jaccard 160/240)", seed)
		if tried == 5 {
			break
		}
	}
	require.Equal(t, 5, tried, "too few seeds where B shares no band with Q")
}

// TestNearestWidensContainment stores a document C that holds a third of
// a text Q among three times as many words of its own: the level Query
// probes for C's size partition at threshold 0.8 misses it, and Nearest's
// descent to fewer rows per band finds it, scored by the containment
// estimate.
func TestNearestWidensContainment(t *testing.T) {
	cfg := Config{Mode: Containment, Shingle: 1, Threshold: 0.8, MaxResults: 10}
	tried := 0
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 35))
		base, other := madeUpWords(r, 150), madeUpWords(r, 600)
		q := strings.Join(base, " ")
		c := strings.Join(append(append([]string{}, base[:50]...), other...), " ")
		d := mustNew(t, cfg, nil)
		_, err := d.Add(detector.Doc{ID: "c", Text: c})
		require.NoError(t, err)
		if bandCandidates(t, d, q)["c"] {
			continue
		}
		tried++
		ms, err := d.Nearest(q, 3)
		require.NoError(t, err)
		got := ids(ms)
		require.Contains(t, got, "c", "seed %d: descent to one row per band", seed)
		assert.InDelta(t, 1.0/3, got["c"], 0.2, "seed %d: containment estimate", seed)
		if tried == 5 {
			break
		}
	}
	require.Equal(t, 5, tried, "too few seeds where Query's level misses C")
}

// TestNearestMatchesQuery checks, in every mode, over a stream with
// near-duplicates and exact copies, that Nearest with k = MaxResults
// reports every document Query reports with Query's score, and only
// documents with a positive score.
func TestNearestMatchesQuery(t *testing.T) {
	texts := streamTexts(80, 9)
	stats, err := NewStats(Config{Mode: Weighted})
	require.NoError(t, err)
	for _, text := range texts[:30] {
		stats.AddDocument(text)
	}
	for _, tc := range referenceConfigs(stats) {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.MaxResults = 1000
			d := mustNew(t, cfg, tc.stats)
			for i, text := range texts {
				_, err := d.Add(detector.Doc{ID: fmt.Sprint("d", i), Text: text})
				require.NoError(t, err)
				if i%3 == 0 { // exact copies
					_, err := d.Add(detector.Doc{ID: fmt.Sprint("c", i), Text: text})
					require.NoError(t, err)
				}
			}
			reported := 0
			for i := 0; i < len(texts); i += 2 {
				qs, err := d.Query(detector.Doc{Text: texts[i]})
				require.NoError(t, err)
				ms, err := d.Nearest(texts[i], cfg.MaxResults)
				require.NoError(t, err)
				got := ids(ms)
				assert.Len(t, got, len(ms), "no ID twice")
				for _, m := range qs {
					reported++
					if assert.Contains(t, got, m.ID, "text %d", i) {
						assert.Equal(t, m.Score, got[m.ID], "text %d: %s's score", i, m.ID)
					}
				}
				for _, m := range ms {
					assert.Positive(t, m.Score, "text %d: %s without evidence", i, m.ID)
				}
			}
			assert.Positive(t, reported, "Query reported nothing: the case is empty")
		})
	}
}

// TestNearestChangesNothing runs one stream on two detectors, one of
// which ranks every text before adding it and a text unlike any after:
// their Add answers, online statistics and snapshots stay equal.
func TestNearestChangesNothing(t *testing.T) {
	texts := streamTexts(60, 10)
	for _, cfg := range []Config{{}, {Mode: Weighted}, {Mode: Containment}} {
		t.Run(fmt.Sprint(cfg.Mode), func(t *testing.T) {
			plain, ranked := mustNew(t, cfg, nil), mustNew(t, cfg, nil)
			for i, text := range texts {
				_, err := ranked.Nearest(text, 5)
				require.NoError(t, err)
				doc := detector.Doc{ID: fmt.Sprint("d", i), Text: text}
				want, err := plain.Add(doc)
				require.NoError(t, err)
				got, err := ranked.Add(doc)
				require.NoError(t, err)
				require.Equal(t, want, got, "Add %d", i)
				_, err = ranked.Nearest("an unrelated text about nothing in the stream at all", 3)
				require.NoError(t, err)
			}
			if plain.a.online {
				assert.Equal(t, plain.liveStats().fingerprint(), ranked.liveStats().fingerprint(), "the online statistics")
				assert.Equal(t, plain.liveStats().N(), ranked.liveStats().N())
			}
			assert.Equal(t, encode(t, plain), encode(t, ranked), "snapshots")
		})
	}
}

func TestNearestErrors(t *testing.T) {
	for _, mode := range []Mode{Jaccard, Weighted, Containment} {
		d, err := New(Config{Mode: mode, MaxTextBytes: 10})
		require.NoError(t, err)
		for _, k := range []int{0, -1} {
			_, err = d.Nearest("x", k)
			require.ErrorIs(t, err, detector.ErrInvalidConfig)
		}
		_, err = d.Nearest(strings.Repeat("x", 11), 1)
		require.ErrorIs(t, err, detector.ErrTooLarge)
		ms, err := d.Nearest("", 3)
		require.NoError(t, err)
		assert.NotNil(t, ms)
		assert.Empty(t, ms)
		require.NoError(t, d.Close())
		_, err = d.Nearest("x", 1)
		require.ErrorIs(t, err, detector.ErrClosed)
	}
}
