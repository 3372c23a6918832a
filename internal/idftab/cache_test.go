package idftab

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/spin"
)

// vocab gives terms IDs as a caller's interned vocabulary does.
type vocab struct {
	ids   map[string]uint32
	cache Cache
}

func (v *vocab) terms(ws []string) Terms {
	if v.ids == nil {
		v.ids = map[string]uint32{}
	}
	ids := make([]uint32, len(ws))
	for i, w := range ws {
		id, ok := v.ids[w]
		if !ok {
			id = uint32(len(v.ids))
			v.ids[w] = id
		}
		ids[i] = id
	}
	v.cache.Grow(len(v.ids))
	return Terms{Terms: ws, IDs: ids, Cache: &v.cache}
}

// TestCountCache counts through a Cache: the frequencies are those of a
// table without one, a cell whose term left the table is looked up again,
// and Peek reads without counting.
func TestCountCache(t *testing.T) {
	tb := New(false)
	var v vocab
	ab := []string{"a", "b"}
	h1, n, df := tb.Count(v.terms(ab), Pack(ab), nil)
	assert.Equal(t, int64(1), n)
	assert.Equal(t, []int64{1, 1}, df)
	_, n, df = tb.Count(v.terms([]string{"b", "c"}), Pack([]string{"b", "c"}), nil)
	assert.Equal(t, int64(2), n)
	assert.Equal(t, []int64{2, 1}, df)
	gone := v.cache.cells[v.ids["a"]]
	tb.Remove(h1) // a leaves the table: its cell is gone
	assert.True(t, gone.gone)
	n, df = tb.Peek(v.terms([]string{"a", "b", "z"}), nil)
	assert.Equal(t, int64(1), n)
	assert.Equal(t, []int64{0, 1, 0}, df, "Peek reads a gone cell as absent")
	_, n, df = tb.Count(v.terms([]string{"a"}), Pack([]string{"a"}), nil)
	assert.Equal(t, int64(2), n)
	assert.Equal(t, []int64{1}, df, "a gone cell is looked up again, not counted")
	assert.NotSame(t, gone, v.cache.cells[v.ids["a"]])
	assert.Equal(t, int64(1), tb.IDF().DF("a"))
	assert.Equal(t, int64(1), tb.IDF().DF("b"))
	assert.True(t, tb.IDF().Frozen(), "IDF is a frozen copy")
}

// TestResolveForget checks that the cells Resolve enters for a document
// that is then refused leave the map, and that a Resolve of the same term
// by another document is not hurt by it.
func TestResolveForget(t *testing.T) {
	tb := New(false)
	var v1, v2 vocab
	ws := []string{"new", "other"}
	t1, t2 := v1.terms(ws), v2.terms(ws)
	tb.Resolve(t1)
	tb.Resolve(t2)
	require.Same(t, v1.cache.cells[0], v2.cache.cells[0], "one cell per term")
	assert.Zero(t, tb.IDF().DF("new"), "a resolved term is not in the table")
	assert.Zero(t, tb.IDF().N())
	tb.Forget(t1) // the first document was refused
	assert.Zero(t, tb.size(), "its cells left the map")
	_, n, df := tb.Count(t2, Pack(ws), nil)
	assert.Equal(t, int64(1), n)
	assert.Equal(t, []int64{1, 1}, df, "the second document counts fresh cells")
	assert.Equal(t, 2, tb.size())
	tb.Forget(t2) // counted cells are kept
	assert.Equal(t, int64(1), tb.IDF().DF("new"))
}

// TestRebuildDropsResolved checks that a rebuild drops cells a Resolve
// entered but no Count counted yet, and that their Count still counts.
func TestRebuildDropsResolved(t *testing.T) {
	defer func(f int) { rebuildFloor = f }(rebuildFloor)
	rebuildFloor = 10
	tb := New(false)
	var hs []int32
	for i := range 20 {
		ws := []string{fmt.Sprint("t", i), "common"}
		hs = append(hs, tb.Add(ws))
	}
	var v vocab
	ts := v.terms([]string{"pending", "common"})
	tb.Resolve(ts)
	for _, h := range hs[:19] {
		tb.Remove(h) // rebuilds on the way
	}
	assert.True(t, v.cache.cells[v.ids["pending"]].gone, "the rebuild dropped the resolved cell")
	_, n, df := tb.Count(ts, Pack(ts.Terms), nil)
	assert.Equal(t, int64(2), n)
	assert.Equal(t, []int64{1, 2}, df)
}

// size returns the number of cells in the map.
func (t *Table) size() int {
	n := 0
	for i := range t.terms {
		n += len(t.terms[i].m)
	}
	return n
}

// TestTurnsConcurrentMatchSequential runs Adds (each with its own Cache,
// as a detector's Signers have) and Removes of overlapping terms from 4
// goroutines, records the order of their turns, and requires every Add's
// document frequencies and N, and the final table, to be those of the
// same operations run one by one in that order on a table without caches.
func TestTurnsConcurrentMatchSequential(t *testing.T) {
	var mu sync.RWMutex
	docs := engine.NewSet("x", 0)
	tr := NewTurns("x", false, &mu)
	type op struct {
		id    string
		terms []string // nil: a Remove of id
		df    []int64  // the Add's frequencies
		n     int64
	}
	var order []*op               // appended under mu, in turn order
	handles := map[uint32]int32{} // engine.Set index → handle, under mu
	ops := 800
	docTerms := func(r *rand.Rand) []string {
		ws := map[string]bool{}
		for range 1 + r.IntN(8) {
			ws[fmt.Sprint("w", r.IntN(40))] = true
		}
		out := make([]string, 0, len(ws))
		for w := range ws {
			out = append(out, w)
		}
		slices.Sort(out)
		return out
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 9))
			var v vocab
			var mine []string // IDs this goroutine added and not removed
			for i := range ops / 4 {
				if len(mine) > 0 && r.IntN(3) == 0 {
					k := r.IntN(len(mine))
					id := mine[k]
					mine = slices.Delete(mine, k, k+1)
					err := tr.Remove(func() (int32, error) {
						spin.Lock(&mu)
						defer mu.Unlock()
						order = append(order, &op{id: id})
						idx, err := docs.Remove(id)
						return handles[idx], err
					})
					assert.NoError(t, err)
					continue
				}
				if len(mine) > 0 && r.IntN(8) == 0 {
					// A refused Add (its ID is live) with terms of its
					// own and common ones: Resolve enters cells for
					// them, which Forget takes out again.
					ws := append(docTerms(r), fmt.Sprint("refused", g, "-", i))
					slices.Sort(ws)
					ws = slices.Compact(ws)
					_, _, err := tr.Enter(detector.Doc{ID: mine[0]}, docs, v.terms(ws), Pack(ws), nil)
					assert.ErrorIs(t, err, detector.ErrDuplicateID)
					continue
				}
				o := &op{id: strconv.Itoa(g) + "-" + strconv.Itoa(i), terms: docTerms(r)}
				ts := v.terms(o.terms)
				var err error
				var tk Ticket
				tk, o.df, err = tr.Enter(detector.Doc{ID: o.id}, docs, ts, Pack(o.terms), nil)
				if !assert.NoError(t, err) {
					return
				}
				o.n = tk.N
				_, err = tr.Insert(tk, func(h int32) ([]detector.Match, error) {
					spin.Lock(&mu)
					defer mu.Unlock()
					tr.Settle(o.id)
					idx, err := docs.Add(detector.Doc{ID: o.id})
					if err == nil {
						handles[idx] = h
						order = append(order, o) // inserts run in turn order
					}
					return nil, err
				})
				assert.NoError(t, err)
				mine = append(mine, o.id)
			}
		})
	}
	wg.Wait()
	// Replay one by one on a table without caches.
	seq := New(false)
	byID := map[string]int32{}
	for _, o := range order {
		if o.terms == nil {
			seq.Remove(byID[o.id])
			continue
		}
		h, n, df := seq.Count(Terms{Terms: o.terms}, Pack(o.terms), nil)
		byID[o.id] = h
		require.Equal(t, n, o.n, "%s: N", o.id)
		require.Equal(t, df, o.df, "%s: document frequencies", o.id)
	}
	require.Equal(t, seq.IDF().Fingerprint(), tr.Table().IDF().Fingerprint(), "the final tables")
	require.Equal(t, seq.Live(), tr.Table().Live())
	require.Equal(t, seq.size(), tr.Table().size(), "no cell of a refused Add is left")
}
