package detector

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

// everyone is a proposer that nominates every other live document, the
// worst case for the verdict cache (a flood of identical copies).
type everyone struct {
	mu   sync.Mutex
	live map[string]bool
}

func (e *everyone) Add(d Doc) ([]Match, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.live[d.ID] {
		return nil, ErrDuplicateID
	}
	out := e.others(d.ID)
	e.live[d.ID] = true
	return out, nil
}

func (e *everyone) others(id string) []Match {
	var out []Match
	for other := range e.live {
		if other != id {
			out = append(out, Match{ID: other, Score: 1})
		}
	}
	slices.SortFunc(out, func(a, b Match) int { return compareIDs(a.ID, b.ID) })
	return out
}

func compareIDs(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (e *everyone) Containers(id string) ([]Match, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.live[id] {
		return nil, ErrUnknownID
	}
	return e.others(id), nil
}

func (e *everyone) Remove(id string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.live[id] {
		return ErrUnknownID
	}
	delete(e.live, id)
	return nil
}

func (e *everyone) Close() error { return nil }

func (c *cascade[F]) cached() (verdicts, cachedBy int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.docs {
		verdicts += len(e.verdicts)
		cachedBy += len(e.cachedBy)
	}
	return verdicts, cachedBy
}

// Identical copies all nominate one another; the verdict cache stays
// linear in the copies, and Remove drops every verdict of a document.
func TestCascadeVerdictCacheBounded(t *testing.T) {
	const copies = 500
	calls := 0
	verify := func(container, contained string) (float64, bool) { calls++; return 1, true }
	c := newCascade(&everyone{live: map[string]bool{}}, Identity, verify)
	d := view(c, canRemove)
	for i := range copies {
		if _, err := d.Add(Doc{ID: fmt.Sprint(i), Text: "same"}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range copies {
		ms, err := d.Containers(fmt.Sprint(i))
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != copies-1 {
			t.Fatalf("Containers(%d) has %d matches, want %d", i, len(ms), copies-1)
		}
	}
	v, by := c.cached()
	if v != by {
		t.Errorf("%d verdicts cached but %d back references", v, by)
	}
	if v > copies*verdictsPerDoc {
		t.Errorf("%d verdicts cached for %d copies, want at most %d", v, copies, copies*verdictsPerDoc)
	}
	t.Logf("%d copies: %d verdicts cached, %d verify calls", copies, v, calls)
	r := d.(Remover)
	for i := range copies / 2 {
		if err := r.Remove(fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
	}
	v, by = c.cached()
	if v != by {
		t.Errorf("after removing half: %d verdicts cached but %d back references", v, by)
	}
	for _, e := range c.docs {
		for s := range e.verdicts {
			if c.serials[s] == nil {
				t.Fatalf("a verdict about removed serial %d survived", s)
			}
		}
	}
	for i := copies / 2; i < copies; i++ {
		if err := r.Remove(fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.docs) != 0 || len(c.serials) != 0 {
		t.Errorf("after removing every document: %d docs, %d serials", len(c.docs), len(c.serials))
	}
}
