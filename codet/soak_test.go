package codet_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// soakAdds returns the number of Adds of a soak (210,000 with
// NEARDUP_LONG=1, N with NEARDUP_LONG=N), or skips.
func soakAdds(t *testing.T) int {
	t.Helper()
	dataset.SkipSoak(t)
	return dataset.LongCount(210_000)
}

// TestSoakWindow streams documents with three tokens no other document
// has through a window of 10,000 kept with Remove, and requires the live
// heap to stay flat after a warm-up of 100,000 Adds: terms, tree nodes and
// the arrival queue of removed documents are given back. Run it with
// NEARDUP_LONG=1 (210,000 Adds) or NEARDUP_LONG=1000000.
func TestSoakWindow(t *testing.T) {
	n := soakAdds(t)
	for name, cfg := range map[string]codet.Config{
		"reference": {Language: "en"},
		"online":    {Language: "en", IDF: codet.IDFOnline},
	} {
		t.Run(name, func(t *testing.T) {
			d := mustNew(t, cfg)
			s, err := testkit.Soak(d, testkit.SoakConfig{Adds: n, Window: 10000, Every: 100000})
			require.NoError(t, err)
			for _, x := range s {
				t.Logf("%s: %7d Adds: live heap %.1f MB", name, x.Adds, float64(x.HeapBytes)/1e6)
			}
			t.Logf("%s: %+v", name, d.Stats())
			// Flat after a warm-up of 100,000 Adds (the online table and the
			// maps reach their sizes); compaction and worker renewal make a
			// sawtooth of a few MB (38-40 MB over 70,000 Adds sampled every
			// 5,000, frozen weights).
			require.GreaterOrEqual(t, len(s), 3, "NEARDUP_LONG must be 1 or at least 210000")
			assert.Less(t, testkit.Growth(s[1:]), uint64(4<<20), "%s: the live heap grows", name)
		})
	}
}

// hostile returns a text of about size bytes made of distinct tokens
// (distinct in their first five letters, which the stemmer keeps), in
// sentences of twelve words; texts of different seeds share none.
func hostile(seed, size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		n := seed*2_000_000 + i
		for k := range 5 {
			c := byte('a' + n%26)
			if k == 0 && i%12 == 0 {
				c -= 'a' - 'A' // sentences start with a capital
			}
			b.WriteByte(c)
			n /= 26
		}
		b.WriteString("ing")
		if i%12 == 11 {
			b.WriteString(". ")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// TestHostileGivenBack adds and removes three 20 MB documents of distinct
// tokens (about 1.4M each) and requires the live heap to come back within
// a few MB of where it was (the size limit raised for them). Run it with
// NEARDUP_LONG=1.
func TestHostileGivenBack(t *testing.T) {
	soakAdds(t)
	for name, cfg := range map[string]codet.Config{
		"reference": {Language: "en", MaxTextBytes: 32 << 20},
		"online":    {Language: "en", IDF: codet.IDFOnline, MaxTextBytes: 32 << 20},
	} {
		t.Run(name, func(t *testing.T) {
			d := mustNew(t, cfg)
			docs := soakDocs(2000)
			for _, doc := range docs {
				_, err := d.Add(doc)
				require.NoError(t, err)
			}
			base := testkit.LiveHeap()
			for k := range 3 {
				id := "hostile" + strconv.Itoa(k)
				_, err := d.Add(detector.Doc{ID: id, Text: hostile(k, 20<<20)})
				require.NoError(t, err)
				peak := testkit.LiveHeap()
				require.NoError(t, d.Remove(id))
				// One ordinary Add after the removal, as a stream goes on.
				_, err = d.Add(detector.Doc{ID: "after" + strconv.Itoa(k), Text: docs[k].Text})
				require.NoError(t, err)
				after := testkit.LiveHeap()
				t.Logf("%s: hostile %d: base %.1f MB, with it %.1f MB, after Remove %.1f MB",
					name, k+1, float64(base)/1e6, float64(peak)/1e6, float64(after)/1e6)
			}
			assert.Less(t, int64(testkit.LiveHeap())-int64(base), int64(8<<20), "%s: the heap of the hostile documents is kept", name)
		})
	}
}

func soakDocs(n int) []detector.Doc {
	out := make([]detector.Doc, n)
	for i := range out {
		out[i] = detector.Doc{ID: "s" + strconv.Itoa(i), Text: testkit.Unique(handMade[0].extra+" "+handMade[0].short, i)}
	}
	return out
}

// TestCompaction adds and removes documents of 30,000 distinct terms and
// checks that the vocabulary and the nodes are given back (compacted) and
// that the documents left keep their relations: exact and near copies of
// them are still found, with the spans Matched reports.
func TestCompaction(t *testing.T) {
	for _, cfg := range []codet.Config{
		{Language: "en"},
		{Language: "en", IDF: codet.IDFOnline},
		{Language: "en", Collapse: codet.CollapseNear},
	} {
		d := mustNew(t, cfg)
		docs := soakDocs(20)
		for _, doc := range docs {
			_, err := d.Add(doc)
			require.NoError(t, err)
		}
		before := d.Stats()
		for k := range 3 {
			id := "big" + strconv.Itoa(k)
			_, err := d.Add(detector.Doc{ID: id, Text: hostile(k, 640<<10)})
			require.NoError(t, err)
			big := d.Stats()
			require.Greater(t, big.Terms, before.Terms+20000, "the big document's terms are interned")
			require.NoError(t, d.Remove(id))
		}
		after := d.Stats()
		t.Logf("%s: terms %d → %d, nodes %d → %d", d.Weights(), before.Terms, after.Terms, before.Nodes, after.Nodes)
		assert.LessOrEqual(t, after.Terms, 2*before.Terms+20000, "%s: the terms of removed documents are forgotten", d.Weights())
		assert.Equal(t, before.Nodes, after.Nodes, "%s: nodes", d.Weights())
		for i, doc := range docs[:5] {
			ms, err := d.Add(detector.Doc{ID: "copy" + strconv.Itoa(i), Text: doc.Text})
			require.NoError(t, err)
			require.NotEmpty(t, ms, "%s: the exact copy of %s is not found after compaction", d.Weights(), doc.ID)
			assert.Contains(t, ids(ms), doc.ID)
			if d.Weights() == "online" {
				continue // the big documents' counts moved the weights
			}
			ms, err = d.Add(detector.Doc{ID: "near" + strconv.Itoa(i), Text: strings.Replace(doc.Text, "museum", "gallery", 1)})
			require.NoError(t, err)
			assert.Contains(t, ids(ms), doc.ID, "%s: the near copy of %s", d.Weights(), doc.ID)
			spans, err := d.Matched(doc.ID, "near"+strconv.Itoa(i))
			require.NoError(t, err)
			assert.NotEmpty(t, spans, "%s: Matched after compaction", d.Weights())
		}
	}
}
