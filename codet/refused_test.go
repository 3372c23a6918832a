package codet

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// TestRefusedAddDoesNoAnalysis checks that an Add refused for a duplicate
// ID, an oversized text, an empty ID or a closed detector analyses
// nothing.
func TestRefusedAddDoesNoAnalysis(t *testing.T) {
	text := strings.Repeat("Prices rose again in the spring. ", 1000)
	d, err := New(Config{Language: "en", MaxTextBytes: len(text)})
	require.NoError(t, err)
	var n atomic.Int64
	d.alg.onAnalyze = func() { n.Add(1) }
	_, err = d.Add(detector.Doc{ID: "a", Text: "A first document."})
	require.NoError(t, err)
	require.Equal(t, int64(1), n.Load())
	for _, c := range []struct {
		name string
		doc  detector.Doc
		want error
	}{
		{"duplicate", detector.Doc{ID: "a", Text: text}, detector.ErrDuplicateID},
		{"too large", detector.Doc{ID: "b", Text: text + "x"}, detector.ErrTooLarge},
		{"empty ID", detector.Doc{Text: text}, detector.ErrEmptyID},
		{"closed", detector.Doc{ID: "c", Text: text}, detector.ErrClosed},
	} {
		if c.want == detector.ErrClosed {
			require.NoError(t, d.Close())
		}
		_, err := d.Add(c.doc)
		require.ErrorIs(t, err, c.want)
		require.Equal(t, int64(1), n.Load(), "%s: the refused text was analysed", c.name)
	}
}
