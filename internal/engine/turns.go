package engine

import (
	"fmt"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// addCounted is Add with a Counter: the document is checked again and
// counted in its turn (an ID counted and not yet committed is pending, so
// a second Add of it is refused in its turn and the statistics count each
// live document once), its features are completed after the turn, outside
// every lock, and it is committed in turn order while later turns proceed.
func (e *Engine[F, K]) addCounted(doc detector.Doc, f F) ([]detector.Match, error) {
	if e.resolving {
		e.mu.RLock()
		if r, ok := e.st.ix.(Resolver[F]); ok && !e.st.docs.Closed() {
			r.Resolve(&f, &e.st.groups)
		}
		e.mu.RUnlock()
	}
	e.turn.Lock()
	e.mu.RLock()
	st := e.st
	err := st.docs.Check(doc)
	if _, dup := e.pending[doc.ID]; dup && err == nil {
		err = fmt.Errorf("%s: Add(%q): %w", e.spec.Name, doc.ID, detector.ErrDuplicateID)
	}
	if err == nil {
		// Turns exclude each other and the commit deletes holding mu
		// exclusively: the read lock suffices.
		e.pending[doc.ID] = struct{}{}
	}
	e.mu.RUnlock()
	if err != nil {
		e.turn.Unlock()
		e.release(&f)
		return nil, err
	}
	h := st.counter.Count(&f)
	tk := e.order.ticket()
	e.turn.Unlock()

	st.counter.Complete(&f)
	if !e.late {
		e.release(&f)
	}

	e.order.wait(tk)
	e.lockCommit()
	delete(e.pending, doc.ID)
	ms, err := e.commit(st, doc, &f, h)
	e.mu.Unlock()
	e.order.done()
	if e.late {
		e.release(&f)
	}
	if err != nil { // closed meanwhile
		e.turn.Lock()
		st.counter.Uncount(h)
		e.turn.Unlock()
		return nil, err
	}
	return ms, nil
}

// inTurn runs fn in a turn of its own, after the commits of the earlier
// turns and before later Adds count: fn sees the statistics and the index
// as the Adds run one by one would leave them.
func (e *Engine[F, K]) inTurn(fn func() error) error {
	e.turn.Lock()
	defer e.turn.Unlock()
	tk := e.order.ticket()
	e.order.wait(tk)
	defer e.order.done()
	return fn()
}

// setHandle records the Counter handle of the document idx.
func (st *state[F, K]) setHandle(idx uint32, h int32) {
	if int(idx) >= len(st.handles) {
		st.handles = append(st.handles, make([]int32, int(idx)+1-len(st.handles))...)
	}
	st.handles[idx] = h
}

// order lets the holders of the turn finish their commit after they
// release it, one at a time, in the order they held it: each takes a
// ticket in its turn, waits for it before its commit and calls done after.
type order struct {
	mu             sync.Mutex
	cond           sync.Cond
	next, finished uint64
}

func (o *order) ticket() uint64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	t := o.next
	o.next++
	return t
}

func (o *order) wait(t uint64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.cond.L == nil {
		o.cond.L = &o.mu
	}
	for o.finished != t {
		o.cond.Wait()
	}
}

func (o *order) done() {
	o.mu.Lock()
	o.finished++
	if o.cond.L != nil {
		o.cond.Broadcast()
	}
	o.mu.Unlock()
}
