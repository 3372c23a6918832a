// The document-ID bookkeeping every detector shares:
// validation of incoming documents, the sentinel errors of package detector
// with context, the closed state, and the ID ↔ dense index table.
//
// A Set is not safe for concurrent use; a detector guards it with its own
// lock together with the rest of its index.

package engine

import (
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// Set tracks the live documents of one detector.
type Set struct {
	pkg     string
	maxText int
	ids     idTable
	closed  bool
}

// NewSet returns a Set whose errors are prefixed with pkg. maxText ≤ 0 means
// [detector.DefaultMaxTextBytes].
func NewSet(pkg string, maxText int) *Set {
	if maxText <= 0 {
		maxText = detector.DefaultMaxTextBytes
	}
	return &Set{pkg: pkg, maxText: maxText}
}

// Check validates d without registering it. A text over the size limit
// passes when detector.Replay is applying it from a journal
// (snapshot.Replayed): it was accepted when the journal was written.
func (s *Set) Check(d detector.Doc) error {
	switch {
	case s.closed:
		return fmt.Errorf("%s: Add(%q): %w", s.pkg, d.ID, detector.ErrClosed)
	case d.ID == "":
		return fmt.Errorf("%s: Add: %w", s.pkg, detector.ErrEmptyID)
	case len(d.Text) > s.maxText && !snapshot.Replayed(d.Text):
		return fmt.Errorf("%s: Add(%q): %d bytes over the limit of %d: %w",
			s.pkg, d.ID, len(d.Text), s.maxText, detector.ErrTooLarge)
	}
	if _, ok := s.ids.Lookup(d.ID); ok {
		return fmt.Errorf("%s: Add(%q): %w", s.pkg, d.ID, detector.ErrDuplicateID)
	}
	return nil
}

// Add validates d and registers its ID, returning the dense index.
func (s *Set) Add(d detector.Doc) (uint32, error) {
	if err := s.Check(d); err != nil {
		return 0, err
	}
	idx, _ := s.ids.Insert(d.ID)
	return idx, nil
}

// Lookup returns the dense index of a live document; op names the calling
// method in the error.
func (s *Set) Lookup(op, id string) (uint32, error) {
	if s.closed {
		return 0, fmt.Errorf("%s: %s(%q): %w", s.pkg, op, id, detector.ErrClosed)
	}
	idx, ok := s.ids.Lookup(id)
	if !ok {
		return 0, fmt.Errorf("%s: %s(%q): %w", s.pkg, op, id, detector.ErrUnknownID)
	}
	return idx, nil
}

// Remove unregisters id and returns its dense index, which a later Add may
// reuse: the caller must have purged it from its index by then.
func (s *Set) Remove(id string) (uint32, error) {
	idx, err := s.Lookup("Remove", id)
	if err != nil {
		return 0, err
	}
	s.ids.Delete(id)
	return idx, nil
}

// Close marks the set closed and lets go of its IDs. It reports whether
// it was open.
func (s *Set) Close() bool {
	was := !s.closed
	s.closed, s.ids = true, idTable{}
	return was
}

// Closed reports whether Close has been called.
func (s *Set) Closed() bool { return s.closed }

// ID returns the caller's ID of a live dense index.
func (s *Set) ID(idx uint32) string { return s.ids.Name(idx) }

// Live reports whether idx is a live document.
func (s *Set) Live(idx uint32) bool { return s.ids.Live(idx) }

// Len returns the number of live documents.
func (s *Set) Len() int {
	if s.closed {
		return 0 // a closed detector holds nothing
	}
	return s.ids.Len()
}

// Cap returns the length a slice indexed by dense index needs.
func (s *Set) Cap() int { return s.ids.Cap() }

// Loadable returns the error a detector's ReadFrom gives when the set is
// closed (wrapping detector.ErrClosed) or holds documents (wrapping
// detector.ErrSnapshot): a snapshot loads only into an empty detector.
func (s *Set) Loadable() error {
	switch {
	case s.closed:
		return fmt.Errorf("%s: ReadFrom: %w", s.pkg, detector.ErrClosed)
	case s.Len() == 1:
		return NotEmpty(s.pkg, "this one holds 1 document")
	case s.Len() > 1:
		return NotEmpty(s.pkg, fmt.Sprintf("this one holds %d documents", s.Len()))
	}
	return nil
}

// NotEmpty returns the error of a ReadFrom into a detector that is not
// empty, why saying what it holds: it names the remedy and wraps
// detector.ErrSnapshot (the sentinel of every refused load) without
// repeating its text, which would blame a snapshot that may be sound.
func NotEmpty(pkg, why string) error {
	return notEmpty(fmt.Sprintf("%s: ReadFrom needs an empty detector (%s): load the snapshot into a fresh one from New", pkg, why))
}

type notEmpty string

func (e notEmpty) Error() string { return string(e) }
func (e notEmpty) Unwrap() error { return detector.ErrSnapshot }
