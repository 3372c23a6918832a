package detector

import (
	"fmt"
	"sync"
)

// verdictsPerDoc bounds the verify results a Cascade caches per contained
// document (see Cascade), so that the cache grows with the live documents
// and not with the square of the copies of one text (every copy is a
// candidate of every other).
const verdictsPerDoc = 16

// Cascade returns a detector in which propose, a cheap detector, nominates
// candidates and an exact pairwise check confirms them. features computes a
// document's features once, when it is added (for a plain PairFunc on texts,
// pass [Identity]), and must not keep a reference to the text, which
// belongs to the caller (Identity copies it); verify decides whether the
// container contains the contained document from their features. Only
// confirmed candidates are reported, with verify's score; a candidate whose
// score is NaN or infinite is skipped as unconfirmed, so the cascade never
// reports such a score.
//
// The cascade finds no relation that propose misses: its recall is at most
// propose's, its precision that of verify on the candidates.
//
// Add checks the ID (closed, empty, already live) before any work, then
// hands the document to propose, which checks its size limit before
// analysing the text, and computes the features only once propose has
// accepted it. Verdicts are cached, at most 16 per contained document (a
// candidate past that is verified again when nominated again), and dropped
// when either document is removed. Errors name the
// cascade ("detector: Cascade: ...") and wrap propose's errors.
//
// The returned detector implements [Remover] and [Querier] exactly when
// propose does. Query asks propose.Query for candidates and verifies them
// against features computed for the query's text, storing nothing. It
// implements [Persister] when propose does and F can be encoded: F is
// string, or F implements [encoding.BinaryMarshaler] and *F
// [encoding.BinaryUnmarshaler] (the snapshot holds each live document's
// encoded features and propose's snapshot; cached verdicts are not kept,
// they are recomputed). It never implements [CopyLister]: documents
// propose reads as identical may still differ in their features.
// It is safe for concurrent use if propose is and features and verify are
// safe to call from several goroutines; features and verify must not
// panic. A concurrent Add of the same new ID as a running Add fails with
// [ErrDuplicateID] before any work.
//
// Cascade returns an error wrapping [ErrInvalidConfig] if propose, features
// or verify is nil.
func Cascade[F any](propose Detector, features func(text string) F, verify func(container, contained F) (score float64, ok bool)) (Detector, error) {
	switch {
	case isNil(propose):
		return nil, fmt.Errorf("detector: Cascade: propose is nil: %w", ErrInvalidConfig)
	case features == nil:
		return nil, fmt.Errorf("detector: Cascade: features is nil: %w", ErrInvalidConfig)
	case verify == nil:
		return nil, fmt.Errorf("detector: Cascade: verify is nil: %w", ErrInvalidConfig)
	}
	c := newCascade(propose, features, verify)
	cs := capsOf(propose) &^ canCopies
	if c.codec == nil {
		cs &^= canPersist
	}
	return view(c, cs), nil
}

func newCascade[F any](propose Detector, features func(string) F, verify func(container, contained F) (float64, bool)) *cascade[F] {
	return &cascade[F]{propose: propose, features: features, verify: verify, codec: codecOf[F](),
		docs: map[string]*entry[F]{}, serials: map[uint64]*entry[F]{}}
}

// cascade implements Cascade. Its lock guards docs and the entries; it is
// never held while propose, features or verify run.
type cascade[F any] struct {
	propose  Detector
	features func(string) F
	verify   func(container, contained F) (float64, bool)
	codec    *codec[F] // nil if F cannot be encoded

	// persist is held shared by Add and Remove for their whole run and
	// exclusively by WriteTo and ReadFrom, so a snapshot sees no document
	// half added or half removed.
	persist sync.RWMutex

	mu      sync.Mutex
	closed  bool
	live    int // entries stored and not yet forgotten
	serial  uint64
	docs    map[string]*entry[F] // every ID added and not yet removed, pending ones included
	serials map[uint64]*entry[F] // the same entries by serial
}

// entry is one document of a cascade. An entry is pending from the moment
// its Add reserves the ID until its features are stored; ready is closed
// then, or when the Add fails.
type entry[F any] struct {
	serial   uint64 // unique for the cascade's lifetime, so a re-added ID never meets old verdicts
	ready    chan struct{}
	ok       bool // features are stored and the document is live
	removing bool // Remove has started: the document is reported no more
	f        F
	// verdicts caches verify(container, this) by the container's serial;
	// cachedBy lists the serials of the entries that cache a verdict with
	// this document as container, so Remove can drop those too.
	verdicts map[uint64]verdict
	cachedBy map[uint64]struct{}
}

// live reports whether e is a live document: stored and not being
// removed. A nil entry is not.
func (e *entry[F]) live() bool { return e != nil && e.ok && !e.removing }

type verdict struct {
	score float64
	ok    bool
}

var _ combinator = (*cascade[string])(nil)

func (c *cascade[F]) members() []Detector { return []Detector{c.propose} }

func (c *cascade[F]) errClosed(op, id string) error {
	return fmt.Errorf("detector: Cascade: %s(%q): %w", op, id, ErrClosed)
}

// Add implements Detector.
func (c *cascade[F]) Add(d Doc) ([]Match, error) {
	c.persist.RLock()
	defer c.persist.RUnlock()
	c.mu.Lock()
	if err := checkID("Cascade", "Add", d.ID, c.closed, c.docs[d.ID] != nil, false); err != nil {
		c.mu.Unlock()
		return nil, err
	}
	// Reserve the ID: from here only this call adds d.ID to propose, and
	// only this call may undo it.
	c.serial++
	e := &entry[F]{serial: c.serial, ready: make(chan struct{})}
	c.docs[d.ID] = e
	c.serials[e.serial] = e
	c.mu.Unlock()

	stored, proposed := false, false
	defer func() {
		if stored {
			return
		}
		// propose failed, the cascade was closed meanwhile, or features
		// panicked: undo the reservation and what propose holds.
		if r, ok := c.propose.(Remover); ok && proposed {
			_ = r.Remove(d.ID)
		}
		c.mu.Lock()
		c.forget(d.ID, e)
		c.mu.Unlock()
		close(e.ready)
	}()
	cands, err := c.propose.Add(d)
	if err != nil {
		return nil, fmt.Errorf("detector: Cascade: %w", err)
	}
	proposed = true
	f := c.features(d.Text)

	c.mu.Lock()
	if c.closed || c.docs[d.ID] != e {
		c.mu.Unlock()
		return nil, c.errClosed("Add", d.ID)
	}
	e.f, e.ok = f, true
	c.live++
	stored = true
	c.mu.Unlock()
	close(e.ready)
	return c.confirm(e, cands), nil
}

// Containers implements Detector.
func (c *cascade[F]) Containers(id string) ([]Match, error) {
	c.mu.Lock()
	e := c.docs[id]
	err := checkID("Cascade", "Containers", id, c.closed, e.live(), true)
	c.mu.Unlock()
	if err != nil {
		return nil, err
	}
	cands, err := c.propose.Containers(id)
	if err != nil {
		return nil, fmt.Errorf("detector: Cascade: %w", err)
	}
	return c.confirm(e, cands), nil
}

// confirm keeps the candidates verify accepts as containers of the
// document of entry a. A candidate whose Add is still running is waited
// for; one removed meanwhile is skipped.
func (c *cascade[F]) confirm(a *entry[F], cands []Match) []Match {
	out := make([]Match, 0, len(cands))
	for _, m := range cands {
		c.mu.Lock()
		e := c.docs[m.ID]
		c.mu.Unlock()
		if e == nil {
			continue
		}
		<-e.ready // never blocks for long: only on an Add past propose, computing features
		c.mu.Lock()
		if c.closed || a.removing || !e.live() || c.docs[m.ID] != e {
			c.mu.Unlock()
			continue
		}
		v, cached := a.verdicts[e.serial]
		container, contained := e.f, a.f
		c.mu.Unlock()
		if !cached {
			v.score, v.ok = c.verify(container, contained)
			v.ok = v.ok && finite(v.score)
			c.remember(a, e, v)
		}
		if v.ok {
			out = append(out, Match{ID: m.ID, Score: v.score})
		}
	}
	SortMatches(out)
	return out
}

// remember caches v = verify(container e, contained a) if both are still
// live and a has room.
func (c *cascade[F]) remember(a, e *entry[F], v verdict) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || a.removing || e.removing || len(a.verdicts) >= verdictsPerDoc {
		return
	}
	if a.verdicts == nil {
		a.verdicts = map[uint64]verdict{}
	}
	if e.cachedBy == nil {
		e.cachedBy = map[uint64]struct{}{}
	}
	a.verdicts[e.serial] = v
	e.cachedBy[a.serial] = struct{}{}
}

// Remove implements Remover. The view Cascade returns exposes it only when
// propose implements Remover.
func (c *cascade[F]) Remove(id string) error {
	r, ok := c.propose.(Remover)
	if !ok {
		return errUnsupported("Cascade", "remove", c.propose)
	}
	c.persist.RLock()
	defer c.persist.RUnlock()
	c.mu.Lock()
	e := c.docs[id]
	if err := checkID("Cascade", "Remove", id, c.closed, e.live(), true); err != nil {
		c.mu.Unlock()
		return err
	}
	// The ID stays taken until propose has forgotten it, so that an Add of
	// it meanwhile fails here rather than in propose.
	e.removing = true
	c.dropVerdicts(e)
	c.mu.Unlock()

	err := r.Remove(id)
	c.mu.Lock()
	c.forget(id, e)
	c.mu.Unlock()
	if err != nil {
		return fmt.Errorf("detector: Cascade: %w", err)
	}
	return nil
}

// forget deletes the entry e of id, if it is still there. c.mu is held.
func (c *cascade[F]) forget(id string, e *entry[F]) {
	if c.docs[id] == e {
		delete(c.docs, id)
		if e.ok {
			c.live--
		}
	}
	if c.serials[e.serial] == e {
		delete(c.serials, e.serial)
	}
}

// dropVerdicts forgets every cached verdict that involves e. c.mu is held.
func (c *cascade[F]) dropVerdicts(e *entry[F]) {
	for s := range e.verdicts {
		if x := c.serials[s]; x != nil {
			delete(x.cachedBy, e.serial)
		}
	}
	for s := range e.cachedBy {
		if x := c.serials[s]; x != nil {
			delete(x.verdicts, e.serial)
		}
	}
	e.verdicts, e.cachedBy = nil, nil
}

// Close implements Detector: it closes propose.
func (c *cascade[F]) Close() error {
	c.mu.Lock()
	c.closed = true
	c.docs, c.serials, c.live = map[string]*entry[F]{}, map[uint64]*entry[F]{}, 0
	c.mu.Unlock()
	if err := c.propose.Close(); err != nil {
		return fmt.Errorf("detector: Cascade: %w", err)
	}
	return nil
}
