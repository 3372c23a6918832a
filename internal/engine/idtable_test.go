package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTable(t *testing.T) {
	var tb idTable
	a, fresh := tb.Insert("a")
	assert.True(t, fresh)
	b, _ := tb.Insert("b")
	again, fresh := tb.Insert("a")
	assert.False(t, fresh)
	assert.Equal(t, a, again)
	assert.Equal(t, "b", tb.Name(b))
	assert.Equal(t, 2, tb.Len())

	id, ok := tb.Delete("a")
	assert.True(t, ok)
	assert.Equal(t, a, id)
	assert.False(t, tb.Live(a))
	assert.Equal(t, "", tb.Name(a))
	_, ok = tb.Lookup("a")
	assert.False(t, ok)
	_, ok = tb.Delete("a")
	assert.False(t, ok)

	c, _ := tb.Insert("c")
	assert.Equal(t, a, c, "a freed ID is reused")
	assert.Equal(t, 2, tb.Cap(), "reuse keeps the table at its live size")
	assert.Equal(t, "", tb.Name(99))
}

func TestChurnStaysFlat(t *testing.T) {
	var tb idTable
	for i := range 100000 {
		tb.Insert(string(rune('a'+i%26)) + string(rune(i)))
		if i >= 10 {
			tb.Delete(string(rune('a'+(i-10)%26)) + string(rune(i-10)))
		}
	}
	assert.Equal(t, 10, tb.Len())
	assert.LessOrEqual(t, tb.Cap(), 11)
}

// TestReuseOrder: freed IDs are reused most recently freed first, as the
// package documentation says.
func TestReuseOrder(t *testing.T) {
	var tb idTable
	for _, s := range []string{"a", "b", "c", "d"} {
		tb.Insert(s)
	}
	tb.Delete("b") // ID 1
	tb.Delete("d") // ID 3
	tb.Delete("a") // ID 0
	for _, want := range []uint32{0, 3, 1, 4} {
		id, fresh := tb.Insert(string(rune('p' + want)))
		assert.True(t, fresh)
		assert.Equal(t, want, id)
	}
}

// TestZeroTable: the zero idTable answers every read.
func TestZeroTable(t *testing.T) {
	var tb idTable
	_, ok := tb.Lookup("x")
	assert.False(t, ok)
	_, ok = tb.Delete("x")
	assert.False(t, ok)
	assert.False(t, tb.Live(0))
	assert.Equal(t, "", tb.Name(0))
	assert.Zero(t, tb.Len())
	assert.Zero(t, tb.Cap())
}
