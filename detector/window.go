package detector

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"

	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// ErrOutOfOrder is returned by [Window.AddAt] for a position before the
// window's latest one.
var ErrOutOfOrder = errors.New("position before the window's latest")

// WindowConfig configures [NewWindow].
type WindowConfig struct {
	// Size is the most documents the window keeps: an Add that makes one
	// more evicts the oldest. 0 means no bound on the count; documents
	// then leave only through [Window.ExpireBefore] or Remove.
	Size int
	// OnEvict, if not nil, is called once for each document the window
	// evicts (by Size or ExpireBefore, not by Remove or Close), with the
	// containers the member reported for it just before it was removed:
	// every relation found for it over its life in the window. It is
	// called after the window's locks are released, in the goroutine whose
	// call evicted the document, oldest first; it may call the window.
	// With several goroutines adding, calls for different documents may
	// run at once.
	OnEvict func(id string, containers []Match)
}

// Window is a detector that keeps a bounded window of the documents of its
// member, as a stream service needs (Varol et al. 2011 §3.3, "time
// window"): the last [WindowConfig.Size] documents, or those whose
// caller-supplied position (a publication time, a sequence number) is not
// before the bound given to ExpireBefore, or both. Before it evicts a
// document the window hands its final containers to
// [WindowConfig.OnEvict], so containment found after the document was
// added is not lost with it.
//
// Positions are int64 values that never decrease: [Window.AddAt] takes
// one (any value in a new window), Add uses the latest position so far (0
// in a new window), so a window used with Add alone is a count window. A document's position only
// orders eviction; it does not change what the member reports.
//
// A Window is safe for concurrent use if its member is. Adds, Removes and
// evictions are serialised (the member sees documents in position order,
// so eviction and a journal replay agree); Containers, Query and Copies
// run concurrently with them. The Window returned by [NewWindow]
// implements [Querier], [Persister] and [CopyLister] exactly when its
// member does; its snapshot holds the window's own state (the documents'
// order and positions) and the member's snapshot as a section. A service
// journals a window's calls with [Journal.AddAt] and
// [Journal.ExpireBefore] (Add and Remove as for any detector), and
// [Replay] applies them.
type Window interface {
	Detector
	Remover
	// Len returns the number of documents in the window.
	Len() int
	// AddAt adds d at position pos, which must not be before the latest
	// position of the window (the last AddAt's, or an ExpireBefore bound) (an error wrapping [ErrOutOfOrder]), evicts
	// the oldest documents beyond Size and returns what Add returns: the
	// member's matches among the window's documents. A document evicted by
	// this call may be among them: it was in the window when d arrived.
	AddAt(d Doc, pos int64) ([]Match, error)
	// ExpireBefore evicts every document whose position is before pos and
	// returns how many it evicted. pos becomes the window's latest
	// position if it is later, so later AddAt calls cannot go behind it.
	ExpireBefore(pos int64) (int, error)
}

// NewWindow returns a window over member, which must implement [Remover]
// (otherwise the error wraps [ErrInvalidConfig] and
// [errors.ErrUnsupported]). A negative Size or a nil member is an error
// wrapping ErrInvalidConfig. The window owns member from then on: Close
// closes it, and documents added to member directly are not the window's.
func NewWindow(member Detector, cfg WindowConfig) (Window, error) {
	switch {
	case isNil(member):
		return nil, fmt.Errorf("detector: Window: member is nil: %w", ErrInvalidConfig)
	case cfg.Size < 0:
		return nil, fmt.Errorf("detector: Window: Size (%d) must be ≥ 0: %w", cfg.Size, ErrInvalidConfig)
	}
	rm, ok := member.(Remover)
	if !ok {
		return nil, fmt.Errorf("detector: Window: %T cannot remove: %w (%w)", member, ErrInvalidConfig, errors.ErrUnsupported)
	}
	w := &window{member: member, rm: rm, cfg: cfg, live: map[string]slot{}}
	return windowView(w, capsOf(member)&^canRemove), nil
}

// windowCore is what every view of a window exposes.
type windowCore interface {
	Window
	members() []Detector
	lister
}

// window implements Window.
type window struct {
	member Detector
	rm     Remover
	cfg    WindowConfig

	write sync.Mutex // orders Adds, Removes, evictions and snapshots

	mu      sync.RWMutex // guards the fields below
	closed  bool
	live    map[string]slot // the window's documents
	queue   []slot          // in eviction order; a slot not in live is stale
	head    int             // queue[:head] is gone
	peak    int             // the most documents compact has seen in live since it was made
	latest  int64           // meaningful once started
	started bool            // an AddAt, Add or ExpireBefore has set latest
	serial  uint64
}

// slot is a document's place in the window. serial tells a re-added ID
// from its stale slot.
type slot struct {
	id     string
	pos    int64
	serial uint64
}

// evicted is a document evicted, with its final containers.
type evicted struct {
	id         string
	containers []Match
}

var _ combinator = (*window)(nil)

func (w *window) members() []Detector { return []Detector{w.member} }

// Len implements Window.
func (w *window) Len() int {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return len(w.live)
}

// holds reports whether id is in the window.
func (w *window) holds(id string) bool {
	w.mu.RLock()
	defer w.mu.RUnlock()
	_, ok := w.live[id]
	return ok
}

// ids returns the window's documents, in no order.
func (w *window) ids() []string {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return slices.Collect(maps.Keys(w.live))
}

// check returns the error of an ID that op cannot use (see checkID).
func (w *window) check(op, id string, wantLive bool) error {
	w.mu.RLock()
	defer w.mu.RUnlock()
	_, live := w.live[id]
	return checkID("Window", op, id, w.closed, live, wantLive)
}

// Add implements Detector: AddAt at the latest position.
func (w *window) Add(d Doc) ([]Match, error) { return w.addAt("Add", d, 0, false) }

// AddAt implements Window.
func (w *window) AddAt(d Doc, pos int64) ([]Match, error) { return w.addAt("AddAt", d, pos, true) }

func (w *window) addAt(op string, d Doc, pos int64, explicit bool) ([]Match, error) {
	if err := w.check(op, d.ID, false); err != nil {
		return nil, err
	}
	w.write.Lock()
	if err := w.check(op, d.ID, false); err != nil {
		w.write.Unlock()
		return nil, err
	}
	w.mu.RLock()
	latest, started := w.latest, w.started
	w.mu.RUnlock()
	if !explicit {
		pos = latest
	} else if started && pos < latest {
		w.write.Unlock()
		return nil, fmt.Errorf("detector: Window: AddAt(%q, %d): the latest position is %d: %w", d.ID, pos, latest, ErrOutOfOrder)
	}
	ms, err := w.member.Add(d)
	if err != nil {
		w.write.Unlock()
		return nil, fmt.Errorf("detector: Window: %w", err)
	}
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		w.write.Unlock()
		return nil, fmt.Errorf("detector: Window: %s(%q): %w", op, d.ID, ErrClosed)
	}
	w.serial++
	s := slot{id: d.ID, pos: pos, serial: w.serial}
	w.live[d.ID] = s
	w.queue = append(w.queue, s)
	w.latest, w.started = pos, true
	w.mu.Unlock()
	ms = w.keepLive(ms)
	gone, err := w.evict(func(s slot) bool { return w.cfg.Size > 0 && w.Len() > w.cfg.Size })
	w.write.Unlock()
	w.hand(gone)
	if err != nil {
		return nil, fmt.Errorf("detector: Window: %s(%q) added it, then: %w", op, d.ID, err)
	}
	return ms, nil
}

// ExpireBefore implements Window.
func (w *window) ExpireBefore(pos int64) (int, error) {
	w.write.Lock()
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		w.write.Unlock()
		return 0, fmt.Errorf("detector: Window: ExpireBefore(%d): %w", pos, ErrClosed)
	}
	if !w.started || pos > w.latest {
		w.latest, w.started = pos, true
	}
	w.mu.Unlock()
	gone, err := w.evict(func(s slot) bool { return s.pos < pos })
	w.write.Unlock()
	w.hand(gone)
	if err != nil {
		return len(gone), fmt.Errorf("detector: Window: ExpireBefore(%d): %w", pos, err)
	}
	return len(gone), nil
}

// evict removes the oldest documents while more(oldest) holds, asking the
// member for each one's containers first. w.write is held.
func (w *window) evict(more func(oldest slot) bool) ([]evicted, error) {
	var gone []evicted
	for {
		s, ok := w.oldest()
		if !ok || !more(s) {
			return gone, nil
		}
		cs, err := w.member.Containers(s.id)
		if err != nil {
			return gone, err
		}
		if err := w.rm.Remove(s.id); err != nil {
			return gone, err
		}
		w.mu.Lock()
		delete(w.live, s.id)
		w.head++
		w.compact()
		w.mu.Unlock()
		gone = append(gone, evicted{s.id, w.keepLive(cs)})
	}
}

// oldest returns the oldest live slot, dropping stale ones and compacting
// the queue as it goes.
func (w *window) oldest() (slot, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.head < len(w.queue) {
		s := w.queue[w.head]
		if l, ok := w.live[s.id]; ok && l.serial == s.serial {
			return s, true
		}
		w.head++
	}
	w.compact()
	return slot{}, false
}

// compact drops the gone and stale slots once they are at least half of
// the queue: O(queue) at most once per about len(live) evictions or
// removals, so O(1) amortised per Add. It moves the slots to a new array
// when the old one has room for more than four times the live documents,
// and rebuilds the live map once it holds under a quarter of its peak (a
// Go map never shrinks), so the memory the window keeps follows its live
// documents, not the Adds it has seen. w.mu is held.
func (w *window) compact() {
	n := len(w.live)
	w.peak = max(w.peak, n)
	if w.peak >= 1024 && n < w.peak/4 {
		live := make(map[string]slot, n)
		for id, s := range w.live {
			live[id] = s
		}
		w.live, w.peak = live, n
	}
	if len(w.queue) < 64 || len(w.queue) < 2*(n+1) {
		return
	}
	inPlace := cap(w.queue) <= 4*(n+16)
	kept := w.queue[:0]
	if !inPlace {
		kept = make([]slot, 0, 2*(n+16))
	}
	for _, s := range w.queue[w.head:] {
		if l, ok := w.live[s.id]; ok && l.serial == s.serial {
			kept = append(kept, s)
		}
	}
	if inPlace {
		clear(w.queue[len(kept):]) // the IDs of gone slots
	}
	w.queue, w.head = kept, 0
}

// hand passes evicted documents to OnEvict.
func (w *window) hand(gone []evicted) {
	if w.cfg.OnEvict == nil {
		return
	}
	for _, e := range gone {
		w.cfg.OnEvict(e.id, e.containers)
	}
}

// keepLive drops matches that are not (or not yet) in the window.
func (w *window) keepLive(ms []Match) []Match {
	w.mu.RLock()
	defer w.mu.RUnlock()
	out := make([]Match, 0, len(ms))
	for _, m := range ms {
		if _, ok := w.live[m.ID]; ok {
			out = append(out, m)
		}
	}
	return out
}

// Containers implements Detector.
func (w *window) Containers(id string) ([]Match, error) {
	if err := w.check("Containers", id, true); err != nil {
		return nil, err
	}
	ms, err := w.member.Containers(id)
	if err != nil {
		return nil, fmt.Errorf("detector: Window: %w", err)
	}
	return w.keepLive(ms), nil
}

// Remove implements Remover. OnEvict is not called.
func (w *window) Remove(id string) error {
	w.write.Lock()
	defer w.write.Unlock()
	if err := w.check("Remove", id, true); err != nil {
		return err
	}
	if err := w.rm.Remove(id); err != nil {
		return fmt.Errorf("detector: Window: %w", err)
	}
	w.mu.Lock()
	delete(w.live, id)
	w.compact()
	w.mu.Unlock()
	return nil
}

// Query implements Querier when the member does.
func (w *window) Query(d Doc) ([]Match, error) {
	ms, err := forward("Window", "query", fmt.Sprintf("Query(%q)", d.ID), w.member, w.isClosed,
		func(q Querier) ([]Match, error) { return q.Query(d) })
	if err != nil {
		return nil, err
	}
	return w.keepLive(ms), nil
}

// Nearest implements Ranker when the member does: the member's ranking,
// which holds the window's live documents only.
func (w *window) Nearest(text string, k int) ([]Match, error) {
	ms, err := forward("Window", "rank", "Nearest", w.member, w.isClosed,
		func(r Ranker) ([]Match, error) { return r.Nearest(text, k) })
	if err != nil {
		return nil, err
	}
	return w.keepLive(ms), nil
}

// isClosed reports whether Close has been called.
func (w *window) isClosed() bool {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.closed
}

// Copies implements CopyLister when the member does.
func (w *window) Copies(id string) ([]string, error) {
	cl, ok := w.member.(CopyLister)
	if !ok {
		return nil, errUnsupported("Window", "list copies", w.member)
	}
	if err := w.check("Copies", id, true); err != nil {
		return nil, err
	}
	ids, err := cl.Copies(id)
	if err != nil {
		return nil, fmt.Errorf("detector: Window: %w", err)
	}
	w.mu.RLock()
	defer w.mu.RUnlock()
	out := ids[:0:0]
	for _, x := range ids {
		if _, ok := w.live[x]; ok {
			out = append(out, x)
		}
	}
	return out, nil
}

// Close implements Detector: it closes the member. OnEvict is not called
// for the documents left in the window.
func (w *window) Close() error {
	w.mu.Lock()
	w.closed = true
	w.live, w.queue, w.head = map[string]slot{}, nil, 0
	w.mu.Unlock()
	if err := w.member.Close(); err != nil {
		return fmt.Errorf("detector: Window: %w", err)
	}
	return nil
}

// Window snapshot (kind "window", version 1): the header's Config is
// {"Size": n}; section "window" holds whether a latest position is set
// (a byte, 0 or 1), the latest position (zig-zag varint, 0 if unset), the
// number of documents and, oldest first, each document's ID
// and position (the first as a zig-zag varint, each further one as its
// non-negative difference from the one before); section "member" holds the
// member's own snapshot.
func (w *window) header() snapshot.Header {
	return snapshot.Header{Kind: "window", KindVersion: 1, Config: struct{ Size int }{w.cfg.Size}}
}

// windowMembers names the section of the member's snapshot.
var windowMembers = []memberSection{{"member", "the member"}}

// WriteTo implements Persister when the member does. Adds, Removes and
// evictions wait while it captures the window's state and the member's
// snapshot in memory (a copy of the member's snapshot), not while it
// writes them to out.
func (w *window) WriteTo(out io.Writer) (int64, error) {
	p, ok := w.member.(Persister)
	if !ok {
		return 0, errUnsupported("Window", "write a snapshot", w.member)
	}
	section, member, n, err := w.capture(p)
	if err != nil {
		return 0, fmt.Errorf("detector: Window: WriteTo: %w", err)
	}
	return writeSnapshot(out, "Window", w.header(), "window", section, windowMembers, [][]byte{member}, n)
}

// capture encodes the window section and the member's snapshot under
// w.write, so that no Add, Remove or eviction falls between them, and
// returns them with the number of documents.
func (w *window) capture(p Persister) (section, member []byte, n int, err error) {
	w.write.Lock()
	defer w.write.Unlock()
	w.mu.RLock()
	if w.closed {
		w.mu.RUnlock()
		return nil, nil, 0, ErrClosed
	}
	var e snapshot.Enc
	e.Bool(w.started)
	e.Uvarint(zigzag(w.latest))
	e.Int(len(w.live))
	// The queue's head may be a stale slot (its document removed), so
	// the first document written is counted, not found by its index.
	first, prev := true, int64(0)
	for _, s := range w.queue[w.head:] {
		if l, ok := w.live[s.id]; !ok || l.serial != s.serial {
			continue
		}
		e.String(s.id)
		if first {
			e.Uvarint(zigzag(s.pos))
		} else {
			e.Uvarint(uint64(s.pos - prev))
		}
		first, prev = false, s.pos
	}
	n = len(w.live)
	w.mu.RUnlock()
	var b bytes.Buffer
	if _, err := p.WriteTo(&b); err != nil {
		return nil, nil, 0, err
	}
	return e.B, b.Bytes(), n, nil
}

// ReadFrom implements Persister when the member does: it loads a snapshot
// written by a window of the same Size over a member of the same kind and
// Config. The window and its member must be empty. The member must hold,
// once loaded, exactly the documents the window section lists. Errors
// wrap [ErrSnapshot] (or ErrClosed), and the window and its member are
// then left empty (see [Persister]).
func (w *window) ReadFrom(in io.Reader) (int64, error) {
	if _, ok := w.member.(Persister); !ok {
		return 0, errUnsupported("Window", "read a snapshot", w.member)
	}
	w.write.Lock()
	defer w.write.Unlock()
	w.mu.RLock()
	closed, n := w.closed, len(w.live)
	w.mu.RUnlock()
	switch {
	case closed:
		return 0, fmt.Errorf("detector: Window: ReadFrom: %w", ErrClosed)
	case n > 0:
		return 0, fmt.Errorf("detector: Window: ReadFrom: the window holds %d documents: %w", n, ErrSnapshot)
	}
	var started bool
	var latest int64
	var slots []slot
	decode := func(payload []byte) ([]string, error) {
		var err error
		if started, latest, slots, err = w.decode(payload); err != nil {
			return nil, err
		}
		ids := make([]string, len(slots))
		for i, s := range slots {
			ids[i] = s.id
		}
		return ids, nil
	}
	_, read, err := loadSnapshot(in, "Window", w.header(), "window", decode, []Detector{w.member}, windowMembers, false)
	if err != nil {
		return read, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.latest, w.started = latest, started
	for _, s := range slots {
		w.serial++
		s.serial = w.serial
		w.live[s.id] = s
		w.queue = append(w.queue, s)
	}
	return read, nil
}

// decode reads the window section.
func (w *window) decode(payload []byte) (bool, int64, []slot, error) {
	dec := snapshot.NewDec(payload)
	started := dec.Bool()
	latest := unzigzag(dec.Uvarint())
	n := dec.Len(2, 0)
	if !started && (latest != 0 || n > 0) {
		dec.Fail("documents or a latest position in a window that has none")
	}
	if w.cfg.Size > 0 && n > w.cfg.Size {
		dec.Fail("%d documents in a window of %d", n, w.cfg.Size)
	}
	slots := make([]slot, 0, min(n, 1<<16))
	seen := make(map[string]bool, min(n, 1<<16))
	var pos int64
	for i := 0; i < n && dec.Err() == nil; i++ {
		id := dec.String()
		if i == 0 {
			pos = unzigzag(dec.Uvarint())
		} else {
			d := dec.Uvarint()
			if latest < pos || d > uint64(latest)-uint64(pos) {
				dec.Fail("position of %q after the latest", id)
			}
			pos += int64(d)
		}
		switch {
		case dec.Err() != nil:
		case id == "" || seen[id]:
			dec.Fail("document %d: empty or repeated ID %q", i, id)
		case pos > latest:
			dec.Fail("position %d of %q after the latest %d", pos, id, latest)
		}
		seen[id] = true
		slots = append(slots, slot{id: id, pos: pos})
	}
	if err := dec.Done(); err != nil {
		return false, 0, nil, err
	}
	return started, latest, slots, nil
}

func zigzag(x int64) uint64   { return uint64(x<<1) ^ uint64(x>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }
