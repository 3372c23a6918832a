package idftab

import (
	"sync"
	"sync/atomic"

	"github.com/seed-9ef9c1df/neardup/internal/spin"
)

// Order lets the holders of a lock finish part of their work after they
// release it, still one at a time and in the order they held it: each takes
// a ticket while holding the lock, and later waits for its ticket before the
// ordered part and calls Done after it. A detector uses it to insert
// documents in the order their turns counted them, while the next turn
// proceeds. A waiter yields a few times (spin.Yields) before it blocks.
// The zero Order is ready to use.
type Order struct {
	next atomic.Uint64 // the next ticket; taken under the caller's lock
	done atomic.Uint64 // the tickets done

	mu      sync.Mutex // guards cond and waiting
	cond    *sync.Cond
	waiting int // blocked waiters
}

// Ticket returns the next ticket. Call it while holding the lock whose
// order is kept.
func (o *Order) Ticket() uint64 { return o.next.Add(1) - 1 }

// Wait blocks until every earlier ticket is Done.
func (o *Order) Wait(t uint64) {
	if spin.Until(func() bool { return o.done.Load() == t }) {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.cond == nil {
		o.cond = sync.NewCond(&o.mu)
	}
	o.waiting++
	for o.done.Load() != t {
		o.cond.Wait()
	}
	o.waiting--
}

// Done ends the ordered part of the current ticket (the one Wait returned
// for), letting the next proceed.
func (o *Order) Done() {
	o.mu.Lock()
	o.done.Add(1)
	if o.waiting > 0 {
		o.cond.Broadcast()
	}
	o.mu.Unlock()
}
