package detector

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// recorder is a minimal Remover for the window's own bookkeeping.
type recorder struct{ live map[string]bool }

func (r *recorder) Add(d Doc) ([]Match, error)            { r.live[d.ID] = true; return nil, nil }
func (r *recorder) Containers(id string) ([]Match, error) { return nil, nil }
func (r *recorder) Remove(id string) error                { delete(r.live, id); return nil }
func (r *recorder) Close() error                          { return nil }

// Removals do not grow the window's queue without bound.
func TestWindowQueueCompacts(t *testing.T) {
	for _, size := range []int{0, 3} {
		wd, err := NewWindow(&recorder{live: map[string]bool{}}, WindowConfig{Size: size})
		if err != nil {
			t.Fatal(err)
		}
		inner := wd.(struct{ windowCore }).windowCore.(*window)
		for i := range 10000 {
			id := fmt.Sprintf("t%d", i)
			if _, err := wd.Add(Doc{ID: id}); err != nil {
				t.Fatal(err)
			}
			if i%3 != 0 {
				if err := wd.Remove(id); err != nil {
					t.Fatal(err)
				}
			}
		}
		if q := len(inner.queue) - inner.head; q > 2*(inner.Len()+1)+64 {
			t.Errorf("Size %d: %d live documents, %d slots queued", size, inner.Len(), q)
		}
	}
}

// keepsNothing is a member that stores nothing: what a window retains
// over it is the window's own.
type keepsNothing struct{}

func (keepsNothing) Add(Doc) ([]Match, error)           { return nil, nil }
func (keepsNothing) Containers(string) ([]Match, error) { return nil, nil }
func (keepsNothing) Remove(string) error                { return nil }
func (keepsNothing) Close() error                       { return nil }

func innerWindow(t testing.TB, wd Window) *window {
	t.Helper()
	return wd.(struct{ windowCore }).windowCore.(*window)
}

// A steady stream through a count window, where eviction alone advances
// the queue, keeps the queue's backing array proportional to the window;
// once everything has expired it shrinks.
func TestWindowQueueBoundedUnderEviction(t *testing.T) {
	const size = 10
	wd, err := NewWindow(keepsNothing{}, WindowConfig{Size: size})
	require.NoError(t, err)
	w := innerWindow(t, wd)
	for i := range 100_000 {
		_, err := wd.AddAt(Doc{ID: fmt.Sprintf("t%d", i)}, int64(i))
		require.NoError(t, err)
		require.LessOrEqual(t, cap(w.queue), 4*size+128, "after %d Adds: the queue's capacity", i+1)
	}
	// An unbounded window that held many documents lets go of its queue
	// when they expire.
	wd, err = NewWindow(keepsNothing{}, WindowConfig{})
	require.NoError(t, err)
	w = innerWindow(t, wd)
	for i := range 50_000 {
		_, err := wd.AddAt(Doc{ID: fmt.Sprintf("t%d", i)}, int64(i))
		require.NoError(t, err)
	}
	n, err := wd.ExpireBefore(49_990)
	require.NoError(t, err)
	require.Equal(t, 49_990, n)
	require.Equal(t, 10, wd.Len())
	require.LessOrEqual(t, cap(w.queue), 128, "the queue's capacity after expiry")
}
