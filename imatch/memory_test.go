package imatch

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// liveHeap returns the live heap after two collections.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestMemoryPerDocumentReport (NEARDUP_LONG=1) adds 3,000 Reuters-21578
// bodies once each, then 20 copies of each, to a Detector of New and one
// over the collection's frozen table, and logs the live heap per document
// (the Signers' interned vocabulary included): what a unique document and
// what a copy costs.
func TestMemoryPerDocumentReport(t *testing.T) {
	dataset.SkipSoak(t)
	texts := dataset.Texts(dataset.Reuters(t, 6000))
	_, tc, err := Config{Language: "en"}.resolve()
	require.NoError(t, err)
	an, err := textproc.NewAnalyzer(tc)
	require.NoError(t, err)
	frozen := textproc.BuildIDF(an, texts, false)
	for _, name := range []string{"own", "frozen"} {
		for _, copies := range []int{1, 20} {
			var d *Detector
			if name == "own" {
				d, err = New(Config{Language: "en"})
			} else {
				d, err = NewWithIDF(Config{Language: "en"}, frozen)
			}
			require.NoError(t, err)
			_, err = d.Add(detector.Doc{ID: "warm", Text: texts[0]})
			require.NoError(t, err)
			before := liveHeap()
			n := 0
			for i, text := range texts[:3000] {
				for c := range copies {
					_, err := d.Add(detector.Doc{ID: fmt.Sprintf("d%d-%d", i, c), Text: text})
					require.NoError(t, err)
					n++
				}
			}
			after := liveHeap()
			t.Logf("%s table, %d copies of each text: %d documents, %.0f bytes/document", name, copies, n, float64(after-before)/float64(n))
			runtime.KeepAlive(d)
		}
	}
}
