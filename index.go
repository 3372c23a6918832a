package neardup

import (
	"errors"
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// Index is a named detector with every capability a service uses, so
// that it needs no type assertion: Add, Containers and Close
// ([detector.Detector]); Remove; Query, which looks a text up without
// storing it; Nearest, the stored documents closest to a text, below the
// threshold too; Copies, the exact copies of a document; WriteTo and
// ReadFrom, a snapshot to survive a restart. Every registry name
// implements it.
//
// A [detector.NewWindow], [detector.NewCascade] or [detector.NewVote]
// built over Indexes implements an optional interface exactly when its
// members all do: a Window over an Index is an Index too (assert it), a
// Vote of Indexes one as well; a Cascade lacks Copies, since documents its
// proposer reads as identical may differ in its verify's features.
type Index interface {
	detector.Detector
	detector.Remover
	detector.Querier
	detector.Ranker
	detector.CopyLister
	detector.Persister
}

// NewIndex returns the detector registered under name, built from options
// as [New] builds it, as an Index. Its errors are New's.
func NewIndex(name string, options map[string]string) (Index, error) {
	d, err := New(name, options)
	if err != nil {
		return nil, err
	}
	ix, ok := d.(Index)
	if !ok {
		d.Close()
		return nil, fmt.Errorf("neardup: %s does not implement Index: %w", name, errors.ErrUnsupported)
	}
	return ix, nil
}
