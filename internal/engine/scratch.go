// The rule by which reusable buffers give back what
// one outlier made them grow: a detector that signs a document of millions
// of tokens must not keep (and clear, or scan) buffers of that size for
// every later ordinary document.

package engine

// MinKeep is the capacity, in elements, that a buffer may keep whatever
// its use.
const MinKeep = 1 << 12

// Shrink returns s unchanged, unless its capacity is more than 8 times what
// the last use needed (need, in elements) and more than MinKeep: then it
// returns a new, empty and smaller buffer, so that the outlier's memory is
// collected. Reuse stays amortised O(1): a buffer is reallocated only after
// a use 8 times smaller than its capacity.
func Shrink[T any](s []T, need int) []T {
	if c := cap(s); c > MinKeep && c > 8*need {
		return make([]T, 0, max(2*need, MinKeep))
	}
	return s
}
