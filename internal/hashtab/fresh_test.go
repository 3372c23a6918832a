package hashtab

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFreshSlice(t *testing.T) {
	type slot struct {
		key  uint64
		head uint32
	}
	for _, n := range []int{0, 1, 255, 256, 257, 1 << 16} {
		s := FreshSlice[slot](n)
		assert.Len(t, s, n)
		for i, v := range s {
			if v.key != 0 || v.head != 0 {
				t.Fatalf("n=%d: element %d is %v, not zero", n, i, v)
			}
		}
	}
	assert.Len(t, FreshSlice[struct{}](10), 10, "zero-size elements")
	assert.Len(t, FreshSlice[[8192]byte](3), 3, "elements larger than a page")
}

func ExampleFreshSlice() {
	slots := FreshSlice[uint64](1 << 12) // a table of 32 KiB, every page written once
	fmt.Println(len(slots), slots[0], slots[len(slots)-1])
	// Output: 4096 0 0
}

func TestPop(t *testing.T) {
	free := []uint32{4, 7}
	x, ok := Pop(&free)
	assert.True(t, ok)
	assert.Equal(t, uint32(7), x, "Pop takes the last slot")
	assert.Equal(t, []uint32{4}, free)
	x, ok = Pop(&free)
	assert.True(t, ok)
	assert.Equal(t, uint32(4), x)
	x, ok = Pop(&free)
	assert.False(t, ok, "Pop of an empty list")
	assert.Zero(t, x)
	assert.Empty(t, free)
}
