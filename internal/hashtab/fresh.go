package hashtab

import "unsafe"

// pageBytes is the smallest page size of the platforms the module runs
// on; touching more often than a page costs a store per step, no fault.
const pageBytes = 4096

// FreshSlice returns make([]T, n), zeroed as ever, with one element in
// every page of it written (with its zero value) before it is returned.
// The module's open-addressing tables that are probed before they are
// filled (this package's, minhash's band maps, mrcosine's buckets,
// codet's child and vocabulary tables) take their slots from it: Linux
// maps a fresh page that is first read to its shared zero page, and the
// write that follows faults again and flushes the TLB of every core. It
// measured minhash Containment Add from 2 goroutines at 1.06-1.12 times
// one goroutine's before and 1.25-1.29 after, on a 2-core virtual
// machine (docs/concurrency.md); it is not yet measured on the
// service-shaped benchmark.
func FreshSlice[T any](n int) []T {
	s := make([]T, n)
	var zero T
	step := 1
	if size := int(unsafe.Sizeof(zero)); size > 0 && size < pageBytes {
		step = pageBytes / size
	}
	for i := 0; i < n; i += step {
		s[i] = zero
	}
	return s
}
