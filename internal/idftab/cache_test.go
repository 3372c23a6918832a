package idftab

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	t.termsMu.Lock()
	defer t.termsMu.Unlock()
	return len(t.terms)
}
