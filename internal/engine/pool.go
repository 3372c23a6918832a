package engine

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Pool keeps the workers (a detector's Signers, say) of calls in progress
// for reuse: at most Max of them (GOMAXPROCS when Max is 0), so that
// memory follows the parallelism in use. Set New, which makes a worker,
// and optionally Tidy, which readies a used one for reuse, Keep, which
// says whether a worker is still worth keeping (asked when it is put back
// and when it is taken idle), and Max, before the first Get. A Pool is
// safe for concurrent use.
//
// Idle workers are handed out by processor: a Get returns, where it can,
// the worker last put back on the processor it runs on, whose caches
// (an analyser's vocabulary, scratch buffers) are then still in that
// core's cache. A worker that goes from core to core pulls its whole
// working set across with it: on a 2-core machine, imatch's and
// simhash's Adds from 2 goroutines ran 1.23-1.55 times as fast as from
// one with a single shared free list, and 1.47-1.72 times with this one
// (three passes each, docs/concurrency.md). Unlike a [sync.Pool] alone, a Pool never drops an
// idle worker at a garbage collection: a worker's warm caches cost a
// stream of documents to rebuild.
type Pool[W comparable] struct {
	New  func() (W, error)
	Tidy func(W)
	Keep func(W) bool
	Max  int

	// local holds the idle workers' slots by processor. It is only a
	// hint: a slot in it may be busy (taken by a Get on another
	// processor) or forgotten, and the collector may drop it; kept is
	// the list every idle worker is found in.
	local  sync.Pool
	mu     sync.Mutex
	kept   map[W]*slot[W]
	closed atomic.Bool
}

// slot is a kept worker; busy is set by the Get that takes it.
type slot[W any] struct {
	w    W
	busy atomic.Bool
}

// take claims s for one caller.
func (s *slot[W]) take() bool { return s.busy.CompareAndSwap(false, true) }

// Get returns an idle worker, the one last put back on this processor
// where it can, or a new one.
func (p *Pool[W]) Get() (W, error) {
	if !p.closed.Load() {
		if s, _ := p.local.Get().(*slot[W]); s != nil && s.take() {
			if p.keep(s.w) {
				return s.w, nil
			}
			p.forget(s)
		}
		if w, ok := p.anyIdle(); ok {
			return w, nil
		}
	}
	return p.New()
}

// anyIdle takes an idle worker from the kept list, forgetting those Keep
// refuses on the way.
func (p *Pool[W]) anyIdle() (W, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for w, s := range p.kept {
		if !s.take() {
			continue
		}
		if p.keep(w) {
			return w, true
		}
		delete(p.kept, w)
	}
	var zero W
	return zero, false
}

// forget drops the taken slot s from the kept list.
func (p *Pool[W]) forget(s *slot[W]) {
	p.mu.Lock()
	if p.kept[s.w] == s {
		delete(p.kept, s.w)
	}
	p.mu.Unlock()
}

func (p *Pool[W]) keep(w W) bool { return p.Keep == nil || p.Keep(w) }

// Put tidies w and keeps it for reuse on this processor, unless the Pool
// is closed, Keep refuses it, or it is a new worker and Max are kept
// already.
func (p *Pool[W]) Put(w W) {
	if p.Tidy != nil {
		p.Tidy(w)
	}
	keep := p.keep(w)
	p.mu.Lock()
	s := p.kept[w]
	switch {
	case s != nil && !keep:
		delete(p.kept, w)
		s = nil
	case s == nil && keep && !p.closed.Load() && len(p.kept) < p.max():
		if p.kept == nil {
			p.kept = make(map[W]*slot[W])
		}
		s = &slot[W]{w: w}
		s.busy.Store(true) // ours until released below, like a taken slot
		p.kept[w] = s
	}
	p.mu.Unlock()
	if s == nil {
		return
	}
	s.busy.Store(false) // from here another Get may take it
	p.local.Put(s)
}

func (p *Pool[W]) max() int {
	if p.Max > 0 {
		return p.Max
	}
	return runtime.GOMAXPROCS(0)
}

// Close drops the idle workers; later Gets make new ones and later Puts
// drop theirs.
func (p *Pool[W]) Close() {
	p.closed.Store(true)
	p.mu.Lock()
	p.kept = nil
	p.mu.Unlock()
}

// Idle returns the idle workers, for tests; the caller must not keep them
// while others use the Pool.
func (p *Pool[W]) Idle() []W {
	p.mu.Lock()
	defer p.mu.Unlock()
	var ws []W
	for w, s := range p.kept {
		if !s.busy.Load() {
			ws = append(ws, w)
		}
	}
	return ws
}
