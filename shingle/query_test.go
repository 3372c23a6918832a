package shingle

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// TestQueryChangesNothing queries texts new and old, with and without an
// ID, against every Method and requires the index to be left as it was:
// the same snapshot bytes, the same Containers of every document, and for
// SpotSigs the same N and document frequencies (the idf band's
// statistics, which the Add of the queried text would move).
func TestQueryChangesNothing(t *testing.T) {
	texts := synthTexts(80, 11)
	for _, fc := range floodConfigs {
		t.Run(fc.name, func(t *testing.T) {
			d, err := New(fc.cfg)
			require.NoError(t, err)
			for i, text := range texts[:60] {
				_, err := d.Add(detector.Doc{ID: fmt.Sprint("d", i), Text: text})
				require.NoError(t, err)
			}
			answers := func() map[string][]detector.Match {
				out := map[string][]detector.Match{}
				for i := range 60 {
					id := fmt.Sprint("d", i)
					ms, err := d.Containers(id)
					require.NoError(t, err)
					out[id] = ms
				}
				return out
			}
			before, snap := answers(), encodeSnap(t, d)
			var n int
			var df []int32
			if x, ok := testIndex(d).(*spotIndex); ok {
				n, df = x.n, append([]int32(nil), x.df...)
			}
			for i, text := range texts {
				for _, id := range []string{"", "new", fmt.Sprint("d", i)} {
					q1, err := d.Query(detector.Doc{ID: id, Text: text})
					require.NoError(t, err)
					require.NotNil(t, q1)
					q2, err := d.Query(detector.Doc{ID: id, Text: text})
					require.NoError(t, err)
					require.Equal(t, q1, q2, "a Query changes no later answer")
				}
			}
			assert.Equal(t, before, answers())
			assert.True(t, bytes.Equal(snap, encodeSnap(t, d)), "the snapshot is unchanged")
			if x, ok := testIndex(d).(*spotIndex); ok {
				assert.Equal(t, n, x.n)
				assert.Equal(t, df, x.df[:len(df)])
			}
		})
	}
}

// TestQueryConcurrentWithAdds runs Queries while other goroutines add,
// copy and remove documents (run it under -race): every Query succeeds,
// and once the Adds are done a Query answers as the next Add does.
func TestQueryConcurrentWithAdds(t *testing.T) {
	texts := synthTexts(100, 12)
	for _, fc := range floodConfigs {
		t.Run(fc.name, func(t *testing.T) {
			d, err := New(fc.cfg)
			require.NoError(t, err)
			var wg sync.WaitGroup
			for w := range 2 {
				wg.Go(func() {
					for i, text := range texts {
						id := fmt.Sprintf("w%d-%d", w, i)
						if _, err := d.Add(detector.Doc{ID: id, Text: text}); err != nil {
							t.Error(err)
							return
						}
						if i%4 == 0 {
							if err := d.Remove(id); err != nil {
								t.Error(err)
								return
							}
						}
					}
				})
			}
			for q := range 2 {
				wg.Go(func() {
					for i := q; i < len(texts); i += 2 {
						ms, err := d.Query(detector.Doc{Text: texts[i]})
						if err != nil || ms == nil {
							t.Error("Query:", ms, err)
							return
						}
					}
				})
			}
			wg.Wait()
			for i, text := range texts[:20] {
				doc := detector.Doc{ID: fmt.Sprint("after", i), Text: text}
				q, err := d.Query(doc)
				require.NoError(t, err)
				a, err := d.Add(doc)
				require.NoError(t, err)
				require.Equal(t, a, q)
			}
		})
	}
}
