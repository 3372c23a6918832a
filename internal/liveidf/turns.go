package liveidf

import (
	"fmt"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Turns orders the Adds and Removes of a detector that owns its Table, so
// that every result is that of the Adds run one by one in the order they
// took their turn, while their analysis runs in parallel. An Add analyses
// its text without any lock, then [Turns.Enter]s: in its turn it is checked
// again, counted, and weighed against the table as it now is (by the
// caller, between Enter and [Turns.Leave]); it is then inserted in turn
// order by [Turns.Insert], while the next turn proceeds. A Remove takes a
// turn of its own ([Turns.Remove]), since uncounting changes the table the
// next Add reads.
//
// The turn is a lock of its own, which a detector's read-only methods
// never take. An ID counted in a turn but not yet inserted is pending:
// a second Add of it is refused in its turn, so that the table counts
// each live document once.
type Turns struct {
	pkg   string
	table *Table
	mu    sync.Locker // the detector's lock: guards pending and the docset
	turn  sync.Mutex
	order Order // inserts in turn order, after the turn

	pending map[string]struct{} // IDs counted in a turn, not yet inserted
}

// Ticket is an Add's place in the turn order and its document's handle in
// the Table.
type Ticket struct {
	n uint64
	h int32
}

// NewTurns returns Turns over a new Table (smooth as for [New]). pkg
// prefixes errors; mu is the detector's lock, which guards the docset
// given to Enter and is held when the detector calls [Turns.Settle].
func NewTurns(pkg string, smooth bool, mu sync.Locker) *Turns {
	return &Turns{pkg: pkg, table: New(smooth), mu: mu, pending: map[string]struct{}{}}
}

// Table returns the table the Turns order. Read it outside a turn only
// through its IDF, which may be replaced by the next Remove.
func (t *Turns) Table() *Table { return t.table }

// IDFOr returns the table's current IDF, or idf on nil Turns (a detector
// that reads the caller's table, or none).
func (t *Turns) IDFOr(idf *textproc.IDF) *textproc.IDF {
	if t != nil {
		return t.table.IDF()
	}
	return idf
}

// Enter takes the turn for the Add of doc, whose distinct terms are terms,
// and checks doc again under the detector's lock (docs.Check, and not
// pending). On success the document is pending and counted, the caller
// holds the turn and must call Leave, then Insert with the ticket; on
// failure the turn is released.
func (t *Turns) Enter(doc detector.Doc, docs *docset.Set, terms []string) (Ticket, error) {
	return t.EnterPacked(doc, docs, terms, Pack(terms))
}

// EnterPacked is Enter with the terms already packed (packed ==
// Pack(terms)): a detector that collapses exact copies passes the packed
// string of a live copy, so that the table keeps one string for all of
// them.
func (t *Turns) EnterPacked(doc detector.Doc, docs *docset.Set, terms []string, packed string) (Ticket, error) {
	t.turn.Lock()
	t.mu.Lock()
	err := docs.Check(doc)
	if _, dup := t.pending[doc.ID]; dup && err == nil {
		err = fmt.Errorf("%s: Add(%q): %w", t.pkg, doc.ID, detector.ErrDuplicateID)
	}
	if err == nil {
		t.pending[doc.ID] = struct{}{}
	}
	t.mu.Unlock()
	if err != nil {
		t.turn.Unlock()
		return Ticket{}, err
	}
	h := t.table.AddPacked(terms, packed)
	return Ticket{n: t.order.Ticket(), h: h}, nil
}

// IDF returns the table as it is in the current turn: call it between
// Enter and Leave, and do not keep it past Leave.
func (t *Turns) IDF() *textproc.IDF { return t.table.IDF() }

// Leave releases the turn Enter took.
func (t *Turns) Leave() { t.turn.Unlock() }

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
// lock as the document is inserted (or refused). It does nothing on nil
// Turns (a detector without its own table).
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
