package engine

// Optional parts for an index that keeps state of its own per document
// (arrival order, a time window, per-document data) and frames its whole
// snapshot itself: [Lifecycle], [View], [ExclusiveLookups], [Screener],
// [Closer], [IndexLayout] with [Loader], and [Engine.Locked]. Each is
// checked once, when a state is made; an index without them pays a nil
// check at most.

import "github.com/seed-9ef9c1df/neardup/detector"

// View is an index's access to the engine's documents and groups of the
// state it belongs to. Its methods may be called only from the index's own
// methods (which the engine calls under its lock) or inside
// [Engine.Locked] and [Engine.Inspect]; Evict only under the exclusive
// lock (Lifecycle.Added, Engine.Locked).
type View[F any] interface {
	// Set returns the engine's documents.
	Set() *Set
	// Group returns the group of the live document idx, or NoGroup.
	Group(idx uint32) uint32
	// Size returns the number of members of the live group g.
	Size(g uint32) int
	// AppendMembers appends the members of the live group g to dst, in
	// no particular order, and returns dst.
	AppendMembers(dst []uint32, g uint32) []uint32
	// Features returns the features of the live group g, valid until the
	// next change.
	Features(g uint32) *F
	// Evict removes the live document idx as Remove does (its group, the
	// index's Delete, Spec.Trace), without calling Lifecycle.Removed: the
	// index that evicts keeps its own records.
	Evict(idx uint32)
}

// Lifecycle is an Index that keeps something of every document, in a
// group or not: Attach runs once, when the engine makes the state the
// index belongs to (New, a ReadFrom); Added runs under the exclusive lock
// for each document an Add registers, after its ID is taken and before
// its group is looked up (CopyKey, Find, Insert), and may complete f and
// evict documents through the View; Removed runs after a Remove took the
// document idx out of its group.
type Lifecycle[F any] interface {
	Attach(v View[F])
	Added(idx uint32, f *F)
	Removed(idx uint32)
}

// ExclusiveLookups is an Index whose Search and Rank for a lookup (Query,
// Nearest) change scratch of its own: those run under the exclusive lock.
// Containers and an Add's search of its group stay as they are.
type ExclusiveLookups interface {
	LooksUpExclusively()
}

// LongCommits is an Index whose commits hold the exclusive lock long
// enough (a tree walked and scored, tens of microseconds) that an Add
// waiting for it blocks at once instead of spinning ([lockSpinning]):
// spinning then only burns the waiter's processor. Measured on codet with
// BenchmarkServe, Adds from 8 goroutines on 2 processors: CPU per document
// 20% higher spinning, documents per second the same (docs/notes/engine.md).
type LongCommits interface {
	CommitsLong()
}

// Screener is an Index that leaves single documents out of a lookup's
// answer: after Search (or Rank) for the features f, Screen returns the
// documents to leave out (hide reports true), or nil for none. A group
// gives more of its members in place of those left out.
type Screener[F any] interface {
	Screen(f *F) (hide func(idx uint32) bool)
}

// Closer is an Index that keeps something after Close (counters a caller
// still reads through [Engine.Inspect]): the engine calls Close under the
// exclusive lock and keeps the index, which drops everything else.
type Closer interface {
	Close()
}

// IndexLayout is an Index that encodes and decodes the whole snapshot
// itself, documents and group memberships included (in an order of its
// own, with state that is not the groups'), in the sections its
// Algorithm names (Sections). EncodeSections runs under the read lock;
// DecodeSections runs on a fresh index of a fresh state, registering the
// documents and their groups through l, and returns an error wrapping
// detector.ErrSnapshot for anything EncodeSections would not have
// written. Encoding and decoding cost what the index's own code does.
type IndexLayout[F any] interface {
	EncodeSections() [][]byte
	DecodeSections(secs [][]byte, l Loader[F]) error
}

// Sectioner is an Algorithm whose index is an [IndexLayout]: Sections
// names its snapshot sections, in order.
type Sectioner interface {
	Sections() []string
}

// Loader registers the documents of a snapshot being decoded by an
// [IndexLayout] (not with a Counter).
type Loader[F any] interface {
	// Add registers the document id, in no group yet, and returns its
	// dense index (0, 1, ... in the order of the calls), or the error of
	// an Add of that ID (an ID registered before, an empty one).
	Add(id string) (uint32, error)
	// Join puts the registered document idx in the group of f's key, as
	// an Add would (Find, or Insert of a new group).
	Join(idx uint32, f *F)
}

// view is the engine's [View] of one state.
type view[F any, K comparable] struct {
	e  *Engine[F, K]
	st *state[F, K]
}

func (v view[F, K]) Set() *Set { return v.st.docs }

func (v view[F, K]) Group(idx uint32) uint32 {
	if int(idx) < len(v.st.refs) {
		return v.st.refs[idx]
	}
	return NoGroup
}

func (v view[F, K]) Size(g uint32) int { return v.st.gs.Size(g) }

func (v view[F, K]) AppendMembers(dst []uint32, g uint32) []uint32 {
	return v.st.gs.AppendMembers(dst, g, v.st.groups.list[g].first)
}

func (v view[F, K]) Features(g uint32) *F { return v.st.groups.Features(g) }

func (v view[F, K]) Evict(idx uint32) {
	id := v.st.docs.ID(idx)
	if _, err := v.st.docs.Remove(id); err != nil {
		return
	}
	if v.e.spec.Trace != nil {
		v.e.spec.Trace(true, id)
	}
	v.st.remove(v.e.alg, idx)
}

// loader is the engine's [Loader] for a state being decoded.
type loader[F any, K comparable] struct {
	alg Algorithm[F, K]
	st  *state[F, K]
}

func (l loader[F, K]) Add(id string) (uint32, error) {
	idx, err := l.st.docs.Add(detector.Doc{ID: id})
	if err != nil {
		return 0, err
	}
	if int(idx) >= len(l.st.refs) {
		l.st.refs = append(l.st.refs, make([]uint32, int(idx)+1-len(l.st.refs))...)
	}
	l.st.refs[idx] = NoGroup
	return idx, nil
}

func (l loader[F, K]) Join(idx uint32, f *F) { l.st.insert(l.alg, idx, f) }

// Locked calls fn under the exclusive lock (in a turn of its own with a
// Counter) with the index, which it may change through its [View]: for
// the calls of a detector beyond Add, Query and Remove that change the
// index (an expiry by position), and for tests. After Close the index is
// nil, or the [Closer]'s.
func (e *Engine[F, K]) Locked(fn func(ix Index[F])) {
	run := func() error {
		e.mu.Lock()
		defer e.mu.Unlock()
		fn(e.st.ix)
		return nil
	}
	if e.counting {
		_ = e.inTurn(run)
		return
	}
	_ = run()
}

// LoadSections decodes the payloads of the snapshot's sections as
// ReadFrom does and installs them into the Engine, which must be empty:
// for a private copy of an index made from its own sections. Its error
// wraps detector.ErrSnapshot.
func (e *Engine[F, K]) LoadSections(secs [][]byte) error {
	st, err := e.decodeList(secs)
	if err != nil {
		return err
	}
	return e.installer(st)()
}
