package idftab

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

func TestAddRemove(t *testing.T) {
	tb := New(false)
	h0 := tb.Add([]string{"a", "b"})
	h1 := tb.Add([]string{"a", "c"})
	h2 := tb.Add(nil) // not counted
	assert.Equal(t, int32(-1), h2)
	assert.Equal(t, int64(2), tb.IDF().N())
	assert.Equal(t, int64(2), tb.IDF().DF("a"))
	assert.Equal(t, 4, tb.Live())
	tb.Remove(h0)
	tb.Remove(h2)
	tb.Remove(7) // never issued
	assert.Equal(t, int64(1), tb.IDF().N())
	assert.Equal(t, int64(1), tb.IDF().DF("a"))
	assert.Zero(t, tb.IDF().DF("b"))
	assert.Equal(t, 2, tb.Live())
	tb.Remove(h1)
	assert.Zero(t, tb.IDF().N())
	assert.Zero(t, tb.Live())
	assert.Equal(t, h1, tb.Add([]string{"x"}), "a freed handle is reused")
}

// TestRebuild removes most of a large table: the table is rebuilt, and
// counts the live documents exactly as before.
func TestRebuild(t *testing.T) {
	defer func(f int) { rebuildFloor = f }(rebuildFloor)
	rebuildFloor = 100
	tb := New(true)
	terms := func(i int) []string {
		return []string{"common", fmt.Sprint("own", i), fmt.Sprint("pair", i/2)}
	}
	hs := make([]int32, 200)
	for i := range hs {
		hs[i] = tb.Add(terms(i))
	}
	for i := range 190 {
		tb.Remove(hs[i])
	}
	require.Less(t, tb.peak, 600, "rebuilt: the peak restarts from the live occurrences")
	require.Len(t, tb.docs, 200, "the live handles are at the end: none dropped")
	assert.Equal(t, int64(10), tb.IDF().N())
	assert.Equal(t, int64(10), tb.IDF().DF("common"))
	assert.Equal(t, int64(2), tb.IDF().DF("pair97"))
	assert.Equal(t, int64(1), tb.IDF().DF("own195"))
	assert.Zero(t, tb.IDF().DF("own5"))
	assert.Equal(t, 30, tb.Live())
	for i := 190; i < 200; i++ {
		tb.Remove(hs[i])
	}
	assert.Zero(t, tb.IDF().N())
	tb.Add(terms(3))
	assert.Equal(t, int64(1), tb.IDF().DF("own3"))
}

// TestLongDocument counts and uncounts a document of more terms than
// textproc.IDF keeps scratch for: each term once, N by one.
func TestLongDocument(t *testing.T) {
	tb := New(false)
	h0 := tb.Add([]string{"a", "b"})
	long := make([]string, 3*4096+5)
	for i := range long {
		long[i] = fmt.Sprint("t", i)
	}
	long[len(long)-1] = "a"
	h := tb.Add(long)
	assert.Equal(t, int64(2), tb.IDF().N())
	assert.Equal(t, int64(2), tb.IDF().DF("a"))
	assert.Equal(t, int64(1), tb.IDF().DF("t0"))
	assert.Equal(t, int64(1), tb.IDF().DF(fmt.Sprint("t", 3*4096)))
	tb.Remove(h0)
	assert.Equal(t, int64(1), tb.IDF().N())
	tb.Remove(h)
	assert.Zero(t, tb.IDF().N())
	assert.Zero(t, tb.IDF().DF("a"))
	assert.Zero(t, tb.IDF().DF(fmt.Sprint("t", 3*4096)))
}

// TestPack checks Pack against the field encoding it is (hashtab.AppendField
// per term), for terms whose length prefixes take 1, 2 and 3 bytes, and
// that unpack reads it back.
func TestPack(t *testing.T) {
	terms := []string{"", "a", strings.Repeat("b", 127), strings.Repeat("c", 128), strings.Repeat("d", 1<<14), "ü"}
	var want []byte
	for _, w := range terms {
		want = hashtab.AppendField(want, w)
	}
	p := Pack(terms)
	assert.Equal(t, string(want), p)
	assert.Equal(t, terms[1:], Unpack(nil, Pack(terms[1:])))
	assert.Empty(t, Pack(nil))
}
