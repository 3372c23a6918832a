package neardup

import (
	"errors"
	"fmt"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/imatch"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
	"github.com/seed-9ef9c1df/neardup/minhash"
	"github.com/seed-9ef9c1df/neardup/mrcosine"
	"github.com/seed-9ef9c1df/neardup/shingle"
	"github.com/seed-9ef9c1df/neardup/simhash"
	"github.com/seed-9ef9c1df/neardup/tweezer"
)

// Every detector type behind the registry is an Index, checked here once
// when the module compiles rather than in each package.
var (
	_ Index = (*codet.Detector)(nil)
	_ Index = (*imatch.Detector)(nil)
	_ Index = (*minhash.Detector)(nil)
	_ Index = (*mrcosine.Detector)(nil)
	_ Index = (*naive.Detector)(nil)
	_ Index = (*shingle.Detector)(nil)
	_ Index = (*simhash.Detector)(nil)
	_ Index = (*tweezer.Detector)(nil)
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
