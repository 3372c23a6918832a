package engine

import (
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// Ranker is an Index that ranks the live groups by similarity to a text,
// below the detector's threshold too (detector.Ranker).
type Ranker[F any] interface {
	// Rank appends to dst the live groups that share evidence with f,
	// each with the score Search gives it where Search lists it, and
	// returns dst. It lists at least the k best such groups it can find
	// (more are fine: the engine keeps the k best members); a group may
	// be listed once at most.
	Rank(dst []Candidate, f *F, groups *Groups[F], k int) []Candidate
}

// Nearest returns the live documents most similar to text, best first:
// the min(k, MaxResults) best members of the groups the index's Rank
// lists, ordered by [detector.SortMatches]. Like Query it stores nothing
// and, with a Counter, reads the statistics in a turn of its own. It
// returns an error wrapping detector.ErrInvalidConfig for k ≤ 0,
// ErrTooLarge for a text over the size limit and ErrClosed after Close.
// The index must be a [Ranker].
func (e *Engine[F, K]) Nearest(text string, k int) ([]detector.Match, error) {
	if k <= 0 {
		return nil, fmt.Errorf("%s: Nearest(k=%d): k must be ≥ 1: %w", e.spec.Name, k, detector.ErrInvalidConfig)
	}
	if max := e.spec.MaxTextBytes; len(text) > max {
		return nil, fmt.Errorf("%s: Nearest: %d bytes over the limit of %d: %w",
			e.spec.Name, len(text), max, detector.ErrTooLarge)
	}
	e.mu.RLock()
	closed := e.st.docs.Closed()
	e.mu.RUnlock()
	if closed {
		return nil, e.closedNearest()
	}
	f := e.alg.Features(text)
	defer e.release(&f)
	if e.counting {
		var ms []detector.Match
		err := e.inTurn(func() error {
			var err error
			ms, err = e.nearest(&f, k)
			return err
		})
		return ms, err
	}
	return e.nearest(&f, k)
}

// nearest ranks for the features f under the lookup's lock (the read
// lock, or the exclusive one for ExclusiveLookups).
func (e *Engine[F, K]) nearest(f *F, k int) ([]detector.Match, error) {
	e.lockLookup()
	defer e.unlockLookup()
	st := e.st
	if st.docs.Closed() { // closed meanwhile
		return nil, e.closedNearest()
	}
	r, ok := st.ix.(Ranker[F])
	if !ok {
		return nil, fmt.Errorf("%s: Nearest: the index does not rank", e.spec.Name)
	}
	if p, ok := st.ix.(Preparer[F]); ok {
		p.Prepare(f)
	}
	if st.counter != nil {
		st.counter.Peek(f)
	}
	if _, ok := e.alg.CopyKey(f); !ok {
		return []detector.Match{}, nil
	}
	limit := min(k, e.spec.MaxResults)
	cands := r.Rank(nil, f, &st.groups, limit)
	return st.collect(cands, f, NoDoc, limit), nil
}

// closedNearest is Nearest's error after Close (a Nearest has no ID).
func (e *Engine[F, K]) closedNearest() error {
	return fmt.Errorf("%s: Nearest: %w", e.spec.Name, detector.ErrClosed)
}
