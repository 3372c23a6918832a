package codet_test

import (
	"bytes"
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

func snapshotOf(t *testing.T, d *codet.Detector) []byte {
	t.Helper()
	var b bytes.Buffer
	_, err := d.WriteTo(&b)
	require.NoError(t, err)
	return b.Bytes()
}

// TestQueryChangesNothing queries every document of a stream before adding
// it, with online weights (which Add updates) and new terms (which Add
// interns), in every Collapse mode and with a full window: Query returns
// what the Add then returns, and the detector's snapshot and Stats are the
// same before and after the Query. Streams of 60 documents by default
// (three times the largest window), 120 with NEARDUP_LONG.
func TestQueryChangesNothing(t *testing.T) {
	docs := dataset.SynthDocs(dataset.LongSize(60, 120), dataset.SynthConfig{Seed: 11, VariantRate: 0.6, Vocabulary: 2500})
	for _, cfg := range []codet.Config{
		{Language: "en"},
		{Language: "en", IDF: codet.IDFOnline},
		{Language: "en", IDF: codet.IDFOnline, Collapse: codet.CollapseNear},
		{Language: "en", Collapse: codet.CollapseOff, Mode: codet.ModePairwise, ETL: 0.3},
		{Language: "en", IDF: codet.IDFOnline, Window: 20, NodeLimit: 3},
		{Language: "en", Collapse: codet.CollapseNear, Window: 15},
		{Language: "en", Collapse: codet.CollapseOff, Window: 9, MaxResults: 3},
	} {
		t.Run(fmt.Sprintf("%+v", cfg), func(t *testing.T) {
			d := mustNew(t, cfg)
			for i, doc := range docs {
				if i%5 == 4 { // an exact copy
					doc.Text = docs[i/2].Text
				}
				before, st := snapshotOf(t, d), d.Stats()
				q, err := d.Query(doc)
				require.NoError(t, err)
				anon, err := d.Query(detector.Doc{Text: doc.Text})
				require.NoError(t, err)
				require.Equal(t, q, anon, "Query with and without an ID")
				require.Equal(t, before, snapshotOf(t, d), "Query(%s) changed the snapshot", doc.ID)
				require.Equal(t, st, d.Stats(), "Query(%s) changed Stats", doc.ID)
				require.Equal(t, add(t, d, doc.ID, doc.Text), q, "Query then Add(%s)", doc.ID)
			}
		})
	}
}

// TestQueryLiveID: a live document of the queried ID is left out, and the
// cap is filled by the next one.
func TestQueryLiveID(t *testing.T) {
	text := "The storm cut power to forty thousand homes on the northern coast. Ferries to the islands were cancelled."
	d := mustNew(t, codet.Config{Language: "en", MaxResults: 2})
	for _, id := range []string{"a", "b", "c", "d"} {
		add(t, d, id, text)
	}
	ms, err := d.Query(detector.Doc{ID: "a", Text: text})
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "c"}, ids(ms))
	ms, err = d.Query(detector.Doc{Text: text})
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, ids(ms))
	_, err = d.Query(detector.Doc{Text: strings.Repeat("x", detector.DefaultMaxTextBytes+1)})
	require.ErrorIs(t, err, detector.ErrTooLarge)
	w := mustNew(t, codet.Config{Language: "en", MaxResults: 2, Window: 3})
	for _, id := range []string{"a", "b", "c"} {
		add(t, w, id, text)
	}
	// The window is full: Add would first drop "a".
	ms, err = w.Query(detector.Doc{ID: "b", Text: text})
	require.NoError(t, err)
	assert.Equal(t, []string{"c"}, ids(ms))
	assert.Equal(t, 3, w.Len())
}

// TestQueryConcurrent queries while other goroutines add, with online
// weights: no call fails and nothing queried is ever reported (run it
// under -race).
func TestQueryConcurrent(t *testing.T) {
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
				ms, err := d.Query(detector.Doc{ID: fmt.Sprintf("q%d-%s", g, doc.ID), Text: doc.Text})
				if err != nil {
					t.Error(err)
				}
				for _, m := range ms {
					if !strings.HasPrefix(m.ID, "a") {
						t.Errorf("Query reported %q", m.ID)
					}
				}
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 2*len(docs), d.Len())
	for _, doc := range docs {
		for g := range 2 {
			for _, m := range containers(t, d, fmt.Sprintf("a%d-%s", g, doc.ID)) {
				assert.True(t, strings.HasPrefix(m.ID, "a"), "%q reported", m.ID)
			}
		}
	}
}
