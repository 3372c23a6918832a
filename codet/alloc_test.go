package codet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// TestHotPathAllocs checks that, in the steady state, turning a document
// into its idf-sorted, truncated sequences (Alg. 1 steps 1-2, with the
// online idf update) allocates nothing, and that the scoring walk of a copy
// of a live document's content through Add costs only its output.
func TestHotPathAllocs(t *testing.T) {
	d, err := New(Config{Language: "en"})
	require.NoError(t, err)
	defer d.Close()
	text := "The central bank raised its benchmark rate by half a point on Wednesday. " +
		"Governor Elena Marsh said inflation had spread to rents and services. " +
		"Markets had expected a smaller move."
	_, err = d.Add(detector.Doc{ID: "a", Text: text})
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(100, func() {
		ad := d.an.Analyze(text)
		d.prepare(ad)
		d.s.build(&d.buf, ad, (*termWeight)(d))
	})
	assert.Equal(t, 0.0, allocs, "allocations per document of sequence extraction")
	assert.Equal(t, 3, d.buf.n())
}
