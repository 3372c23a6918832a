package detector

import (
	"errors"
	"fmt"
	"slices"
	"sync"
)

// Vote returns a detector that feeds every document to each of ds and
// reports a relation when at least k of them report it, scored by the mean
// score of those that do. Vote(1, ds...) is their union and Vote(len(ds),
// ds...) their intersection. A member's match with a NaN or infinite score
// is not counted as its vote, so Vote never reports such a score.
//
// Add checks the ID (closed, empty, already live) before any member sees
// the document; the members check its size. If one member rejects a
// document that others accepted, Vote removes it from those and returns the
// error. Members that implement [Remover] are given each document first, so
// a single member that cannot remove never leaves a partial document
// behind; with two or more such members, one that rejects a document after
// another accepted it leaves it in that other, where it stays invisible
// (Vote reports only its own live documents) and its ID cannot be added
// again. Errors name the vote ("detector: Vote: ...") and wrap the
// members' errors.
//
// The returned detector implements [Remover] exactly when every member
// does, and [Ranker] when every member is a Ranker and a [Querier]. It is
// safe for concurrent use if each of ds is; a lock orders Adds and Removes
// so that every member sees the documents in the same order.
//
// Vote returns an error wrapping [ErrInvalidConfig] if k is not in
// 1..len(ds), if a member is nil, or if one detector is a member twice
// (directly or inside a combinator member), since it would be handed every
// document twice.
func Vote(k int, ds ...Detector) (Detector, error) {
	if k < 1 || k > len(ds) {
		return nil, fmt.Errorf("detector: Vote: k (%d) must be in 1..%d, the number of members: %w", k, len(ds), ErrInvalidConfig)
	}
	if err := checkMembers("Vote", ds); err != nil {
		return nil, err
	}
	v := &vote{k: k, ds: slices.Clone(ds), live: map[string]bool{}}
	// Members that can remove first, so that a rejection by a later member
	// can be undone in the earlier ones.
	v.order = make([]int, len(ds))
	for i := range v.order {
		v.order[i] = i
	}
	slices.SortStableFunc(v.order, func(a, b int) int {
		return int(capsOf(ds[b])&canRemove) - int(capsOf(ds[a])&canRemove)
	})
	all := allCaps
	for _, d := range ds {
		all &= capsOf(d)
	}
	if all&canQuery == 0 { // Nearest tallies the members' Query answers too
		all &^= canRank
	}
	return view(v, all), nil
}

// vote implements Vote.
type vote struct {
	k     int
	ds    []Detector
	order []int // the order in which Add hands a document to ds

	write sync.Mutex // orders Adds and Removes across the members

	mu     sync.RWMutex // guards closed and live
	closed bool
	live   map[string]bool // documents every member holds, Add returned
}

var _ combinator = (*vote)(nil)

func (v *vote) members() []Detector { return v.ds }

// check returns the error of an ID that op cannot use (see checkID).
func (v *vote) check(op, id string, wantLive bool) error {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return checkID("Vote", op, id, v.closed, v.live[id], wantLive)
}

// tally keeps the IDs at least k members report that are live in the vote.
func (v *vote) tally(results [][]Match) []Match {
	count := map[string]int{}
	sum := map[string]float64{}
	var order []string
	for _, ms := range results {
		for _, m := range ms {
			if !finite(m.Score) {
				continue
			}
			if count[m.ID] == 0 {
				order = append(order, m.ID)
			}
			count[m.ID]++
			sum[m.ID] += m.Score
		}
	}
	out := []Match{}
	v.mu.RLock()
	for _, id := range order {
		if count[id] >= v.k && v.live[id] {
			out = append(out, Match{ID: id, Score: sum[id] / float64(count[id])})
		}
	}
	v.mu.RUnlock()
	SortMatches(out)
	return out
}

// Add implements Detector.
func (v *vote) Add(d Doc) ([]Match, error) {
	if err := v.check("Add", d.ID, false); err != nil {
		return nil, err
	}
	v.write.Lock()
	defer v.write.Unlock()
	if err := v.check("Add", d.ID, false); err != nil {
		return nil, err
	}
	results := make([][]Match, 0, len(v.ds))
	for n, i := range v.order {
		ms, err := v.ds[i].Add(d)
		if err != nil {
			err = fmt.Errorf("detector: Vote: member %d: %w", i, err)
			return nil, errors.Join(err, v.undo(d.ID, v.order[:n]))
		}
		results = append(results, ms)
	}
	v.mu.Lock()
	if v.closed {
		v.mu.Unlock()
		return nil, fmt.Errorf("detector: Vote: Add(%q): %w", d.ID, ErrClosed)
	}
	v.live[d.ID] = true
	v.mu.Unlock()
	return v.tally(results), nil
}

// undo removes id from the members in done after a later member rejected
// it. It returns an error wrapping errors.ErrUnsupported for each member
// that cannot remove, nil if all could (or the vote is closed).
func (v *vote) undo(id string, done []int) error {
	var errs []error
	for _, i := range done {
		r, ok := v.ds[i].(Remover)
		if !ok {
			errs = append(errs, fmt.Errorf("detector: Vote: %q stays in member %d: %w", id, i,
				errUnsupported("Vote", "remove", v.ds[i])))
			continue
		}
		if err := r.Remove(id); err != nil && !errors.Is(err, ErrClosed) {
			errs = append(errs, fmt.Errorf("detector: Vote: undoing Add(%q) in member %d: %w", id, i, err))
		}
	}
	return errors.Join(errs...)
}

// Containers implements Detector.
func (v *vote) Containers(id string) ([]Match, error) {
	if err := v.check("Containers", id, true); err != nil {
		return nil, err
	}
	results := make([][]Match, 0, len(v.ds))
	for i, det := range v.ds {
		ms, err := det.Containers(id)
		if err != nil {
			return nil, fmt.Errorf("detector: Vote: member %d: %w", i, err)
		}
		results = append(results, ms)
	}
	return v.tally(results), nil
}

// Remove implements Remover: it removes id from every member. The view
// Vote returns exposes it only when every member implements Remover.
func (v *vote) Remove(id string) error {
	rs, err := as[Remover](v.ds, "remove")
	if err != nil {
		return err
	}
	v.write.Lock()
	defer v.write.Unlock()
	if err := v.check("Remove", id, true); err != nil {
		return err
	}
	v.mu.Lock()
	delete(v.live, id)
	v.mu.Unlock()
	var errs []error
	for i, r := range rs {
		if err := r.Remove(id); err != nil {
			errs = append(errs, fmt.Errorf("detector: Vote: member %d: %w", i, err))
		}
	}
	return errors.Join(errs...)
}

// as returns the members as I, or errUnsupported naming method for the
// first that is not one.
func as[I any](ds []Detector, method string) ([]I, error) {
	out := make([]I, len(ds))
	for i, d := range ds {
		m, ok := d.(I)
		if !ok {
			return nil, errUnsupported("Vote", method, d)
		}
		out[i] = m
	}
	return out, nil
}

// ask calls call on every member, as an I, and returns their answers in
// member order. It fails with errUnsupported naming method if a member is
// not an I, with ErrClosed naming op if the vote is closed, and with the
// first member's error, which it names.
func ask[I, R any](v *vote, method, op string, call func(I) (R, error)) ([]R, error) {
	ms, err := as[I](v.ds, method)
	if err != nil {
		return nil, err
	}
	v.mu.RLock()
	closed := v.closed
	v.mu.RUnlock()
	if closed {
		return nil, fmt.Errorf("detector: Vote: %s: %w", op, ErrClosed)
	}
	results := make([]R, len(ms))
	for i, m := range ms {
		if results[i], err = call(m); err != nil {
			return nil, fmt.Errorf("detector: Vote: member %d: %w", i, err)
		}
	}
	return results, nil
}

// Close implements Detector: it closes every member.
func (v *vote) Close() error {
	v.mu.Lock()
	v.closed = true
	v.live = map[string]bool{}
	v.mu.Unlock()
	var errs []error
	for i, det := range v.ds {
		if err := det.Close(); err != nil {
			errs = append(errs, fmt.Errorf("detector: Vote: member %d: %w", i, err))
		}
	}
	return errors.Join(errs...)
}
