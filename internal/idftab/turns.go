package idftab

import (
	"fmt"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/spin"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Turns orders the Adds and Removes of a detector that owns its Table, so
// that every result is that of the Adds run one by one in the order they
// took their turn, while everything else they do runs in parallel. An Add
// analyses its text without any lock, then [Turns.Enter]s: in its turn it
// is checked again and counted, and learns the document frequencies of its
// terms after its own count, which is all the table it needs. The turn
// ends there: the Add weighs and signs with those numbers, then is
// inserted in turn order by [Turns.Insert], while later turns proceed. A
// Remove takes a turn of its own ([Turns.Remove]), since uncounting
// changes the table the next Add reads.
//
// The turn is a lock of its own, which a detector's read-only methods
// never take. An ID counted in a turn but not yet inserted is pending:
// a second Add of it is refused in its turn, so that the table counts
// each live document once.
type Turns struct {
	pkg   string
	table *Table
	mu    *sync.RWMutex // the detector's lock: guards the engine.Set
	turn  sync.Mutex
	order Order // inserts in turn order, after the turn

	// pending holds the IDs counted in a turn, not yet inserted. Enter
	// writes it in the turn holding mu for reading (turns exclude each
	// other, and Settle, which holds mu exclusively, excludes them).
	pending map[string]struct{}

	// OnCounted, when set (by tests), runs at the end of an Add's turn,
	// after its document is counted and before the turn is released.
	OnCounted func()
}

// Ticket is an Add's place in the turn order and its document's handle in
// the Table.
type Ticket struct {
	n uint64
	h int32
	// N is the number of documents the table counts right after this
	// Add's own count: with the document frequencies Enter returns, the
	// table as the Add weighs it.
	N int64
}

// NewTurns returns Turns over a new Table (smooth as for [New]). pkg
// prefixes errors; mu is the detector's lock, which guards the engine.Set
// given to Enter and is held when the detector calls [Turns.Settle].
func NewTurns(pkg string, smooth bool, mu *sync.RWMutex) *Turns {
	return &Turns{pkg: pkg, table: New(smooth), mu: mu, pending: map[string]struct{}{}}
}

// Table returns the table the Turns order. Outside a turn read it only
// through its read methods (N, Peek, IDF, Live).
func (t *Turns) Table() *Table { return t.table }

// IDFOr returns a copy of the table as it is now ([Table.IDF]), or idf on
// nil Turns (a detector that reads the caller's table, or none).
func (t *Turns) IDFOr(idf *textproc.IDF) *textproc.IDF {
	if t != nil {
		return t.table.IDF()
	}
	return idf
}

// Enter takes the turn for the Add of doc, whose distinct terms are ts
// (packed: Pack(ts.Terms), or the packed string of a live copy of doc, so
// that the table keeps one string for all copies), and checks doc again
// under the detector's lock (docs.Check, and not pending). On success the
// document is pending and counted, df has the document frequency of each
// of its terms after the count appended (in the order of ts.Terms), the
// ticket carries N, and the turn is released: the caller must call Insert
// with the ticket. On failure nothing is counted. The terms ts.Cache does
// not hold are looked up before the turn ([Table.Resolve]).
func (t *Turns) Enter(doc detector.Doc, docs *engine.Set, ts Terms, packed string, df []int64) (Ticket, []int64, error) {
	t.table.Resolve(ts) // before the turn: the turn touches no map
	spin.LockMutex(&t.turn)
	defer t.turn.Unlock()
	// The read lock: the turn is the only writer of pending besides
	// Settle, so an Add's turn does not wait for, nor hold up, the
	// detector's readers (other Adds' checks, Containers).
	spin.RLock(t.mu)
	err := docs.Check(doc)
	if _, dup := t.pending[doc.ID]; dup && err == nil {
		err = fmt.Errorf("%s: Add(%q): %w", t.pkg, doc.ID, detector.ErrDuplicateID)
	}
	if err == nil {
		t.pending[doc.ID] = struct{}{}
	}
	t.mu.RUnlock()
	if err != nil {
		t.table.Forget(ts) // the terms Resolve entered for doc alone
		return Ticket{}, df, err
	}
	h, n, df := t.table.Count(ts, packed, df)
	if t.OnCounted != nil {
		t.OnCounted()
	}
	return Ticket{n: t.order.Ticket(), h: h, N: n}, df, nil
}

// Insert waits until the Adds of earlier turns are inserted, then runs
// insert with the document's handle, which must call Settle under the
// detector's lock. If insert fails (the detector was closed meanwhile),
// the document is uncounted.
func (t *Turns) Insert(tk Ticket, insert func(h int32) ([]detector.Match, error)) ([]detector.Match, error) {
	t.order.Wait(tk.n)
	ms, err := insert(tk.h)
	t.order.Done()
	if err != nil {
		t.turn.Lock()
		t.table.Remove(tk.h)
		t.turn.Unlock()
	}
	return ms, err
}

// Settle ends the pending state of id; call it holding the detector's
// lock exclusively as the document is inserted (or refused). It does
// nothing on nil Turns (a detector without its own table).
func (t *Turns) Settle(id string) {
	if t != nil {
		delete(t.pending, id)
	}
}

// Remove runs remove in a turn of its own, after the Adds of earlier turns
// are inserted, and uncounts the document whose handle it returns.
func (t *Turns) Remove(remove func() (int32, error)) error {
	return t.Do(func() error {
		h, err := remove()
		if err == nil {
			t.table.Remove(h)
		}
		return err
	})
}

// Do runs fn in a turn of its own, after the Adds of earlier turns are
// inserted and before later ones are counted: fn sees the table and the
// index as the Adds run one by one would leave them. A detector's Query
// reads the table in one, and its ReadFrom installs a loaded state (and
// counts its documents) in one.
func (t *Turns) Do(fn func() error) error {
	t.turn.Lock()
	defer t.turn.Unlock()
	tk := t.order.Ticket()
	t.order.Wait(tk) // the Adds of earlier turns are inserted
	defer t.order.Done()
	return fn()
}
