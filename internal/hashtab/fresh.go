package hashtab

import "unsafe"

// pageBytes is the smallest page size of the platforms the module runs
// on; touching more often than a page costs a store per step, no fault.
const pageBytes = 4096

// FreshSlice returns make([]T, n), zeroed as ever, with one element in
// every page of it written (with its zero value) before it is returned.
// The module's open-addressing tables that are probed before they are
// filled ([Map], minhash's band maps, mrcosine's trigram counter) take
// their slots from it: Linux maps a fresh page that is first read to its
// shared zero page, and the write that follows faults again and flushes
// the TLB of every core, which held back concurrent Adds
// (docs/notes/hashtab.md).
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

// Pop removes the last element of *free, a list of slots to reuse, and
// returns it, or returns false when the list is empty. O(1).
func Pop[T any](free *[]T) (T, bool) {
	n := len(*free)
	if n == 0 {
		var zero T
		return zero, false
	}
	x := (*free)[n-1]
	*free = (*free)[:n-1]
	return x, true
}
