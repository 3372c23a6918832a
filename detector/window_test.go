package detector_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/detectortest"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
)

func window(t testing.TB, member detector.Detector, cfg detector.WindowConfig) detector.Window {
	t.Helper()
	w, err := detector.NewWindow(member, cfg)
	require.NoError(t, err)
	return w
}

// TestWindowConformance runs the suite on windows of 500 documents, alone
// and over a cascade and a copy lister, and with NEARDUP_LONG on an
// unbounded window (Size 0) too: a bounded window takes the unbounded
// one's paths and evicts besides.
func TestWindowConformance(t *testing.T) {
	for _, size := range []int{0, 500} {
		t.Run(fmt.Sprintf("Size%d", size), func(t *testing.T) {
			if size == 0 {
				dataset.SkipLong(t)
			}
			detectortest.Run(t, func() detector.Detector {
				return window(t, naive.New(naive.Config{}), detector.WindowConfig{Size: size})
			}, detectortest.Options{})
		})
	}
	t.Run("OverCascade", func(t *testing.T) {
		detectortest.Run(t, func() detector.Detector {
			return window(t, cascade(t, slow{naive.New(naive.Config{Threshold: 0.2})}), detector.WindowConfig{Size: 500})
		}, detectortest.Options{})
	})
	t.Run("OverCopyLister", func(t *testing.T) {
		detectortest.Run(t, func() detector.Detector {
			return window(t, newCopying(), detector.WindowConfig{Size: 500})
		}, detectortest.Options{})
	})
}

// evictions records what OnEvict hands over.
type evictions struct {
	mu  sync.Mutex
	got []string
}

func (e *evictions) hook(id string, containers []detector.Match) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.got = append(e.got, fmt.Sprintf("%s⊆%v", id, ids(containers)))
}

func (e *evictions) take() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.got
	e.got = nil
	return out
}

func ids(ms []detector.Match) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

const (
	short = "the council approved the new budget on monday after a long debate about schools"
	long  = "morning briefing: " + short + " and in other news the river flooded the lower town"
	other = "a late header from the veteran defender gave the visitors a win in the cup semi-final"
)

// The hook hands over containment found after the document was added.
func TestWindowCountEvictsOldestWithFinalContainers(t *testing.T) {
	var ev evictions
	w := window(t, naive.New(naive.Config{}), detector.WindowConfig{Size: 2, OnEvict: ev.hook})
	defer w.Close()
	add := func(id, text string) []string {
		ms, err := w.Add(detector.Doc{ID: id, Text: text})
		require.NoError(t, err)
		return ids(ms)
	}
	assert.Empty(t, add("short", short))
	assert.Empty(t, add("long", long), "long is not inside short")
	assert.Empty(t, ev.take())
	assert.Empty(t, add("x", other))
	assert.Equal(t, []string{"short⊆[long]"}, ev.take(), "short's container arrived after it")
	assert.Equal(t, 2, w.Len())
	_, err := w.Containers("short")
	assert.ErrorIs(t, err, detector.ErrUnknownID)
	// The evicted ID is free, and a copy of it is related to nothing left
	// but long.
	assert.Equal(t, []string{"long"}, add("short", short))
	assert.Equal(t, []string{"long⊆[]"}, ev.take())
}

func TestWindowPositions(t *testing.T) {
	var ev evictions
	w := window(t, naive.New(naive.Config{}), detector.WindowConfig{OnEvict: ev.hook})
	defer w.Close()
	for i, pos := range []int64{-5, 10, 10, 20} {
		_, err := w.AddAt(detector.Doc{ID: fmt.Sprintf("d%d", i), Text: unique(fmt.Sprint(i))}, pos)
		require.NoError(t, err)
	}
	_, err := w.AddAt(detector.Doc{ID: "late", Text: other}, 19)
	assert.ErrorIs(t, err, detector.ErrOutOfOrder)
	_, err = w.Containers("late")
	assert.ErrorIs(t, err, detector.ErrUnknownID, "a rejected AddAt adds nothing")
	n, err := w.ExpireBefore(10)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, []string{"d0⊆[]"}, ev.take())
	// Add uses the latest position, 20: expiring before 21 takes it too.
	_, err = w.Add(detector.Doc{ID: "plain", Text: short})
	require.NoError(t, err)
	n, err = w.ExpireBefore(21)
	require.NoError(t, err)
	assert.Equal(t, 4, n)
	assert.Equal(t, 0, w.Len())
	assert.Len(t, ev.take(), 4)
	// ExpireBefore moved the latest position to 21.
	_, err = w.AddAt(detector.Doc{ID: "old", Text: short}, 20)
	assert.ErrorIs(t, err, detector.ErrOutOfOrder)
}

// unique returns a text that shares no word with another ID's.
func unique(id string) string {
	return fmt.Sprintf("%[1]s one %[1]s two %[1]s three %[1]s four %[1]s five", id)
}

// A removed and re-added ID is not evicted by its stale slot.
func TestWindowRemoveThenReAdd(t *testing.T) {
	var ev evictions
	w := window(t, naive.New(naive.Config{}), detector.WindowConfig{Size: 2, OnEvict: ev.hook})
	defer w.Close()
	for _, id := range []string{"a", "b"} {
		_, err := w.Add(detector.Doc{ID: id, Text: unique(id)})
		require.NoError(t, err)
	}
	require.NoError(t, w.Remove("a"))
	assert.Empty(t, ev.take(), "Remove does not call OnEvict")
	_, err := w.Add(detector.Doc{ID: "a", Text: unique("a")})
	require.NoError(t, err)
	_, err = w.Add(detector.Doc{ID: "c", Text: unique("c")})
	require.NoError(t, err)
	assert.Equal(t, []string{"b⊆[]"}, ev.take(), "b is the oldest; a was re-added after it")
}

// OnEvict runs with no lock held: it may call the window.
func TestWindowHookMayCallWindow(t *testing.T) {
	var w detector.Window
	var seen []string
	w = window(t, naive.New(naive.Config{}), detector.WindowConfig{Size: 1, OnEvict: func(id string, _ []detector.Match) {
		ms, err := w.Containers("b")
		seen = append(seen, fmt.Sprintf("%s: Len %d, Containers(b) %v %v", id, w.Len(), ids(ms), err))
	}})
	defer w.Close()
	for _, id := range []string{"a", "b"} {
		_, err := w.Add(detector.Doc{ID: id, Text: other})
		require.NoError(t, err)
	}
	assert.Equal(t, []string{"a: Len 1, Containers(b) [] <nil>"}, seen)
}

func TestWindowConstructorErrors(t *testing.T) {
	var typedNil *naive.Detector
	for name, build := range map[string]func() (detector.Window, error){
		"nil":       func() (detector.Window, error) { return detector.NewWindow(nil, detector.WindowConfig{}) },
		"typed nil": func() (detector.Window, error) { return detector.NewWindow(typedNil, detector.WindowConfig{}) },
		"negative": func() (detector.Window, error) {
			return detector.NewWindow(naive.New(naive.Config{}), detector.WindowConfig{Size: -1})
		},
		"cannot remove": func() (detector.Window, error) {
			return detector.NewWindow(noRemove{naive.New(naive.Config{})}, detector.WindowConfig{})
		},
	} {
		w, err := build()
		assert.Nil(t, w, name)
		assert.ErrorIs(t, err, detector.ErrInvalidConfig, name)
		assert.Contains(t, err.Error(), "detector: Window: ", name)
		if name == "cannot remove" {
			assert.ErrorIs(t, err, errors.ErrUnsupported)
		}
	}
}

// A restored window evicts in the order the saved one would.
func TestWindowSnapshotKeepsOrder(t *testing.T) {
	var ev1, ev2 evictions
	a := window(t, naive.New(naive.Config{}), detector.WindowConfig{Size: 3, OnEvict: ev1.hook})
	defer a.Close()
	for i, id := range []string{"c", "a", "d", "b"} {
		_, err := a.AddAt(detector.Doc{ID: id, Text: unique(id)}, int64(-10+i*7))
		require.NoError(t, err)
	}
	require.Equal(t, []string{"c⊆[]"}, ev1.take())
	var snap bytes.Buffer
	_, err := a.(detector.Persister).WriteTo(&snap)
	require.NoError(t, err)
	b := window(t, naive.New(naive.Config{}), detector.WindowConfig{Size: 3, OnEvict: ev2.hook})
	defer b.Close()
	_, err = b.(detector.Persister).ReadFrom(bytes.NewReader(snap.Bytes()))
	require.NoError(t, err)
	_, err = b.AddAt(detector.Doc{ID: "early", Text: short}, 10)
	assert.ErrorIs(t, err, detector.ErrOutOfOrder, "the latest position (11) is restored")
	for _, w := range []detector.Window{a, b} {
		_, err := w.AddAt(detector.Doc{ID: "e", Text: short}, 11)
		require.NoError(t, err)
		_, err = w.ExpireBefore(12)
		require.NoError(t, err)
	}
	assert.Equal(t, []string{"a⊆[]", "d⊆[]", "b⊆[]", "e⊆[]"}, ev1.take())
	assert.Equal(t, []string{"a⊆[]", "d⊆[]", "b⊆[]", "e⊆[]"}, ev2.take())
	// A window of another Size does not read it.
	c := window(t, naive.New(naive.Config{}), detector.WindowConfig{Size: 4})
	_, err = c.(detector.Persister).ReadFrom(bytes.NewReader(snap.Bytes()))
	assert.ErrorIs(t, err, detector.ErrSnapshot)
	assert.ErrorContains(t, err, "Config.Size is 3 in the snapshot and 4 in the detector")
}

// Adds from several goroutines with a small window: every document is
// handed to OnEvict exactly once or stays, and the member holds exactly
// the window's documents.
func TestWindowConcurrentEviction(t *testing.T) {
	var mu sync.Mutex
	evicted := map[string]int{}
	member := naive.New(naive.Config{})
	w := window(t, member, detector.WindowConfig{Size: 10, OnEvict: func(id string, _ []detector.Match) {
		mu.Lock()
		evicted[id]++
		mu.Unlock()
	}})
	defer w.Close()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 50 {
				_, _ = w.Add(detector.Doc{ID: fmt.Sprintf("g%d-%d", g, i), Text: other})
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 10, w.Len())
	assert.Equal(t, 10, member.Len())
	assert.Len(t, evicted, 190)
	for id, n := range evicted {
		assert.Equal(t, 1, n, id)
	}
}

// copying is the reference detector with exact-copy listing, to check
// that combinators pass CopyLister through. It does not persist.
type copying struct {
	d     *naive.Detector
	mu    sync.Mutex
	texts map[string]string
}

func newCopying() *copying { return &copying{d: naive.New(naive.Config{}), texts: map[string]string{}} }

func (c *copying) Add(d detector.Doc) ([]detector.Match, error) {
	ms, err := c.d.Add(d)
	if err == nil {
		c.mu.Lock()
		c.texts[d.ID] = d.Text
		c.mu.Unlock()
	}
	return ms, err
}

func (c *copying) Containers(id string) ([]detector.Match, error) { return c.d.Containers(id) }
func (c *copying) Query(d detector.Doc) ([]detector.Match, error) { return c.d.Query(d) }
func (c *copying) Close() error                                   { return c.d.Close() }

func (c *copying) Remove(id string) error {
	err := c.d.Remove(id)
	if err == nil {
		c.mu.Lock()
		delete(c.texts, id)
		c.mu.Unlock()
	}
	return err
}

func (c *copying) Copies(id string) ([]string, error) {
	if _, err := c.d.Containers(id); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out := []string{}
	for other, text := range c.texts {
		if other != id && text == c.texts[id] {
			out = append(out, other)
		}
	}
	slices.Sort(out)
	return out, nil
}
