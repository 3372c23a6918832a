package scratch

import (
	"runtime"
	"sync"
)

// Pool keeps the workers (a detector's Signers, say) of calls in progress
// for reuse: at most GOMAXPROCS idle ones, so that memory follows the
// parallelism in use. Set New, which makes a worker, and Tidy, which
// readies a used one for reuse (it may be nil), before the first Get. A
// Pool is safe for concurrent use.
type Pool[W any] struct {
	New  func() (W, error)
	Tidy func(W)

	mu     sync.Mutex
	free   []W
	closed bool
}

// Get returns an idle worker, or a new one.
func (p *Pool[W]) Get() (W, error) {
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		w := p.free[n-1]
		var zero W
		p.free[n-1] = zero
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return w, nil
	}
	p.mu.Unlock()
	return p.New()
}

// Put tidies w and keeps it for reuse, unless the Pool is closed or holds
// GOMAXPROCS idle workers already.
func (p *Pool[W]) Put(w W) {
	if p.Tidy != nil {
		p.Tidy(w)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed && len(p.free) < runtime.GOMAXPROCS(0) {
		p.free = append(p.free, w)
	}
}

// Close drops the idle workers; later ones given to Put are dropped too.
func (p *Pool[W]) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.free, p.closed = nil, true
}

// Idle returns the idle workers, for tests; the caller must not keep them
// while others use the Pool.
func (p *Pool[W]) Idle() []W {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]W(nil), p.free...)
}
