package detector

import (
	"io"

	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// ErrSnapshot is wrapped by every error of a [Persister]'s ReadFrom for
// input it cannot load: not a snapshot, another detector kind or layout
// version, a truncated or damaged stream, a Config or caller-owned table
// that differs from the receiving detector's, or a receiving detector that
// is not empty. After such an error the detector is as it was.
var ErrSnapshot = snapshot.ErrSnapshot

// Persister is implemented by detectors whose state can be saved and
// loaded, so that a service survives a restart without adding every text
// again. The format (docs/snapshot.md in the repository) is framed and
// checksummed, and canonical: writing a loaded snapshot gives the same
// bytes.
//
// WriteTo writes a consistent snapshot of the live documents; concurrent
// Adds and Removes are either wholly in it or wholly not. ReadFrom loads a
// snapshot into an empty detector made by the same constructor with the
// same Config and the same caller-owned tables (an IDF table, a reference
// text), which the snapshot identifies by fingerprint but does not hold.
// The loaded detector answers every later call as the saved one would. A
// snapshot and the [Journal] written after it reproduce the detector
// exactly ([Replay]).
type Persister interface {
	io.WriterTo
	io.ReaderFrom
}

// Querier is implemented by detectors that can look a document up without
// indexing it.
//
// Query returns what Add(d) would return at that moment, without storing d
// or changing anything a later call observes; it is safe under concurrent
// Adds, and no other caller ever sees d. d.ID may be empty; a live document
// with the same ID is not reported. Errors wrap ErrTooLarge or ErrClosed.
type Querier interface {
	Query(d Doc) ([]Match, error)
}

// DefaultMaxResults is the most matches Add, Containers and Query return
// unless a detector's Config says otherwise (the strongest first, by
// [SortMatches]). A flood of identical copies (a syndicated wire, spam)
// would otherwise make every Add return every earlier copy: quadratic in
// the flood. Detectors that collapse exact copies list all of them through
// [CopyLister].
const DefaultMaxResults = 100

// CopyLister is implemented by detectors that collapse exact copies: the
// documents whose content, as the detector reads it, is identical share
// one representative in the index, so each further copy costs O(1).
type CopyLister interface {
	// Copies returns the live documents whose content is identical to the
	// live document id's, in ascending ID order, without id. It returns an
	// error wrapping ErrUnknownID or ErrClosed.
	Copies(id string) ([]string, error)
}

// Ranker is implemented by detectors that rank the stored documents by
// similarity to a text, whether or not they pass the detector's threshold:
// "related coverage", or the nearest few before a caller decides.
//
// Nearest returns the stored documents most similar to text, best first:
// at most min(k, MaxResults) matches ordered by [SortMatches], no ID
// twice (the members of a group of exact copies may fill several places).
// A stored document that shares no evidence with text is not returned,
// however large k is. Where Query also reports a stored document, Nearest
// gives it the same score; scores order documents within one detector and
// mean what its package documents. Like Query, Nearest stores nothing,
// leaves online statistics untouched and is safe beside concurrent Adds.
// k ≤ 0 fails with an error wrapping ErrInvalidConfig, a text over the
// size limit with ErrTooLarge, a call after Close with ErrClosed.
//
// A detector whose index finds candidates approximately (LSH bands, sketch
// distances) searches further for a larger k, so the first few matches of
// Nearest(text, 100) may outrank those of Nearest(text, 1); its package
// doc says how far a search for k reaches.
type Ranker interface {
	Nearest(text string, k int) ([]Match, error)
}
