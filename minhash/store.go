package minhash

import "sync/atomic"

// chunkShift sets the documents per chunk of a strided store: 256.
const (
	chunkShift = 8
	chunkDocs  = 1 << chunkShift
	chunkMask  = chunkDocs - 1
)

// strided holds a fixed number of values per dense document index in
// chunks of chunkDocs documents. Growing it allocates one chunk and never
// copies, where a doubling slice copies everything it holds and touches
// twice the memory at each step (a third of Add's time on 5,000 Reuters
// documents went to growing the signature array).
//
// It grows under the Detector's exclusive lock, while band-table shards
// may be reading and writing the entries of other documents without that
// lock: readers go through view, the chunk list as last published, which
// holds every chunk of the documents ensured before.
type strided[T comparable] struct {
	per    int
	fill   T     // initial value of new entries
	chunks [][]T // the writer's list
	view   *atomic.Pointer[[][]T]
}

func newStrided[T comparable](per int, fill T) strided[T] {
	return strided[T]{per: per, fill: fill, view: new(atomic.Pointer[[][]T])}
}

// ensure makes doc addressable.
func (s *strided[T]) ensure(doc uint32) {
	for int(doc>>chunkShift) >= len(s.chunks) {
		c := make([]T, s.per*chunkDocs)
		var zero T
		if s.fill != zero {
			for i := range c {
				c[i] = s.fill
			}
		}
		s.chunks = append(s.chunks, c)
		list := s.chunks
		s.view.Store(&list)
	}
}

// of returns the values of doc, which must have been ensured.
func (s *strided[T]) of(doc uint32) []T {
	c := (*s.view.Load())[doc>>chunkShift]
	i := int(doc&chunkMask) * s.per
	return c[i : i+s.per : i+s.per]
}
