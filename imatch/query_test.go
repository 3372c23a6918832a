package imatch

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// TestQueryChangesNothing runs a stream of floods with removals through
// two detectors, one of which is queried before every Add
// ([testkit.QueryChangesNothing]): each Query returns what the
// following Add returns, and the queried detector ends byte for byte as
// the other (its online table included).
func TestQueryChangesNothing(t *testing.T) {
	texts := floodTexts()
	ops := floodStream(texts, 7, 10)
	for _, cfg := range []Config{{}, {Selection: SelectBand, Lexicons: 2, MaxResults: 3}} {
		for name, build := range builds(t, cfg, texts) {
			t.Run(fmt.Sprintf("%s/sel%d", name, cfg.Selection), func(t *testing.T) {
				a, b := build(), build()
				testkit.QueryChangesNothing(t, b, a, ops, func(step int) string { return texts[step%len(texts)] }, false)
				if a.alg.own {
					assert.Equal(t, b.IDF().N(), a.IDF().N(), "Query counts nothing in the online table")
				}
			})
		}
	}
}

// TestQuerySelf: a live document's own ID is not reported, its copies
// are.
func TestQuerySelf(t *testing.T) {
	d, err := New(Config{Language: "en"})
	require.NoError(t, err)
	for _, id := range []string{"a", "b"} {
		_, err := d.Add(detector.Doc{ID: id, Text: snapA})
		require.NoError(t, err)
	}
	ms, err := d.Query(detector.Doc{ID: "a", Text: snapA})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "b", Score: 1}}, ms)
	ms, err = d.Query(detector.Doc{Text: snapA})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "a", Score: 1}, {ID: "b", Score: 1}}, ms)
	ms, err = d.Query(detector.Doc{ID: "z", Text: ""})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{}, ms, "an empty text matches nothing")
}

// TestConcurrentQueryAdd runs Queries while other goroutines Add and
// Remove copies of the queried texts (run it under -race): no Query
// reports a queried ID, no Add or Containers reports a queried document,
// and the online table counts the added documents only.
func TestConcurrentQueryAdd(t *testing.T) {
	texts := floodTexts()[:20]
	for name, build := range builds(t, Config{}, floodTexts()) {
		t.Run(name, func(t *testing.T) {
			d := build()
			var adders, queriers sync.WaitGroup
			done := make(chan struct{})
			for g := range 2 {
				adders.Go(func() {
					for i, text := range texts {
						id := fmt.Sprintf("w%d-%d", g, i)
						ms, err := d.Add(detector.Doc{ID: id, Text: text})
						if err != nil {
							t.Error(err)
							return
						}
						for _, m := range ms {
							if !strings.HasPrefix(m.ID, "w") {
								t.Errorf("Add(%s) = %v reports a queried document", id, ms)
							}
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
			for g := range 2 {
				queriers.Go(func() {
					for i := 0; ; i++ {
						select {
						case <-done:
							return
						default:
						}
						id := fmt.Sprintf("q%d-%d", g, i)
						ms, err := d.Query(detector.Doc{ID: id, Text: texts[i%len(texts)]})
						if err != nil {
							t.Error(err)
							return
						}
						for _, m := range ms {
							if !strings.HasPrefix(m.ID, "w") {
								t.Errorf("Query(%s) = %v reports a queried document", id, ms)
							}
						}
					}
				})
			}
			adders.Wait()
			close(done)
			queriers.Wait()
			want := 0
			for range 2 {
				for i := range texts {
					if i%4 != 0 {
						want++
					}
				}
			}
			assert.Equal(t, want, d.Len())
			if d.alg.own {
				assert.Equal(t, int64(want), d.IDF().N(), "the online table counts the added documents only")
			}
		})
	}
}
