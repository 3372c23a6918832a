package liveidf

import "sync"

// Order lets the holders of a lock finish part of their work after they
// release it, still one at a time and in the order they held it: each takes
// a ticket while holding the lock, and later waits for its ticket before the
// ordered part and calls Done after it. A detector uses it to insert
// documents in the order their turns counted them, while the next turn
// proceeds. The zero Order is ready to use.
type Order struct {
	mu         sync.Mutex
	cond       *sync.Cond
	next, done uint64
}

// Ticket returns the next ticket. Call it while holding the lock whose
// order is kept.
func (o *Order) Ticket() uint64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	t := o.next
	o.next++
	return t
}

// Wait blocks until every earlier ticket is Done.
func (o *Order) Wait(t uint64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.cond == nil {
		o.cond = sync.NewCond(&o.mu)
	}
	for o.done != t {
		o.cond.Wait()
	}
}

// Done ends the ordered part of the current ticket (the one Wait returned
// for), letting the next proceed.
func (o *Order) Done() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.done++
	if o.cond != nil {
		o.cond.Broadcast()
	}
}
