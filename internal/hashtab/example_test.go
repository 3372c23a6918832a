package hashtab_test

import (
	"fmt"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// A Map from feature hashes to document counts: Ref increments in one
// probe, Delete takes a key out.
func Example() {
	var counts hashtab.Map
	for _, h := range []uint64{0x9e37, 0x51ed, 0x9e37, 0} {
		n, _ := counts.Ref(h)
		*n++
	}
	v, ok := counts.Get(0x9e37)
	fmt.Println(v, ok, counts.Len())
	counts.Delete(0x9e37)
	_, ok = counts.Get(0x9e37)
	fmt.Println(ok, counts.Len())
	// Output:
	// 2 true 3
	// false 2
}
