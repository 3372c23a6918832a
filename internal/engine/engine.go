// Package engine is the detector shell the detector packages share. It
// owns what does not depend on the algorithm: document IDs and their dense
// handles, groups of exact copies (one entry in the algorithm's index per
// group, members kept by ID), capped and sorted results, Add, Query,
// Containers, Copies, Remove, Len and Close, the snapshot framing with its
// shared sections, and the Config fields every detector has ([Defaults]
// and [CheckLimits]; [Pipeline] and [Resolve] turn the text-pipeline
// fields of the detectors' Configs into a textproc.Config, with one set of
// defaults and error messages).
//
// The parts of the shell are exported for the algorithms: [Set], the ID
// table with document validation; [DeletePosting]; and the per-call
// resources, [Pool] of workers and the rules [Shrink] and [Vocab] by which
// buffers and vocabularies give back what one outlier made them grow.
//
// An algorithm plugs in through [Algorithm] (how a text is read, its
// exact-copy key, the encoding of one group in a snapshot) and [Index] (the
// searchable structure over the groups), with optional parts: [Counter]
// for online statistics kept over the live documents, [Preparer] for a
// step that reads the index before the commit, [Finder] for an index
// that finds a key's group itself, [Member] for an index that counts the
// exact copies joining and leaving its groups, [Resolver] for a Counter's
// step before an Add's turn, [FreePeeker] for a Counter whose Queries need
// no turn, [Releaser] for features that hold a pooled resource while they
// are computed,
// [Layout] for an algorithm that frames its snapshot sections itself (the
// engine's shared layout is one too), [Renewer] for groups that take the
// features of their newest member, [HeldToCommit] for features that hold
// their resource until the commit, and [MemberRecounter] for a Counter
// whose snapshot stores something per member (a Layout's EncodeSections
// receives the Counter and the members' handles in it). An index that
// keeps state of its own per document (codet's arrival order, time window
// and sentence offsets) has [Lifecycle] with a [View] of the documents
// and groups, [ExclusiveLookups] and [Screener] for lookups that score on
// its scratch and leave single documents out, [Closer] for counters kept
// after Close, [IndexLayout] for a snapshot it frames whole, and
// [Engine.Locked] for its calls beyond the shell's.
//
// Every Add follows one protocol: the cheap checks (closed, ID, size,
// duplicate ID) under the read lock; the features of the text outside
// every lock; the Counter's turn where the index has one; the commit under
// the exclusive lock (taken by [lockSpinning], or at once for an index
// with [LongCommits]), where the ID is checked again so that of several
// concurrent Adds of one new ID exactly one succeeds.
package engine

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// NoGroup marks a document in no group: its text matches nothing (a text
// without words, as its Algorithm reads it). NoDoc is no document.
const (
	NoGroup = math.MaxUint32
	NoDoc   = math.MaxUint32
)

// Algorithm is how a detector reads texts: F is what it keeps of a text,
// K the key that says two texts are exact copies. Its methods must be safe
// for concurrent use; they hold no state of the collection (that is the
// [Index]).
type Algorithm[F any, K comparable] interface {
	// Features returns what the index keeps of text. It runs outside
	// every lock, concurrently with every other call.
	Features(text string) F
	// CopyKey returns the exact-copy key of f: documents with equal keys
	// form one group, which the index holds once. It returns false for
	// features that match nothing; such a document is in no group.
	CopyKey(f *F) (K, bool)
	// NewIndex returns an empty index.
	NewIndex() Index[F]
	// EncodeGroup appends to e what a snapshot stores of a group with
	// features f (its members follow it).
	EncodeGroup(e *snapshot.Enc, f *F)
	// DecodeGroup reads what EncodeGroup wrote, failing d (Dec.Fail) on
	// anything EncodeGroup would not have written.
	DecodeGroup(d *snapshot.Dec) F
}

// Index is an algorithm's searchable structure over the live groups, each
// known by its number. The engine calls Insert and Delete under its
// exclusive lock, Search under its read lock or its exclusive lock.
type Index[F any] interface {
	// Search appends to dst the live groups related to f, each with the
	// score its members get, and returns dst. groups reads the features of
	// any live group. A group may be listed once at most.
	Search(dst []Candidate, f *F, groups *Groups[F]) []Candidate
	// Insert indexes the new group g, whose features are f.
	Insert(g uint32, f *F)
	// Delete takes out of the index the group g, whose features are f,
	// when its last member has left.
	Delete(g uint32, f *F)
}

// Counter is an Index that keeps statistics over the live documents (an
// online IDF table) from which the features of a text are completed.
// Count, Peek, Uncount and Recount run in turns, one at a time, on a lock
// the read-only calls never take; an Add counts in its turn, completes
// its features after it, outside every lock, and commits in turn order:
// every result is that of the Adds run one by one in turn order. A Remove,
// a Query and a ReadFrom take a turn of their own after the commits of
// the earlier turns.
type Counter[F any] interface {
	// Count counts a new document of features f (any document, in a group
	// or not) and returns its handle. It may record in f what Complete
	// needs of the statistics as they are after the count.
	Count(f *F) int32
	// Complete completes the features f of a document counted by Count.
	// It runs after the turn, outside every lock, concurrently with other
	// calls, and reads f only.
	Complete(f *F)
	// Peek completes f as Count and Complete would, without counting it
	// (Query).
	Peek(f *F)
	// Uncount takes the document of handle h out of the statistics: a
	// Remove, or an Add refused at its commit (closed meanwhile).
	Uncount(h int32)
	// Recount counts a document of a snapshot, of complete features f (nil
	// for a document in no group), and returns its handle.
	Recount(f *F) int32
}

// Finder is an Index that finds the live group of an exact-copy key with
// a table it keeps anyway: the engine then keeps no table of its own from
// keys to groups. Find returns the live group whose features have the key
// of f (CopyKey), which the engine has checked f has.
type Finder[F any] interface {
	Find(f *F, groups *Groups[F]) (uint32, bool)
}

// Resolver is a Counter with a step before an Add's turn: Resolve runs
// under the read lock, outside the turn, on the index current then (groups
// reads its live groups), so that Count has less to do in the turn. A
// ReadFrom may replace the index before the turn, so Count must not rely
// on Resolve having run on its own index. Query does not call it.
type Resolver[F any] interface {
	Resolve(f *F, groups *Groups[F])
}

// Releaser is an Algorithm whose features hold a resource while they are
// computed (a pooled scratch state). Release runs once for every result
// of Features, as soon as the engine needs no more of the algorithm's
// work on it: with a Counter after Complete or Peek (before the commit
// stores the features), otherwise after the commit or the search, and
// when a call fails before them. The copy of the features a group keeps
// (made at its Insert) is never released: Insert leaves it free of the
// resource. Release may change f (drop its reference to the resource).
type Releaser[F any] interface {
	Release(f *F)
}

// FreePeeker is a Counter whose Peek may run outside every lock and every
// turn, concurrently with the turns, the commits and other Peeks: it reads
// the statistics as they are at some moment of the call. A Query then
// completes its features before it takes the read lock and takes no turn,
// so Queries run in parallel with each other and with Adds; under
// concurrent Adds and Removes it reads the statistics and the index each
// as they are at some moment of the call.
type FreePeeker interface {
	PeeksFreely()
}

// Preparer is an Index with a step that reads the index before an Add's
// commit: Prepare runs under the read lock after the features are
// computed, and again under the exclusive lock when a ReadFrom replaced
// the index meanwhile. Nearest calls it under its lookup's lock before
// ranking. A Query does not call it: its search runs under one read lock,
// where the index reads what it needs itself.
type Preparer[F any] interface {
	Prepare(f *F)
}

// Member is an Index that keeps statistics over every member of its
// groups, exact copies included: Join runs under the exclusive lock when
// a document joins the live group g, of features f, that already has a
// member (an Add or a ReadFrom); Leave when a member leaves g and others
// remain (a Remove). The first member comes with Insert and the last goes
// with Delete, as for any Index.
type Member[F any] interface {
	Join(g uint32, f *F)
	Leave(g uint32, f *F)
}

// Renewer is an Index whose groups take the features of their newest
// member (features that drift with online statistics): Renew runs under
// the exclusive lock when an Add's document of features f joins the live
// group g, whose features are *group: before its answer is searched, or
// after under Spec.SearchFirst. It may change *group (to f's values,
// re-indexing g). A ReadFrom does not call it.
type Renewer[F any] interface {
	Renew(g uint32, group, f *F)
}

// HeldToCommit is a [Releaser] whose features hold the resource until the
// commit even with a Counter: Release then runs after the commit (or the
// failure of the Add) instead of after Complete.
type HeldToCommit interface {
	HeldToCommit()
}

// MemberRecounter is a Counter whose statistics count something of each
// document beyond its group's features, which a snapshot stores per
// member ([SnapshotGroup].Handles): a ReadFrom calls RecountMember(f, i)
// for the i-th member (in ID order) of a group of features f, instead of
// Recount(f).
type MemberRecounter[F any] interface {
	RecountMember(f *F, i int) int32
}

// Groups is the engine's table of live groups, read by [Index.Search].
type Groups[F any] struct {
	list []group[F]
}

// group is one exact-copy key with its live members. A group of one keeps
// its member in first; the members of a larger group are a heap by ID in
// state.gs.
type group[F any] struct {
	f     F
	first uint32
}

// Features returns the features of the live group g. The pointer is valid
// until the next Add or Remove.
func (gs *Groups[F]) Features(g uint32) *F { return &gs.list[g].f }

// Spec describes a detector to the engine.
type Spec struct {
	// Name prefixes errors ("tweezer: Add(...)") and is the snapshot Kind.
	Name string
	// Version is the version of the snapshot layout.
	Version uint64
	// Config is the detector's effective Config, stored in the snapshot
	// header; Tables fingerprints its caller-owned tables, if any.
	Config any
	Tables map[string]uint64
	// NoGroup names the snapshot section listing the documents in no
	// group ("empty").
	NoGroup string
	// MinGroupBytes is the least size of one group in a snapshot: a bound
	// on the group count a damaged snapshot can claim.
	MinGroupBytes int
	// MaxTextBytes and MaxResults are the resolved limits (see [Shared]).
	MaxTextBytes, MaxResults int
	// Trace, when set (by tests), is called under the exclusive lock by
	// each Add that registers its document and each Remove, in the order
	// of those commits: the order in which concurrent calls take effect.
	Trace func(remove bool, id string)
	// SearchFirst makes an Add search for its own features before its
	// commit inserts them: its answer is read from the index as the
	// earlier commits left it, without a group the Add creates (for an
	// index whose search reads counts of the whole index), and the search
	// reads what the features step prepared for it (keys hashed outside
	// every lock), which the copy a group keeps need not hold. Otherwise
	// an Add searches for its group's features after the insertion.
	SearchFirst bool
	// TablesNow, when set, is called for every snapshot header instead
	// of reading Tables: for caller-owned tables that may change.
	TablesNow func() map[string]uint64
}

// Engine is a detector shell over an Algorithm. It is safe for concurrent
// use: features are computed outside its lock, Queries and the read-only
// calls share a read lock, commits take it exclusively.
type Engine[F any, K comparable] struct {
	spec      Spec
	alg       Algorithm[F, K]
	rel       Releaser[F] // alg as a Releaser, or nil
	late      bool        // rel is HeldToCommit
	counting  bool        // the index is a Counter
	resolving bool        // the index is a Resolver
	exclusive bool        // the index is ExclusiveLookups
	blocking  bool        // the index is LongCommits

	turn    sync.Mutex          // a Counter's turns; taken before mu
	order   order               // a Counter's commits, in turn order
	pending map[string]struct{} // IDs counted in a turn, not yet committed
	mu      sync.RWMutex
	st      *state[F, K]
}

// state is everything a ReadFrom replaces whole.
type state[F any, K comparable] struct {
	docs      *Set
	refs      []uint32 // by document: its group, or NoGroup
	groups    Groups[F]
	free      []uint32 // free group numbers, reused first
	gs        copyGroups
	exact     map[K]uint32 // nil when ix is a Finder
	exactPeak int          // the most keys exact has held since it was rebuilt
	ix        Index[F]
	finder    Finder[F]  // ix as a Finder, or nil
	counter   Counter[F] // ix as a Counter, or nil
	member    Member[F]  // ix as a Member, or nil
	life      Lifecycle[F]
	screener  Screener[F]
	handles   []int32 // with a Counter, by document: its handle there
}

// New returns an empty Engine for spec and alg.
func New[F any, K comparable](spec Spec, alg Algorithm[F, K]) *Engine[F, K] {
	e := &Engine[F, K]{spec: spec, alg: alg}
	e.rel, _ = alg.(Releaser[F])
	_, e.late = alg.(HeldToCommit)
	e.st = e.newState()
	e.counting = e.st.counter != nil
	_, e.resolving = e.st.ix.(Resolver[F])
	_, e.exclusive = e.st.ix.(ExclusiveLookups)
	_, e.blocking = e.st.ix.(LongCommits)
	e.pending = map[string]struct{}{}
	return e
}

func (e *Engine[F, K]) newState() *state[F, K] {
	docs := NewSet(e.spec.Name, e.spec.MaxTextBytes)
	st := &state[F, K]{docs: docs, gs: newCopyGroups(docs), ix: e.alg.NewIndex()}
	st.counter, _ = st.ix.(Counter[F])
	st.finder, _ = st.ix.(Finder[F])
	st.member, _ = st.ix.(Member[F])
	st.screener, _ = st.ix.(Screener[F])
	if st.finder == nil {
		st.exact = map[K]uint32{}
	}
	if st.life, _ = st.ix.(Lifecycle[F]); st.life != nil {
		st.life.Attach(view[F, K]{e, st})
	}
	return st
}

// Add indexes doc and returns its near-duplicates among the live documents,
// the MaxResults strongest, ordered by [detector.SortMatches]. It returns
// an error wrapping detector.ErrClosed, ErrEmptyID, ErrTooLarge or
// ErrDuplicateID before reading the text; of several concurrent Adds of
// one new ID exactly one indexes its document.
func (e *Engine[F, K]) Add(doc detector.Doc) ([]detector.Match, error) {
	return e.add(doc, nil)
}

// AddFeatures is Add for a document whose features f were computed
// elsewhere (by the same Algorithm's rules); doc.Text is not read.
func (e *Engine[F, K]) AddFeatures(doc detector.Doc, f F) ([]detector.Match, error) {
	return e.add(doc, &f)
}

// add is Add, computing the features of doc unless given.
func (e *Engine[F, K]) add(doc detector.Doc, given *F) ([]detector.Match, error) {
	e.mu.RLock()
	st := e.st
	err := st.docs.Check(doc)
	e.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	var f F
	if given != nil {
		f = *given
	} else {
		f = e.alg.Features(doc.Text)
	}
	if _, ok := st.ix.(Preparer[F]); ok {
		e.mu.RLock()
		st = e.st
		if !st.docs.Closed() {
			st.ix.(Preparer[F]).Prepare(&f)
		}
		e.mu.RUnlock()
	}
	if e.counting {
		return e.addCounted(doc, f)
	}
	e.lockCommit()
	ms, err := e.commit(st, doc, &f, -1)
	e.mu.Unlock()
	e.release(&f)
	return ms, err
}

// spinTries is how many times [lockSpinning] tries a lock, yielding its
// processor between tries, before it blocks: 55 µs of trying on the
// 2-core test machine when nothing else is runnable. 1,024 and 16,384
// tries and a millisecond's deadline measured alike (docs/notes/engine.md).
const spinTries = 1024

// lockSpinning takes l, which its holders keep for microseconds (an Add's
// commit). It tries l up to spinTries times, calling runtime.Gosched
// between tries, and only then blocks in Lock (for the engine's RWMutex
// that also stops new readers, so Queries cannot hold an Add off for
// longer). Blocking at once put sync.Mutex, with more Adds than
// processors, into starvation mode, where each Unlock yields its
// processor to the next waiter while the other processors have nothing
// to run. Measured with BenchmarkServe (docs/notes/engine.md): Adds from
// 8 goroutines on 2 processors 23-49% faster for ffp, dsc, spotsigs,
// minhash, minhash-containment and both mrcosines, 11% for tweezer, the
// rest and Adds from one goroutine unchanged. The cost: a waiting Add
// keeps its processor busy while it tries, yielding it to anything
// runnable.
func lockSpinning(l interface {
	TryLock() bool
	Lock()
}) {
	for range spinTries {
		if l.TryLock() {
			return
		}
		runtime.Gosched()
	}
	l.Lock()
}

// lockCommit takes the exclusive lock for a commit: by [lockSpinning],
// or at once for an index with LongCommits.
func (e *Engine[F, K]) lockCommit() {
	if e.blocking {
		e.mu.Lock()
		return
	}
	lockSpinning(&e.mu)
}

// release ends the work of the algorithm on the features f (Releaser).
func (e *Engine[F, K]) release(f *F) {
	if e.rel != nil {
		e.rel.Release(f)
	}
}

// commit registers doc under the exclusive lock; prepared is the state
// the features were prepared on, h the document's handle in the Counter.
func (e *Engine[F, K]) commit(prepared *state[F, K], doc detector.Doc, f *F, h int32) ([]detector.Match, error) {
	st := e.st
	idx, err := st.docs.Add(doc)
	if err != nil {
		return nil, err
	}
	if st != prepared {
		// A ReadFrom installed a new index between the Add's first check
		// and its commit (never with a Counter: ReadFrom takes a turn).
		if p, ok := st.ix.(Preparer[F]); ok {
			p.Prepare(f)
		}
	}
	if e.spec.Trace != nil {
		e.spec.Trace(false, doc.ID)
	}
	if st.counter != nil {
		st.setHandle(idx, h)
	}
	if st.life != nil {
		st.life.Added(idx, f)
	}
	if e.spec.SearchFirst {
		ms := []detector.Match{}
		if _, ok := e.alg.CopyKey(f); ok {
			ms = st.matches(f, NoDoc, e.spec.MaxResults)
		}
		st.renew(st.insert(e.alg, idx, f), f)
		return ms, nil
	}
	g := st.insert(e.alg, idx, f)
	if g == NoGroup {
		return []detector.Match{}, nil
	}
	st.renew(g, f)
	return st.matches(st.groups.Features(g), idx, e.spec.MaxResults), nil
}

// renew gives the group g, which an Add's document of features f joined,
// those features when the index is a Renewer.
func (st *state[F, K]) renew(g uint32, f *F) {
	if r, ok := st.ix.(Renewer[F]); ok && g != NoGroup && st.gs.Size(g) > 1 {
		r.Renew(g, st.groups.Features(g), f)
	}
}

// Query returns what Add(doc) would return now, without indexing doc or
// changing anything a later call observes. doc.ID may be empty; a live
// document with that ID is not reported. It returns an error wrapping
// detector.ErrTooLarge or detector.ErrClosed before reading the text.
func (e *Engine[F, K]) Query(doc detector.Doc) ([]detector.Match, error) {
	if max := e.spec.MaxTextBytes; len(doc.Text) > max {
		return nil, fmt.Errorf("%s: Query(%q): %d bytes over the limit of %d: %w",
			e.spec.Name, doc.ID, len(doc.Text), max, detector.ErrTooLarge)
	}
	e.mu.RLock()
	closed := e.st.docs.Closed()
	e.mu.RUnlock()
	if closed {
		return nil, e.closed("Query", doc.ID)
	}
	f := e.alg.Features(doc.Text)
	defer e.release(&f)
	if e.counting {
		e.mu.RLock()
		c := e.st.counter // nil after Close
		e.mu.RUnlock()
		if _, free := c.(FreePeeker); free {
			c.Peek(&f)
			return e.query(doc, &f, false)
		}
		var ms []detector.Match
		err := e.inTurn(func() error {
			var err error
			ms, err = e.query(doc, &f, true)
			return err
		})
		return ms, err
	}
	return e.query(doc, &f, false)
}

// query searches for the features f of doc under the read lock, peeking
// with the Counter first when peek is set.
func (e *Engine[F, K]) query(doc detector.Doc, f *F, peek bool) ([]detector.Match, error) {
	e.lockLookup()
	defer e.unlockLookup()
	st := e.st
	if st.docs.Closed() { // closed meanwhile
		return nil, e.closed("Query", doc.ID)
	}
	if peek && st.counter != nil {
		st.counter.Peek(f)
	}
	if _, ok := e.alg.CopyKey(f); !ok {
		return []detector.Match{}, nil
	}
	skip := uint32(NoDoc)
	if doc.ID != "" {
		if idx, err := st.docs.Lookup("Query", doc.ID); err == nil {
			skip = idx
		}
	}
	return st.matches(f, skip, e.spec.MaxResults), nil
}

// lockLookup takes the lock a lookup searches under: the read lock, or
// the exclusive one for ExclusiveLookups. unlockLookup releases it.
func (e *Engine[F, K]) lockLookup() {
	if e.exclusive {
		e.mu.Lock()
	} else {
		e.mu.RLock()
	}
}

func (e *Engine[F, K]) unlockLookup() {
	if e.exclusive {
		e.mu.Unlock()
	} else {
		e.mu.RUnlock()
	}
}

func (e *Engine[F, K]) closed(op, id string) error {
	return fmt.Errorf("%s: %s(%q): %w", e.spec.Name, op, id, detector.ErrClosed)
}

// Containers returns the near-duplicates of the live document id,
// including documents added after it, the MaxResults strongest, ordered by
// [detector.SortMatches].
func (e *Engine[F, K]) Containers(id string) ([]detector.Match, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	st := e.st
	idx, err := st.docs.Lookup("Containers", id)
	if err != nil {
		return nil, err
	}
	g := st.refs[idx]
	if g == NoGroup {
		return []detector.Match{}, nil
	}
	return st.matches(st.groups.Features(g), idx, e.spec.MaxResults), nil
}

// Copies returns the other members of the group of the live document id,
// in ascending ID order, in O(c log c) for c copies. A document in no
// group has none. It returns an error wrapping detector.ErrUnknownID or
// detector.ErrClosed.
func (e *Engine[F, K]) Copies(id string) ([]string, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	st := e.st
	idx, err := st.docs.Lookup("Copies", id)
	if err != nil {
		return nil, err
	}
	g := st.refs[idx]
	if g == NoGroup {
		return []string{}, nil
	}
	return st.gs.IDs(g, st.groups.list[g].first, idx), nil
}

// Group calls fn under the read lock with the features of the group of
// the live document id, or nil for a document in no group; op names the
// caller in errors, which wrap detector.ErrUnknownID or ErrClosed.
func (e *Engine[F, K]) Group(op, id string, fn func(f *F)) error {
	e.mu.RLock()
	defer e.mu.RUnlock()
	st := e.st
	idx, err := st.docs.Lookup(op, id)
	if err != nil {
		return err
	}
	if g := st.refs[idx]; g != NoGroup {
		fn(st.groups.Features(g))
	} else {
		fn(nil)
	}
	return nil
}

// SetTrace sets Spec.Trace: for tests, before the first Add.
func (e *Engine[F, K]) SetTrace(fn func(remove bool, id string)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.spec.Trace = fn
}

// Union returns the members of the groups related lists for the group of
// the live document id (which related is given with its features and the
// index, under the read lock), id included, sorted by ID and not capped; a
// document in no group gets only itself. op names the caller in errors.
func (e *Engine[F, K]) Union(op, id string, related func(g uint32, f *F, ix Index[F]) []uint32) ([]string, error) {
	return e.UnionGroups(op, id, func(g uint32, groups *Groups[F], ix Index[F]) []uint32 {
		return related(g, groups.Features(g), ix)
	})
}

// UnionGroups is Union for a related that reads the features of other
// groups than that of id (groups.Features).
func (e *Engine[F, K]) UnionGroups(op, id string, related func(g uint32, groups *Groups[F], ix Index[F]) []uint32) ([]string, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	st := e.st
	idx, err := st.docs.Lookup(op, id)
	if err != nil {
		return nil, err
	}
	g := st.refs[idx]
	if g == NoGroup {
		return []string{id}, nil
	}
	var idxs []uint32
	for _, o := range related(g, &st.groups, st.ix) {
		idxs = st.gs.AppendMembers(idxs, o, st.groups.list[o].first)
	}
	return SortedIDs(st.docs, idxs, NoDoc), nil
}

// Remove forgets the live document id. A document with live copies leaves
// its group in O(log c) for c copies and the index is untouched; the last
// member of a group takes the group out of the index.
func (e *Engine[F, K]) Remove(id string) error {
	if e.counting {
		return e.inTurn(func() error { return e.remove(id) })
	}
	return e.remove(id)
}

func (e *Engine[F, K]) remove(id string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	st := e.st
	idx, err := st.docs.Remove(id)
	if err != nil {
		return err
	}
	if e.spec.Trace != nil {
		e.spec.Trace(true, id)
	}
	st.remove(e.alg, idx)
	if st.life != nil {
		st.life.Removed(idx)
	}
	return nil
}

// Len returns the number of live documents.
func (e *Engine[F, K]) Len() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.st.docs.Len()
}

// Close releases the index. It is idempotent and returns nil; every later
// call but Len and Close returns an error wrapping detector.ErrClosed.
func (e *Engine[F, K]) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.st.docs.Close() {
		closed := &state[F, K]{docs: e.st.docs}
		if c, ok := e.st.ix.(Closer); ok {
			c.Close()
			closed.ix = e.st.ix
		}
		e.st = closed
	}
	return nil
}

// matches returns the members of the groups related to f other than
// skip, the strongest limit by [detector.SortMatches].
func (st *state[F, K]) matches(f *F, skip uint32, limit int) []detector.Match {
	cands := st.ix.Search(nil, f, &st.groups)
	return st.collect(cands, f, skip, limit)
}

// collect is Collect, leaving out what the Screener hides for f.
func (st *state[F, K]) collect(cands []Candidate, f *F, skip uint32, limit int) []detector.Match {
	if st.screener != nil {
		if hide := st.screener.Screen(f); hide != nil {
			return st.gs.CollectHiding(cands, st.first, skip, hide, limit)
		}
	}
	return st.gs.Collect(cands, st.first, skip, limit)
}

// first returns the member of the live group g when it has one member.
func (st *state[F, K]) first(g uint32) uint32 { return st.groups.list[g].first }

// insert registers the live document idx of features f in its group,
// which it creates and indexes when f's key is new, and returns the group
// (NoGroup for features without a key).
func (st *state[F, K]) insert(alg Algorithm[F, K], idx uint32, f *F) uint32 {
	if int(idx) >= len(st.refs) {
		st.refs = append(st.refs, make([]uint32, int(idx)+1-len(st.refs))...)
	}
	k, ok := alg.CopyKey(f)
	if !ok {
		st.refs[idx] = NoGroup
		return NoGroup
	}
	if g, ok := st.find(k, f); ok {
		st.refs[idx] = g
		st.gs.Join(g, st.groups.list[g].first, idx)
		if st.member != nil {
			st.member.Join(g, st.groups.Features(g))
		}
		return g
	}
	var g uint32
	if n := len(st.free); n > 0 {
		g, st.free = st.free[n-1], st.free[:n-1]
	} else {
		g = uint32(len(st.groups.list))
		st.groups.list = append(st.groups.list, group[F]{})
	}
	st.groups.list[g] = group[F]{f: *f, first: idx}
	st.refs[idx] = g
	if st.exact != nil {
		st.exact[k] = g
		st.exactPeak = max(st.exactPeak, len(st.exact))
	}
	st.ix.Insert(g, st.groups.Features(g))
	return g
}

// remove forgets the live document idx: it leaves its group, and the last
// member takes the group out of the index and of the statistics.
func (st *state[F, K]) remove(alg Algorithm[F, K], idx uint32) {
	if st.counter != nil {
		st.counter.Uncount(st.handles[idx])
	}
	g := st.refs[idx]
	st.refs[idx] = NoGroup
	if g == NoGroup {
		return
	}
	gr := &st.groups.list[g]
	if st.gs.Size(g) > 1 {
		if rest, alone := st.gs.Leave(g, idx); alone {
			gr.first = rest
		}
		if st.member != nil {
			st.member.Leave(g, &gr.f)
		}
		return
	}
	st.ix.Delete(g, &gr.f)
	if st.exact != nil {
		k, _ := alg.CopyKey(&gr.f)
		delete(st.exact, k)
		st.exact = ShrinkMap(st.exact, &st.exactPeak)
	}
	var zero group[F]
	*gr = zero
	st.free = append(st.free, g)
}

// find returns the live group of key k, the key of features f.
func (st *state[F, K]) find(k K, f *F) (uint32, bool) {
	if st.finder != nil {
		return st.finder.Find(f, &st.groups)
	}
	g, ok := st.exact[k]
	return g, ok
}

// minShrink is the least peak size at which [ShrinkMap] rebuilds a map:
// below it the buckets a map keeps are not worth a copy.
const minShrink = 1024

// ShrinkMap returns m rebuilt at its current size when it holds fewer than a
// quarter of its peak number of keys, and resets the peak; otherwise m. A
// Go map keeps its buckets when keys are deleted; the rebuild copies at
// most a third of the keys deleted since the last one, O(1) amortised per
// deletion. Callers track the peak: *peak = max(*peak, len(m)) on insert.
func ShrinkMap[M ~map[K]V, K comparable, V any](m M, peak *int) M {
	if *peak < minShrink || len(m) >= *peak/4 {
		return m
	}
	*peak = len(m)
	out := make(M, len(m)) // not maps.Clone, which may keep the old size
	maps.Copy(out, m)
	return out
}

// groupOrder returns the live groups in ascending order of their smallest
// member ID, and the sorted IDs of the live documents in no group.
func (st *state[F, K]) groupOrder() (live []uint32, bare []string) {
	type entry struct {
		g     uint32
		first string
	}
	var es []entry
	for idx, g := range st.refs {
		switch {
		case !st.docs.Live(uint32(idx)):
		case g == NoGroup:
			bare = append(bare, st.docs.ID(uint32(idx)))
		case st.gs.Min(g, st.groups.list[g].first) == uint32(idx):
			es = append(es, entry{g, st.docs.ID(uint32(idx))})
		}
	}
	slices.SortFunc(es, func(a, b entry) int { return cmp.Compare(a.first, b.first) })
	slices.Sort(bare)
	live = make([]uint32, len(es))
	for i, x := range es {
		live[i] = x.g
	}
	return live, bare
}

// Inspect calls fn under the read lock with the index (nil after Close,
// unless a [Closer]) and the length of the group table (live groups and
// free slots): for a detector's read-only calls beyond the shell's
// (codet's Stats, Matched, Position) and for tests that check the
// structure an algorithm builds.
func (e *Engine[F, K]) Inspect(fn func(ix Index[F], groupSlots int)) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	fn(e.st.ix, len(e.st.groups.list))
}

// Heaps returns the number of member heaps of groups of two or more and
// the member positions they hold: for tests that check none outlives its
// group.
func (e *Engine[F, K]) Heaps() (heaps, held int) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.st.gs.Len(), e.st.gs.Held()
}
