package engine

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Pool keeps idle workers (a detector's Signers, say) for reuse: up to
// 4·GOMAXPROCS of them, in a buffered channel. Unlike a [sync.Pool], it
// never drops an idle worker at a garbage collection: a worker's warm
// caches (an analyser's vocabulary) cost a stream of documents to rebuild.
// Before the first Get, set New, which makes a worker, and optionally
// Tidy, which readies a used one for reuse, and Keep, which says whether a
// worker is still worth keeping (asked when it is put back and when it is
// taken idle). A Pool is safe for concurrent use.
//
// Measured on BenchmarkServe (docs/notes/engine.md): as fast as a pool of
// per-processor lists, and 1.31 times the Queries per second from 8
// goroutines for simhash-spots; a sync.Pool, which drops idle workers at
// collections, cost 14% more CPU per Query from one goroutine there.
type Pool[W any] struct {
	New  func() (W, error)
	Tidy func(W)
	Keep func(W) bool

	once   sync.Once
	idle   chan W
	closed atomic.Bool
}

func (p *Pool[W]) ch() chan W {
	p.once.Do(func() { p.idle = make(chan W, 4*runtime.GOMAXPROCS(0)) })
	return p.idle
}

// Get returns an idle worker Keep still takes, or a new one.
func (p *Pool[W]) Get() (W, error) {
	for !p.closed.Load() {
		var w W
		select {
		case w = <-p.ch():
		default:
			return p.New()
		}
		if p.keep(w) {
			return w, nil
		}
	}
	return p.New()
}

func (p *Pool[W]) keep(w W) bool { return p.Keep == nil || p.Keep(w) }

// Put tidies w, a worker Get returned, and keeps it for reuse, unless the
// Pool is closed, Keep refuses it, or as many workers are idle as the
// Pool keeps.
func (p *Pool[W]) Put(w W) {
	if p.Tidy != nil {
		p.Tidy(w)
	}
	if p.closed.Load() || !p.keep(w) {
		return
	}
	select {
	case p.ch() <- w:
		if p.closed.Load() { // a Close ran since the check: nothing else drains
			p.drain()
		}
	default:
	}
}

// Close drops the idle workers; later Gets make new ones and later Puts
// drop theirs.
func (p *Pool[W]) Close() {
	p.closed.Store(true)
	p.drain()
}

// drain takes every idle worker out of the Pool and returns them.
func (p *Pool[W]) drain() []W {
	var ws []W
	for {
		select {
		case w := <-p.ch():
			ws = append(ws, w)
		default:
			return ws
		}
	}
}

// Idle returns the idle workers, for tests; the caller must not keep them
// while others use the Pool.
func (p *Pool[W]) Idle() []W {
	ws := p.drain()
	for _, w := range ws {
		select {
		case p.ch() <- w:
		default:
		}
	}
	return ws
}
