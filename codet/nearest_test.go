package codet_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// A source story, a text derived from it (one sentence reworded, one
// copied, one new) and a story on the same topic written apart, which
// shares words with the source but no sentence.

const (
	rankSource = "The city council approved a new budget for the public library on Tuesday. " +
		"The plan adds funding for evening hours and hires four librarians. " +
		"Council member Rivera said the vote ended months of debate over branch closures. " +
		"The library director thanked residents who packed the meeting to speak."
	rankDerived = "On Tuesday the city council approved a new budget for the public library. " +
		"The plan adds funding for evening hours and hires four librarians. " +
		"Residents cheered when the result was read out."
	rankTopic = "Four librarians were hired by the public library last spring. " +
		"The library budget funds evening hours at every branch, the director said. " +
		"Rivera said residents wanted their branch kept open."
)

func nearest(t *testing.T, d *codet.Detector, text string, k int) []detector.Match {
	t.Helper()
	ms, err := d.Nearest(text, k)
	require.NoError(t, err, "Nearest(%.30q, %d)", text, k)
	return ms
}

func query(t *testing.T, d *codet.Detector, text string) []detector.Match {
	t.Helper()
	ms, err := d.Query(detector.Doc{Text: text})
	require.NoError(t, err, "Query(%.30q)", text)
	return ms
}

// TestNearestSourceAboveTopic: the derived text finds its source first,
// at the score Query gives it, and the story on the same topic below it,
// ranked although Query does not report it.
func TestNearestSourceAboveTopic(t *testing.T) {
	d := mustNew(t, codet.Config{Language: "en"})
	add(t, d, "source", rankSource)
	add(t, d, "topic", rankTopic)
	q := query(t, d, rankDerived)
	require.Equal(t, []string{"source"}, ids(q), "Query")
	ms := nearest(t, d, rankDerived, 10)
	require.Equal(t, []string{"source", "topic"}, ids(ms))
	assert.Equal(t, q[0], ms[0], "the source's score is Query's")
	assert.Greater(t, ms[1].Score, 0.0)
	assert.Less(t, ms[1].Score, codet.DefaultETL, "the topic shares a little, under ETL")
	assert.Equal(t, ms[:1], nearest(t, d, rankDerived, 1), "k = 1")
}

// TestNearestBelowThreshold: a text that holds one sentence of a stored
// story among many of its own is contained in it well under ETL: Query
// reports nothing, Nearest ranks the story with CS/SCS of the text.
func TestNearestBelowThreshold(t *testing.T) {
	d := mustNew(t, codet.Config{Language: "en"})
	add(t, d, "source", rankSource)
	add(t, d, "other", "Heavy snow closed the mountain pass for a second day. Drivers were told to wait in the valley towns.")
	text := "The plan adds funding for evening hours and hires four librarians. " +
		"Farmers in the northern valley expect a record harvest of apples this autumn. " +
		"Exporters have signed contracts with buyers in three new markets. " +
		"Prices at the wholesale market fell for the fourth week in a row. " +
		"The weather service forecasts a dry and mild October across the region. " +
		"Transport costs rose after the rail operator raised its freight tariffs. " +
		"Orchard owners complained about a shortage of seasonal pickers. " +
		"A cooperative near the lake bought two refrigerated warehouses. " +
		"Cider makers plan a festival in the old granary next month. " +
		"Beekeepers reported healthy hives after the wet spring."
	assert.Empty(t, query(t, d, text), "Query")
	ms := nearest(t, d, text, 5)
	require.Equal(t, []string{"source"}, ids(ms), "the mountain story shares nothing")
	assert.Greater(t, ms[0].Score, 0.0)
	assert.LessOrEqual(t, ms[0].Score, codet.DefaultETL)
	// The very sentence, alone, is found whole in the source.
	ms = nearest(t, d, "The plan adds funding for evening hours and hires four librarians.", 5)
	require.Equal(t, []string{"source"}, ids(ms))
	assert.InDelta(t, 1, ms[0].Score, 1e-12)
}

// TestNearestCopiesAndCaps: the members of a group of exact copies fill
// several places in ID order at score 1, and the result is capped by k
// and by Config.MaxResults; k ≤ 0, an oversize text and a closed detector
// fail with the package's errors.
func TestNearestCopiesAndCaps(t *testing.T) {
	d := mustNew(t, codet.Config{Language: "en", MaxResults: 3})
	for _, id := range []string{"c", "a", "b", "d"} {
		add(t, d, id, rankSource)
	}
	add(t, d, "topic", rankTopic)
	ms := nearest(t, d, rankSource, 10)
	assert.Equal(t, []detector.Match{{ID: "a", Score: 1}, {ID: "b", Score: 1}, {ID: "c", Score: 1}}, ms, "capped at MaxResults")
	assert.Equal(t, []string{"a", "b"}, ids(nearest(t, d, rankSource, 2)), "capped at k")
	assert.Equal(t, []string{"a", "b", "c"}, ids(query(t, d, rankSource)))
	for _, k := range []int{0, -3} {
		_, err := d.Nearest(rankSource, k)
		assert.ErrorIs(t, err, detector.ErrInvalidConfig, "k = %d", k)
	}
	_, err := d.Nearest(strings.Repeat("x", detector.DefaultMaxTextBytes+1), 1)
	assert.ErrorIs(t, err, detector.ErrTooLarge)
	assert.Empty(t, nearest(t, d, "!!! ... ???", 5), "no terms")
	require.NoError(t, d.Close())
	_, err = d.Nearest(rankSource, 1)
	assert.ErrorIs(t, err, detector.ErrClosed)
}

// TestNearestPairwise: in ModePairwise a container whose sentences share
// prefixes with several of the text's has CS above the text's SCS
// (Eq. 3.1 sums over every sentence pair), and Nearest, which gives
// Query's scores, ranks it above the text's exact copy (the reason the
// conformance suite's Rank checks are not run on that configuration).
func TestNearestPairwise(t *testing.T) {
	d := mustNew(t, codet.Config{Language: "en", Mode: codet.ModePairwise, Collapse: codet.CollapseOff})
	add(t, d, "copy", rankSource)
	add(t, d, "twice", rankSource+" "+rankSource)
	ms := nearest(t, d, rankSource, 5)
	require.Equal(t, []string{"twice", "copy"}, ids(ms))
	assert.Greater(t, ms[0].Score, 1.0)
	assert.InDelta(t, 1, ms[1].Score, 1e-9)
	assert.Equal(t, query(t, d, rankSource), ms, "Query's scores")
}

// TestNearestChangesNothing looks every document of a stream up before
// adding it, in the configurations of TestQueryChangesNothing: Nearest
// lists every document Query reports with Query's score, in
// detector.SortMatches order with no ID twice, and the snapshot and Stats
// are the same before and after it.
func TestNearestChangesNothing(t *testing.T) {
	docs := dataset.SynthDocs(120, dataset.SynthConfig{Seed: 11, VariantRate: 0.6, Vocabulary: 2500})
	for _, cfg := range []codet.Config{
		{Language: "en"},
		{Language: "en", IDF: codet.IDFOnline},
		{Language: "en", IDF: codet.IDFOnline, Collapse: codet.CollapseNear},
		{Language: "en", Collapse: codet.CollapseOff, Mode: codet.ModePairwise, ETL: 0.3},
		{Language: "en", IDF: codet.IDFOnline, Window: 20, NodeLimit: 3},
		{Language: "en", Collapse: codet.CollapseNear, Window: 15},
		{Language: "en", Collapse: codet.CollapseOff, Window: 9, MaxResults: 3},
		{Language: "en", NodeLimit: 4, SuffixCount: 3},
	} {
		t.Run(fmt.Sprintf("%+v", cfg), func(t *testing.T) {
			d := mustNew(t, cfg)
			ranked := 0
			for i, doc := range docs {
				if i%5 == 4 { // an exact copy
					doc.Text = docs[i/2].Text
				}
				before, st := snapshotOf(t, d), d.Stats()
				q := query(t, d, doc.Text)
				ms := nearest(t, d, doc.Text, d.Len()+1)
				require.Equal(t, before, snapshotOf(t, d), "Nearest(%s) changed the snapshot", doc.ID)
				require.Equal(t, st, d.Stats(), "Nearest(%s) changed Stats", doc.ID)
				require.True(t, inOrder(ms), "Nearest(%s) = %v", doc.ID, ms)
				score := map[string]float64{}
				for _, m := range ms {
					_, twice := score[m.ID]
					require.False(t, twice, "Nearest(%s) lists %s twice", doc.ID, m.ID)
					score[m.ID] = m.Score
				}
				if len(q) < cfg.MaxResults || cfg.MaxResults == 0 {
					for _, m := range q {
						sc, ok := score[m.ID]
						require.True(t, ok && sc == m.Score, "Query(%s) reports %v; Nearest = %v", doc.ID, m, ms)
					}
				} else { // a capped Query: Nearest's best are Query's
					require.Equal(t, q, ms[:len(q)], "Nearest(%s)", doc.ID)
				}
				ranked += len(ms) - len(q)
				add(t, d, doc.ID, doc.Text)
			}
			assert.Positive(t, ranked, "Nearest ranked nothing Query does not report")
		})
	}
}

func inOrder(ms []detector.Match) bool {
	for i := 1; i < len(ms); i++ {
		a, b := ms[i-1], ms[i]
		if a.Score < b.Score || a.Score == b.Score && a.ID >= b.ID {
			return false
		}
	}
	return true
}

// TestNearestConcurrent ranks while other goroutines add, with online
// weights: no call fails, results are ordered, and nothing ranked is a
// text that was only looked up (run it under -race).
func TestNearestConcurrent(t *testing.T) {
	docs := dataset.SynthDocs(60, dataset.SynthConfig{Seed: 12, VariantRate: 0.7, Vocabulary: 1500})
	d := mustNew(t, codet.Config{Language: "en", IDF: codet.IDFOnline})
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() {
			for _, doc := range docs {
				if _, err := d.Add(detector.Doc{ID: fmt.Sprintf("a%d-%s", g, doc.ID), Text: doc.Text}); err != nil {
					t.Error(err)
				}
			}
		})
		wg.Go(func() {
			for _, doc := range docs {
				ms, err := d.Nearest(doc.Text, 5)
				if err != nil {
					t.Error(err)
				}
				if len(ms) > 5 || !inOrder(ms) {
					t.Errorf("Nearest = %v", ms)
				}
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 2*len(docs), d.Len())
}
