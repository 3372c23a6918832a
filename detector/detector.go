package detector

import (
	"cmp"
	"errors"
	"slices"
)

// DefaultMaxTextBytes is the largest document text, in bytes, that a
// detector accepts unless its Config says otherwise: 4 MiB. Larger texts
// are rejected with an error wrapping [ErrTooLarge] before any work.
//
// News articles are a few kilobytes. An Add allocates tens of bytes per
// byte of text while it analyses and keeps a few per byte for a stored
// document; docs/memory.md in the repository has each detector's figures
// and the command that measures them.
const DefaultMaxTextBytes = 4 << 20

// Sentinel errors. Detectors wrap them with context (the package name and
// the offending ID); test for them with [errors.Is].
var (
	// ErrEmptyID is returned by Add for a document whose ID is "".
	ErrEmptyID = errors.New("empty document ID")
	// ErrDuplicateID is returned by Add when a live document already has the ID.
	ErrDuplicateID = errors.New("duplicate document ID")
	// ErrUnknownID is returned for an ID that is not a live document.
	ErrUnknownID = errors.New("unknown document ID")
	// ErrClosed is returned by every call after Close.
	ErrClosed = errors.New("detector closed")
	// ErrInvalidConfig is returned by constructors for a Config they reject.
	ErrInvalidConfig = errors.New("invalid config")
	// ErrTooLarge is returned by Add for a text over the detector's size limit.
	ErrTooLarge = errors.New("document too large")
)

// Doc is a document handed to a detector.
type Doc struct {
	// ID is the caller's key: non-empty and unique among live documents.
	ID string
	// Text is the document body. Any bytes are accepted; invalid UTF-8 is
	// treated as separators between words.
	Text string
}

// Match is one related document reported by a detector. It encodes to
// JSON as {"id": ..., "score": ...}.
type Match struct {
	// ID is the other document.
	ID string `json:"id"`
	// Score is the detector's own strength of the relation (a similarity,
	// a containment ratio, ...), documented by each package. Higher is
	// stronger. It is never NaN or infinite.
	Score float64 `json:"score"`
}

// Detector finds documents that contain (or, for symmetric detectors,
// nearly duplicate) one another in a stream.
//
// Implementations are safe for concurrent use by multiple goroutines.
type Detector interface {
	// Add indexes d and returns the live documents that contain d (for a
	// symmetric detector: its near-duplicates), ordered by [SortMatches];
	// an empty result is an empty slice, not nil, so that it encodes to
	// JSON as []. Add never returns d itself. It does not keep a reference
	// to d.Text. Containments of earlier documents by d become visible through
	// Containers of those documents.
	//
	// Add returns an error wrapping ErrEmptyID, ErrDuplicateID, ErrTooLarge
	// or ErrClosed, and then indexes nothing. A text with no indexable
	// terms is accepted and matches nothing.
	Add(d Doc) ([]Match, error)

	// Containers returns the live documents that contain the live document
	// id (for a symmetric detector: its near-duplicates), including ones
	// added after it, ordered by [SortMatches]. It never includes id itself.
	// It returns an error wrapping ErrUnknownID or ErrClosed.
	Containers(id string) ([]Match, error)

	// Close releases the index. Close is idempotent and returns nil; every
	// later Add, Containers or Remove returns an error wrapping ErrClosed.
	Close() error
}

// Remover is implemented by detectors that can forget a document, so that a
// stream runs in a bounded window (Varol et al. 2011 §3.3, "time window").
// After Remove(id), id is reported by no call, its own relations are gone,
// and the ID may be added again. The combinators [Cascade] and [Vote]
// implement it exactly when every detector they wrap does.
type Remover interface {
	// Remove forgets the live document id. It returns an error wrapping
	// ErrUnknownID or ErrClosed.
	Remove(id string) error
}

// SortMatches orders ms by descending Score, ties broken by ascending ID:
// the order every detector returns.
func SortMatches(ms []Match) {
	slices.SortFunc(ms, func(a, b Match) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}
