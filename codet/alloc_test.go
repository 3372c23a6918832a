package codet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// TestHotPathAllocs checks the allocations of Add in the steady state,
// with the reference table (sequences built outside the lock) and with
// online idf (the table updated and the sequences built under it):
//
//   - turning a document into its idf-sorted, truncated sequences with
//     detector term IDs (Varol 2012 Alg. 1 steps 1-2) allocates nothing;
//   - a whole Add of a new document that shares two of its three
//     sentences with a live one (scoring, insertion into the tree, the
//     relations and the result), followed by its Remove, makes at most 16
//     small allocations (12 measured with the reference table): the ID,
//     the sentence offsets, the group's lists, the relations, the visitor
//     lists of new nodes and the result.
func TestHotPathAllocs(t *testing.T) {
	text := "The central bank raised its benchmark rate by half a point on Wednesday. " +
		"Governor Elena Marsh said inflation had spread to rents and services. " +
		"Markets had expected a smaller move."
	other := "The central bank raised its benchmark rate by half a point on Wednesday. " +
		"Governor Elena Marsh said inflation had spread to rents and services. " +
		"Bond yields fell after the decision."
	for _, src := range []IDFSource{IDFReference, IDFOnline} {
		d, err := New(Config{Language: "en", IDF: src})
		require.NoError(t, err)
		_, err = d.Add(detector.Doc{ID: "a", Text: text})
		require.NoError(t, err)
		x := d.ix()
		w, err := d.alg.pool.get()
		require.NoError(t, err)
		allocs := testing.AllocsPerRun(100, func() {
			// What Features and Added do for a document, by hand: no other
			// call runs, so the index is read without the engine's lock.
			w.resolved = false
			ad := w.an.Analyze(text)
			if x.frozen {
				x.s.build(&w.buf, ad, w.frozen(x.idf))
			}
			x.nextGen()
			if !x.frozen {
				x.countOnline(w, ad)
				x.s.build(&w.buf, ad, w.locked(x))
			}
			x.globalize(w)
		})
		assert.Equal(t, 0.0, allocs, "allocations per document of sequence extraction (%s)", d.Weights())
		assert.Equal(t, 3, w.buf.n())
		d.alg.pool.put(w)

		doc := detector.Doc{ID: "b", Text: other}
		allocs = testing.AllocsPerRun(100, func() {
			ms, err := d.Add(doc)
			if err != nil || x.frozen && len(ms) != 1 {
				t.Fatalf("Add: %v, %v", ms, err)
			}
			if err := d.Remove(doc.ID); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: %.0f allocations per Add and Remove", d.Weights(), allocs)
		assert.LessOrEqual(t, allocs, 16.0, "allocations per Add and Remove (%s)", d.Weights())
		require.NoError(t, d.Close())
	}
}
