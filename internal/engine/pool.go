package engine

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Pool keeps the workers (a detector's Signers, say) of calls in progress
// for reuse: as many as are in use at once, and at least Max (GOMAXPROCS
// when Max is 0), so that memory follows the parallelism in use. Set New,
// which makes a worker, and optionally Tidy, which readies a used one for
// reuse, Keep, which says whether a worker is still worth keeping (asked
// when it is put back and when it is taken idle), and Max, before the
// first Get. A Pool is safe for concurrent use.
//
// A Get returns, where it can, the worker last put back on the processor
// it runs on, whose caches (an analyser's vocabulary, scratch buffers) are
// then still warm. Unlike a [sync.Pool] alone, a Pool never drops an idle
// worker at a garbage collection: a worker's warm caches cost a stream of
// documents to rebuild. When fewer calls run at once, each Put of a worker
// beyond that number (and Max) drops it.
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
	inUse  atomic.Int64 // workers handed out and not put back
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
	w, err := p.get()
	if err == nil {
		p.inUse.Add(1)
	}
	return w, err
}

func (p *Pool[W]) get() (W, error) {
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

// Put tidies w, a worker Get returned, and keeps it for reuse on this
// processor, unless the Pool is closed, Keep refuses it, or more workers
// are kept than the larger of Max and the number in use with w.
func (p *Pool[W]) Put(w W) {
	if p.Tidy != nil {
		p.Tidy(w)
	}
	keep := p.keep(w)
	limit := max(p.max(), p.release()+1)
	p.mu.Lock()
	s := p.kept[w]
	switch {
	case s != nil && (!keep || len(p.kept) > limit):
		delete(p.kept, w)
		s = nil
	case s == nil && keep && !p.closed.Load() && len(p.kept) < limit:
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

// release counts a worker put back and returns how many are still in
// use; a worker Get did not hand out (a seed) counts nothing.
func (p *Pool[W]) release() int {
	for {
		n := p.inUse.Load()
		if n == 0 {
			return 0
		}
		if p.inUse.CompareAndSwap(n, n-1) {
			return int(n - 1)
		}
	}
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
