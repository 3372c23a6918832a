package engine

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

func TestPool(t *testing.T) {
	made, tidied := 0, 0
	p := Pool[*int]{
		New:  func() (*int, error) { made++; v := made; return &v, nil },
		Tidy: func(*int) { tidied++ },
	}
	a, err := p.Get()
	require.NoError(t, err)
	p.Put(a)
	b, err := p.Get()
	require.NoError(t, err)
	assert.Same(t, a, b, "an idle worker is reused")
	assert.Equal(t, 1, made)
	assert.Equal(t, 1, tidied)
	p.Put(b)
	keeps := 4 * runtime.GOMAXPROCS(0)
	var ws []*int
	for range keeps + 3 {
		w, err := p.Get()
		require.NoError(t, err)
		ws = append(ws, w)
	}
	assert.Empty(t, p.Idle(), "every kept worker is out")
	// A worker put back is reused by the next Get, however many are out.
	before := made
	for range 3 {
		for i := range ws {
			p.Put(ws[i])
			ws[i], err = p.Get()
			require.NoError(t, err)
		}
	}
	assert.Equal(t, before, made, "no new worker while the others are out")
	for _, w := range ws {
		p.Put(w)
	}
	assert.Len(t, p.Idle(), keeps, "at most 4·GOMAXPROCS workers kept")
	p.Close()
	assert.Empty(t, p.Idle())
	p.Put(b)
	assert.Empty(t, p.Idle(), "a closed Pool keeps nothing")
	c, err := p.Get()
	require.NoError(t, err)
	assert.NotContains(t, ws, c, "a closed Pool hands out new workers")

	bad := Pool[*int]{New: func() (*int, error) { return nil, errors.New("no") }}
	_, err = bad.Get()
	assert.Error(t, err)
}

// TestPoolKeep: a worker Keep refuses is dropped when it is put back, and
// an idle one that Keep has come to refuse is dropped when taken.
func TestPoolKeep(t *testing.T) {
	made := 0
	limit := 10
	p := Pool[*int]{
		New:  func() (*int, error) { made++; v := made; return &v, nil },
		Keep: func(w *int) bool { return *w <= limit },
	}
	var ws []*int
	for range 5 {
		w, err := p.Get()
		require.NoError(t, err)
		ws = append(ws, w)
	}
	*ws[0] = 100 // grew past the limit while in use
	for _, w := range ws {
		p.Put(w)
	}
	assert.ElementsMatch(t, ws[1:], p.Idle(), "Keep refuses the first")
	limit = 2 // the kept 3, 4 and 5 are now refused too
	var got []int
	for range 3 {
		w, err := p.Get()
		require.NoError(t, err)
		got = append(got, *w)
	}
	assert.ElementsMatch(t, []int{2, 6, 7}, got, "the one kept worker Keep still takes, then new ones")
	assert.Empty(t, p.Idle())
	assert.Equal(t, 7, made, "two new workers where the refused ones were dropped")
}

// TestPoolConcurrent: workers handed out at once are distinct, from
// several goroutines with collections between, which drop no idle worker.
func TestPoolConcurrent(t *testing.T) {
	var made atomic.Int64
	p := Pool[*[64]int64]{New: func() (*[64]int64, error) { made.Add(1); return new([64]int64), nil }}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 2000 {
				w, err := p.Get()
				if !assert.NoError(t, err) {
					return
				}
				w[0]++ // the race detector sees two users of one worker
				if w[1] != 0 {
					t.Errorf("worker in use twice")
				}
				w[1] = int64(g + 1)
				runtime.Gosched() // let another user, if any, see or overwrite it
				if w[1] != int64(g+1) {
					t.Errorf("worker in use twice")
				}
				w[1] = 0
				if i%500 == 0 {
					runtime.GC()
				}
				p.Put(w)
			}
		})
	}
	wg.Wait()
	assert.LessOrEqual(t, len(p.Idle()), 4*runtime.GOMAXPROCS(0))
	before := made.Load()
	runtime.GC()
	runtime.GC()
	for range len(p.Idle()) {
		w, err := p.Get()
		require.NoError(t, err)
		defer p.Put(w)
	}
	assert.Equal(t, before, made.Load(), "idle workers survive collections")
}

func TestVocab(t *testing.T) {
	an, err := textproc.NewAnalyzer(textproc.Config{})
	require.NoError(t, err)
	v := NewVocab(4)
	v.Grow(3)
	v.Begin(3)
	assert.True(t, v.First(0))
	assert.False(t, v.First(0), "a second occurrence in one document")
	assert.True(t, v.First(1))
	v.Begin(2)
	assert.True(t, v.First(0), "a new document")
	assert.True(t, v.First(2))
	assert.False(t, v.Big(4))
	assert.True(t, v.Big(5))
	old := an
	assert.False(t, v.Renew(&an, textproc.Config{}, 4, false), "5 tokens, an empty analyzer: within the limit")
	assert.Same(t, old, an)
	require.True(t, v.Renew(&an, textproc.Config{}, 4, true), "a big document starts afresh")
	assert.NotSame(t, old, an)
	assert.Zero(t, v.Bytes(), "the per-term counts are dropped")
	assert.Equal(t, 4, v.limit, "one term recurred: the floor wins")

	v = NewVocab(1)
	v.Grow(3)
	for range 6 {
		v.Begin(3)
		for id := range uint32(3) {
			v.First(id)
		}
	}
	require.True(t, v.Renew(&an, textproc.Config{}, 1, false), "18 tokens: over 16 times the limit of 1")
	assert.Equal(t, 6, v.limit, "three recurring terms: a limit of 6")
}

// TestPoolKeepConcurrent: with Keep retiring workers after a few uses,
// new workers are kept all the time, and a worker just kept must not be
// handed out while its Put is still releasing it.
func TestPoolKeepConcurrent(t *testing.T) {
	type worker struct {
		users atomic.Int32
		uses  int
	}
	p := Pool[*worker]{
		New:  func() (*worker, error) { return &worker{}, nil },
		Keep: func(w *worker) bool { return w.uses < 7 },
	}
	var twice atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20000 {
				w, err := p.Get()
				if !assert.NoError(t, err) {
					return
				}
				if w.users.Add(1) != 1 {
					twice.Add(1)
				}
				w.uses++
				w.users.Add(-1)
				p.Put(w)
			}
		})
	}
	wg.Wait()
	assert.Zero(t, twice.Load(), "workers handed to two goroutines at once")
}

// A Put that a Close overtakes between its check and its send does not
// leave the worker in the closed Pool, which nothing drains again. Keep
// runs between the two, so a Keep that closes the Pool forces the order.
func TestPoolPutRacingClose(t *testing.T) {
	var p Pool[*int]
	p.New = func() (*int, error) { return new(int), nil }
	w, err := p.Get()
	require.NoError(t, err)
	p.Keep = func(*int) bool { p.Close(); return true }
	p.Put(w)
	assert.Empty(t, p.ch())
}
