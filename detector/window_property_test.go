package detector_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
)

// windowModel is what a Window should hold: its documents oldest first
// with their positions, and its latest position.
type windowModel struct {
	size    int
	docs    []modelDoc
	latest  int64
	started bool
}

type modelDoc struct {
	id  string
	pos int64
}

// addAt adds id at pos (explicit) or at the latest position, and returns
// the IDs evicted by Size, or ok false for a position before the latest.
func (m *windowModel) addAt(id string, pos int64, explicit bool) (evicted []string, ok bool) {
	switch {
	case !explicit:
		pos = m.latest
	case m.started && pos < m.latest:
		return nil, false
	}
	m.docs = append(m.docs, modelDoc{id, pos})
	m.latest, m.started = pos, true
	for m.size > 0 && len(m.docs) > m.size {
		evicted = append(evicted, m.docs[0].id)
		m.docs = m.docs[1:]
	}
	return evicted, true
}

func (m *windowModel) expireBefore(pos int64) (evicted []string) {
	if !m.started || pos > m.latest {
		m.latest, m.started = pos, true
	}
	for len(m.docs) > 0 && m.docs[0].pos < pos {
		evicted = append(evicted, m.docs[0].id)
		m.docs = m.docs[1:]
	}
	return evicted
}

func (m *windowModel) remove(id string) {
	m.docs = slices.DeleteFunc(m.docs, func(d modelDoc) bool { return d.id == id })
}

// windowRun drives a Window and the model through the same operations:
// the window is snapshotted now and then (the journal restarts after each
// snapshot, as a service truncates it) and restarted from the last
// snapshot plus the journal.
type windowRun struct {
	t       *testing.T
	size    int
	m       windowModel
	w       detector.Window
	evicted []string // OnEvict's calls since the last check
	replay  bool     // OnEvict calls are the replay's, not new
	snap    []byte   // the last snapshot, nil before the first
	journal bytes.Buffer
	j       *detector.Journal
}

func newWindowRun(t *testing.T, size int) *windowRun {
	r := &windowRun{t: t, size: size, m: windowModel{size: size}}
	r.j = detector.NewJournal(&r.journal)
	r.w = r.fresh()
	return r
}

func (r *windowRun) fresh() detector.Window {
	return window(r.t, naive.New(naive.Config{}), detector.WindowConfig{Size: r.size, OnEvict: func(id string, _ []detector.Match) {
		if !r.replay {
			r.evicted = append(r.evicted, id)
		}
	}})
}

// check compares the window with the model after step.
func (r *windowRun) check(step string, want []string) {
	r.t.Helper()
	require.Equal(r.t, want, r.evicted, "%s: evicted", step)
	r.evicted = nil
	require.Equal(r.t, len(r.m.docs), r.w.Len(), "%s: Len", step)
}

func (r *windowRun) addAt(id string, pos int64, explicit bool) {
	r.t.Helper()
	d := detector.Doc{ID: id, Text: unique(id)}
	var err error
	if explicit {
		_, err = r.w.AddAt(d, pos)
	} else {
		_, err = r.w.Add(d)
	}
	want, ok := r.m.addAt(id, pos, explicit)
	step := fmt.Sprintf("AddAt(%s, %d, %v)", id, pos, explicit)
	if !ok {
		require.ErrorIs(r.t, err, detector.ErrOutOfOrder, step)
		r.check(step, nil)
		return
	}
	require.NoError(r.t, err, step)
	if explicit {
		require.NoError(r.t, r.j.AddAt(d, pos))
	} else {
		require.NoError(r.t, r.j.Add(d))
	}
	r.check(step, want)
}

func (r *windowRun) expireBefore(pos int64) {
	r.t.Helper()
	n, err := r.w.ExpireBefore(pos)
	require.NoError(r.t, err)
	require.NoError(r.t, r.j.ExpireBefore(pos))
	want := r.m.expireBefore(pos)
	step := fmt.Sprintf("ExpireBefore(%d)", pos)
	require.Equal(r.t, len(want), n, step)
	r.check(step, want)
}

func (r *windowRun) remove(id string) {
	r.t.Helper()
	require.NoError(r.t, r.w.Remove(id))
	require.NoError(r.t, r.j.Remove(id))
	r.m.remove(id)
	r.check("Remove("+id+")", nil)
}

// snapshot writes a snapshot, loads it into a fresh window, which takes
// the old one's place, and restarts the journal.
func (r *windowRun) snapshot() {
	r.t.Helper()
	var b bytes.Buffer
	_, err := r.w.(detector.Persister).WriteTo(&b)
	require.NoError(r.t, err)
	r.snap = b.Bytes()
	r.journal.Reset()
	require.NoError(r.t, r.w.Close())
	r.w = r.fresh()
	_, err = r.w.(detector.Persister).ReadFrom(bytes.NewReader(r.snap))
	require.NoError(r.t, err)
	r.check("snapshot and restore", nil)
}

// restart rebuilds the window from the last snapshot and the journal.
func (r *windowRun) restart() {
	r.t.Helper()
	require.NoError(r.t, r.w.Close())
	r.w = r.fresh()
	if r.snap != nil {
		_, err := r.w.(detector.Persister).ReadFrom(bytes.NewReader(r.snap))
		require.NoError(r.t, err)
	}
	r.replay = true
	_, err := detector.Replay(bytes.NewReader(r.journal.Bytes()), r.w, 0)
	r.replay = false
	require.NoError(r.t, err)
	r.check("restart from snapshot and journal", nil)
}

// positions checks every document's position, destructively: expiring
// before each distinct position plus one evicts exactly the documents at
// it, in order.
func (r *windowRun) positions() {
	r.t.Helper()
	for len(r.m.docs) > 0 {
		p := r.m.docs[0].pos
		if p == math.MaxInt64 {
			break
		}
		r.expireBefore(p + 1)
	}
}

// A Window's documents keep their order and positions through any
// sequence of Add, AddAt, Remove, eviction by Size and by position,
// snapshot and restore, and restart from a snapshot plus the journal.
func TestWindowMatchesModel(t *testing.T) {
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 0x77696e646f77))
		size := []int{0, 1, 3, 8}[seed%4]
		t.Run(fmt.Sprintf("seed%d-size%d", seed, size), func(t *testing.T) {
			r := newWindowRun(t, size)
			defer func() { r.w.Close() }()
			pos := rng.Int64N(2000) - 1000
			next := 0
			// One run in five is long, with few restarts, so that the queue
			// grows past the size at which it compacts.
			ops, long := 150, seed%5 == 0
			if long {
				ops = 1500
			}
			for range ops {
				live := r.m.docs
				op := rng.IntN(20)
				if long && op >= 15 && op < 19 && rng.IntN(40) != 0 {
					op = rng.IntN(15)
				}
				switch {
				case op < 6:
					pos += rng.Int64N(4)
					r.addAt(fmt.Sprintf("d%d", next), pos, true)
					next++
				case op < 8:
					// Before the latest: rejected unless the window is new.
					r.addAt(fmt.Sprintf("d%d", next), pos-1-rng.Int64N(3), true)
					next++
				case op < 10:
					r.addAt(fmt.Sprintf("d%d", next), 0, false)
					next++
				case op < 13 && len(live) > 0:
					// The oldest most often: the case a snapshot got wrong.
					i := 0
					if rng.IntN(2) == 0 {
						i = rng.IntN(len(live))
					}
					r.remove(live[i].id)
				case op < 15:
					p := pos - 2 + rng.Int64N(5)
					r.expireBefore(p)
					pos = max(pos, p)
				case op < 17:
					r.snapshot()
				case op < 19:
					r.restart()
				default:
					// Re-add a removed or evicted ID.
					if next > 0 {
						id := fmt.Sprintf("d%d", rng.IntN(next))
						if !slices.ContainsFunc(r.m.docs, func(d modelDoc) bool { return d.id == id }) {
							pos += rng.Int64N(2)
							r.addAt(id, pos, true)
						}
					}
				}
			}
			r.snapshot()
			r.positions()
		})
	}
}

// A one-day window keyed by Unix time survives a restart from a snapshot
// plus the journal written since, after its oldest documents were removed:
// the restored documents keep their times and none is evicted early.
func TestWindowTimeKeyedRestart(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 1))
	r := newWindowRun(t, 0)
	defer func() { r.w.Close() }()
	now := int64(1_780_000_000)
	const day = 86400
	for i := range 900 {
		now += rng.Int64N(600)
		r.expireBefore(now - day)
		r.addAt(fmt.Sprintf("doc%d", i), now, true)
		if i%100 == 99 && len(r.m.docs) > 1 {
			r.remove(r.m.docs[0].id) // an editor retracts the oldest story
		}
		if i%300 == 299 {
			r.snapshot()
		}
		if i%300 == 150 {
			r.restart()
		}
	}
	require.Greater(t, r.w.Len(), 100)
	r.restart()
	r.positions()
}
