package detector

import (
	"fmt"
	"testing"
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
