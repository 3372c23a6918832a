package codet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// TestHotPathAllocs checks that, in the steady state, turning a document
// into its idf-sorted, truncated sequences with detector term IDs (Alg. 1
// steps 1-2, with the reference table outside the lock, and with the
// online idf update under it) allocates nothing.
func TestHotPathAllocs(t *testing.T) {
	text := "The central bank raised its benchmark rate by half a point on Wednesday. " +
		"Governor Elena Marsh said inflation had spread to rents and services. " +
		"Markets had expected a smaller move."
	for _, src := range []IDFSource{IDFReference, IDFOnline} {
		d, err := New(Config{Language: "en", IDF: src})
		require.NoError(t, err)
		_, err = d.Add(detector.Doc{ID: "a", Text: text})
		require.NoError(t, err)
		w, err := d.pool.get()
		require.NoError(t, err)
		allocs := testing.AllocsPerRun(100, func() {
			ad := w.an.Analyze(text)
			if d.frozen {
				d.s.build(&w.buf, ad, w.frozen(d.idf))
			} else {
				d.nextGen()
				d.countOnline(w, ad)
				d.s.build(&w.buf, ad, w.locked(d))
			}
			d.globalize(w)
		})
		assert.Equal(t, 0.0, allocs, "allocations per document of sequence extraction (%s)", d.Weights())
		assert.Equal(t, 3, w.buf.n())
		d.Close()
	}
}
