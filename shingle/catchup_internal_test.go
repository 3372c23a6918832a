package shingle

import (
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/synth"
)

// TestCatchUp runs the parts of an FFP or DSC Add apart: the posting
// lengths of a text's features, Adds, the search under the read lock,
// then many Adds (some containing the
// text), Removes (of groups the search found, whose numbers are then
// reused) and Adds left pending (registered, postings not yet published),
// then the exclusive turn's catchUp. Its hits must be those of a fresh
// search of the index as it now stands, pending groups included, both
// when the publications since the search fit in the log and when they
// overflow it.
func TestCatchUp(t *testing.T) {
	for _, cfg := range []Config{
		{Language: "und"},
		{Language: "und", Method: DSC},
		{Language: "und", Method: DSC, Sampling: SampleMin},
		{Language: "und", Method: DSC, SuperShingle: 2},
	} {
		for _, later := range []int{30, pubLogSize + 40} {
			t.Run(cfg.Method.String()+"/"+cfg.Sampling.String()+"/ss"+strconv.Itoa(cfg.SuperShingle)+"/"+strconv.Itoa(later), func(t *testing.T) {
				d, err := New(cfg)
				require.NoError(t, err)
				docs := synth.Docs(200+later, synth.Config{Seed: 5, VariantRate: 0.6, Recent: 5, MinSentences: 2, MaxSentences: 4})
				for _, doc := range docs[:200] {
					_, err := d.Add(doc)
					require.NoError(t, err)
				}
				// The text: document 199, which its exact copies and its
				// story's later variants contain.
				text := docs[199].Text
				a := d.analyse(text)
				require.NotZero(t, a.key)
				ix := d.ix
				q := &containQuery{}
				// As in Add: the stamp, then the posting lengths, then
				// (after more Adds) the search under the read lock.
				seen := ix.con.pubs
				ix.con.lengths(a.set, q)
				for _, doc := range docs[200 : 200+later/2] {
					_, err := d.Add(doc)
					require.NoError(t, err)
				}
				hits := ix.con.containers(a.set, a.super, a.size, noGroup, ix.gs.cap(), nil, q, true)
				require.NotEmpty(t, hits, "the search finds containers")
				// Remove half of the groups found, and others.
				for i, h := range hits {
					if i%2 == 0 {
						require.NoError(t, d.Remove(d.ix.docs.ID(ix.gs.at(h.Group))))
					}
				}
				for i := 150; i < 199; i += 3 {
					_ = d.Remove(docs[i].ID)
				}
				for _, doc := range docs[200+later/2:] {
					_, err := d.Add(doc)
					require.NoError(t, err)
				}
				// Two groups left pending: one with the text itself, one
				// with the text and more.
				var pending []uint32
				for i, tx := range []string{text, text + " " + docs[198].Text} {
					b := d.analyse(tx)
					idx, err := ix.docs.Add(detector.Doc{ID: "pending" + strconv.Itoa(i), Text: tx})
					require.NoError(t, err)
					g := ix.open(idx, &b)
					ix.con.reserve(g, b.set, b.size, b.super)
					ix.ready[g] = make(chan struct{})
					pending = append(pending, g)
				}
				got := ix.catchUp(&a, slices.Clone(hits), seen, q)
				want := ix.con.containers(a.set, a.super, a.size, noGroup, ix.gs.cap(), nil, &containQuery{}, false)
				want = ix.con.delta(a.set, a.super, a.size, pending, want)
				byGroup := func(x, y hit) int { return int(x.Group) - int(y.Group) }
				slices.SortFunc(got, byGroup)
				slices.SortFunc(want, byGroup)
				require.Equal(t, want, got)
				require.NotEmpty(t, want)
				require.Contains(t, got, hit{Group: pending[0], Score: 1}, "the pending copy of the text contains it")
			})
		}
	}
}

// TestSpotResolveThenFree resolves a SpotSigs text's signature IDs, then
// (before its exclusive turn) removes the documents holding them, freeing
// the IDs, and adds others that take the freed IDs for other signatures:
// the turn must not use the stale IDs, and the index must end as a
// sequential one does.
func TestSpotResolveThenFree(t *testing.T) {
	cfg := Config{Method: SpotSigs, Language: "und", Antecedents: "ro,mi,tan,le"}
	docs := synth.Docs(60, synth.Config{Seed: 8, VariantRate: 0.7, Recent: 3})
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
	// Text: a variant of document 39's story, sharing its signatures.
	doc := detector.Doc{ID: "late", Text: docs[39].Text + " " + docs[38].Text}
	a := d.analyse(doc.Text)
	d.mu.RLock()
	a.sids, a.sidsAt = d.ix.spot.resolve(a.hashes, nil)
	a.sidsIn = d.ix.spot
	d.mu.RUnlock()
	found := 0
	for _, s := range a.sids {
		if s != noSig {
			found++
		}
	}
	require.Positive(t, found)
	for _, x := range []*Detector{d, seq} {
		for _, old := range docs[30:40] {
			require.NoError(t, x.Remove(old.ID))
		}
		for _, nw := range docs[40:] {
			_, err := x.Add(nw)
			require.NoError(t, err)
		}
	}
	require.NotEqual(t, a.sidsAt, d.ix.spot.frees, "signature IDs were freed")
	d.mu.Lock()
	got, err := d.spotTurn(doc, &a)
	d.mu.Unlock()
	require.NoError(t, err)
	want, err := seq.Add(doc)
	require.NoError(t, err)
	require.Equal(t, want, got)
	for _, x := range append(docs[:30], docs[40:]...) {
		w, err := seq.Containers(x.ID)
		require.NoError(t, err)
		g, err := d.Containers(x.ID)
		require.NoError(t, err)
		require.Equal(t, w, g, "Containers(%s)", x.ID)
	}
}
