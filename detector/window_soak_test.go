package detector_test

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// heapAfterGC returns the live heap in bytes after a full collection.
func heapAfterGC() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// discards is a member that stores nothing: what a window retains over it
// is the window's own.
type discards struct{}

func (discards) Add(detector.Doc) ([]detector.Match, error)  { return nil, nil }
func (discards) Containers(string) ([]detector.Match, error) { return nil, nil }
func (discards) Remove(string) error                         { return nil }
func (discards) Close() error                                { return nil }

// TestWindowSoakHeapFlat streams 10 million documents through a window of
// 2,000 over a member that keeps nothing, so the heap measured is the
// window's own, and checks that it stays flat: it follows the live
// documents, not the Adds seen; then that an unbounded window lets go of a
// million documents once they expire. It runs only with NEARDUP_LONG=1
// (under a minute).
func TestWindowSoakHeapFlat(t *testing.T) {
	dataset.SkipSoak(t)
	const size, adds = 2000, 10_000_000
	base := heapAfterGC()
	wd, err := detector.NewWindow(discards{}, detector.WindowConfig{Size: size})
	require.NoError(t, err)
	heap := map[int]uint64{}
	for i := range adds {
		_, err := wd.AddAt(detector.Doc{ID: strconv.Itoa(i)}, int64(i))
		require.NoError(t, err)
		if n := i + 1; n == 1_000_000 || n == 5_000_000 || n == adds {
			heap[n] = heapAfterGC()
			t.Logf("after %8d Adds: %d live documents, window heap %7d bytes", n, wd.Len(), heap[n]-base)
		}
	}
	_, err = wd.ExpireBefore(adds)
	require.NoError(t, err)
	require.Zero(t, wd.Len())
	expired := heapAfterGC()
	t.Logf("after every document expired: window heap %d bytes", expired-base)
	perAdd := (float64(heap[adds]) - float64(heap[1_000_000])) / (adds - 1_000_000)
	t.Logf("retained per Add from 1M to 10M Adds: %.4f bytes", perAdd)
	// 2,000 live slots and map entries take a few hundred kilobytes; the
	// old queue grew by about 50 bytes per Add.
	require.Less(t, perAdd, 0.05, "bytes retained per Add")
	require.Less(t, heap[adds]-base, uint64(1<<20), "the window's heap at 10M Adds")
	require.Less(t, int64(expired)-int64(base), int64(256<<10), "the window's heap once empty")
	runtime.KeepAlive(wd)

	// An unbounded window that held a million documents lets go of them
	// once they have expired.
	base = heapAfterGC()
	wd, err = detector.NewWindow(discards{}, detector.WindowConfig{})
	require.NoError(t, err)
	for i := range 1_000_000 {
		_, err := wd.AddAt(detector.Doc{ID: strconv.Itoa(i)}, int64(i))
		require.NoError(t, err)
	}
	full := heapAfterGC()
	_, err = wd.ExpireBefore(1_000_000)
	require.NoError(t, err)
	expired = heapAfterGC()
	t.Logf("unbounded window: %d bytes with 1M documents, %d once they expired", full-base, expired-base)
	require.Less(t, int64(expired)-int64(base), int64(256<<10), "the unbounded window's heap once empty")
	runtime.KeepAlive(wd)
}
