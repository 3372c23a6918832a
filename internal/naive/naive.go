// Package naive is the reference detector for differential tests: exact
// word-shingle containment or Jaccard, computed by comparing the new document
// with every live one. It is slow (O(N) set comparisons per Add) and exact,
// which is what a reference is for.
package naive

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/evidence"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Config configures the reference detector.
type Config struct {
	// Shingle is the number of words per shingle; 0 means 4.
	Shingle int
	// Threshold is the containment |S(A)∩S(C)|/|S(A)| (asymmetric) or the
	// Jaccard similarity (Symmetric) a pair must reach; 0 means 0.6.
	Threshold float64
	// Symmetric selects Jaccard instead of containment.
	Symmetric bool
	// MaxResults caps the matches Add, Containers and Query return: the
	// strongest, by detector.SortMatches (highest score, then smallest
	// ID); zero means detector.DefaultMaxResults. It bounds calls, not what
	// is stored, so snapshots do not record it.
	MaxResults int `json:"-"`
}

// Detector is the reference detector. It is safe for concurrent use.
type Detector struct {
	cfg  Config
	mu   sync.Mutex
	docs *engine.Set
	an   *textproc.Analyzer
	sets map[uint32]map[uint64]struct{}
}

// New returns a reference detector. It does not check cfg: a negative
// MaxResults means the default, and a Threshold of NaN or ±Inf makes every
// WriteTo fail. [NewChecked] rejects such a Config.
func New(cfg Config) *Detector {
	cfg.Shingle = cmp.Or(cfg.Shingle, 4)
	cfg.Threshold = cmp.Or(cfg.Threshold, 0.6)
	if cfg.MaxResults <= 0 {
		cfg.MaxResults = detector.DefaultMaxResults
	}
	an, _ := textproc.NewAnalyzer(textproc.Config{})
	return &Detector{cfg: cfg, docs: engine.NewSet("naive", 0), an: an, sets: map[uint32]map[uint64]struct{}{}}
}

// NewChecked returns a reference detector, or an error wrapping
// detector.ErrInvalidConfig that names the first field of cfg out of range:
// a negative Shingle or MaxResults, or a Threshold that is not a finite
// number (a snapshot could not hold it).
func NewChecked(cfg Config) (*Detector, error) {
	bad := func(format string, args ...any) (*Detector, error) {
		return nil, fmt.Errorf("naive: "+format+": %w", append(args, detector.ErrInvalidConfig)...)
	}
	switch {
	case cfg.Shingle < 0:
		return bad("Shingle (%d) must be ≥ 0", cfg.Shingle)
	case math.IsNaN(cfg.Threshold) || math.IsInf(cfg.Threshold, 0):
		return bad("Threshold (%v) must be finite", cfg.Threshold)
	case cfg.MaxResults < 0:
		return bad("MaxResults (%d) must be ≥ 0", cfg.MaxResults)
	}
	return New(cfg), nil
}

// Shingles returns the set of hashed word w-shingles of text; a text of
// fewer than w words yields one shingle of all its words, an empty text none.
func Shingles(an *textproc.Analyzer, text string, w int) map[uint64]struct{} {
	toks := an.Tokens(text)
	set := map[uint64]struct{}{}
	for i := 0; i < len(toks); i++ {
		if i+w > len(toks) && i > 0 {
			break
		}
		var h uint64
		for j := i; j < min(i+w, len(toks)); j++ {
			h = hashtab.Combine(h, hashtab.String64(toks[j].Term, 0))
		}
		set[h] = struct{}{}
	}
	return set
}

func inter(a, b map[uint64]struct{}) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	n := 0
	for h := range a {
		if _, ok := b[h]; ok {
			n++
		}
	}
	return n
}

// score returns the strength with which c contains a (or their Jaccard).
func (d *Detector) score(a, c map[uint64]struct{}) float64 {
	if len(a) == 0 || len(c) == 0 {
		return 0
	}
	n := float64(inter(a, c))
	if d.cfg.Symmetric {
		return n / float64(len(a)+len(c)-int(n))
	}
	return n / float64(len(a))
}

// related reports whether c contains a (or is its near-duplicate). A part
// does not contain its whole: c with 90% of its shingles inside a does not
// contain a unless 90% of a is inside c.
func (d *Detector) related(a, c map[uint64]struct{}) (float64, bool) {
	s := d.score(a, c)
	if !d.cfg.Symmetric && len(c) > 0 {
		n := float64(inter(a, c))
		if evidence.PartOf(n, float64(len(c)), float64(len(a))) {
			return s, false
		}
	}
	return s, s > 0 && s >= d.cfg.Threshold
}

// Add implements detector.Detector.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.docs.Check(doc); err != nil {
		return nil, err
	}
	set := Shingles(d.an, doc.Text, d.cfg.Shingle)
	out := d.match(set, "")
	idx, _ := d.docs.Add(doc)
	d.sets[idx] = set
	return out, nil
}

// match returns the live documents other than skip that contain the
// document of set. d.mu is held.
func (d *Detector) match(set map[uint64]struct{}, skip string) []detector.Match {
	var out []detector.Match
	for idx, other := range d.sets {
		if s, ok := d.related(set, other); ok && d.docs.ID(idx) != skip {
			out = append(out, detector.Match{ID: d.docs.ID(idx), Score: s})
		}
	}
	return engine.Top(out, d.cfg.MaxResults)
}

// Query implements detector.Querier: what Add(doc) would return, storing
// nothing. A live document with doc's ID is not reported.
func (d *Detector) Query(doc detector.Doc) ([]detector.Match, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.docs.Closed():
		return nil, fmt.Errorf("naive: Query(%q): %w", doc.ID, detector.ErrClosed)
	case len(doc.Text) > detector.DefaultMaxTextBytes:
		return nil, fmt.Errorf("naive: Query(%q): %d bytes over the limit of %d: %w",
			doc.ID, len(doc.Text), detector.DefaultMaxTextBytes, detector.ErrTooLarge)
	}
	return d.match(Shingles(d.an, doc.Text, d.cfg.Shingle), doc.ID), nil
}

// Nearest implements detector.Ranker: every live document sharing a
// shingle with text, by the score Query gives (containment of text in it,
// or Jaccard), the min(k, MaxResults) best. It scores every live
// document: O(n) per call, like Query.
func (d *Detector) Nearest(text string, k int) ([]detector.Match, error) {
	if k <= 0 {
		return nil, fmt.Errorf("naive: Nearest(k=%d): k must be ≥ 1: %w", k, detector.ErrInvalidConfig)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.docs.Closed():
		return nil, fmt.Errorf("naive: Nearest: %w", detector.ErrClosed)
	case len(text) > detector.DefaultMaxTextBytes:
		return nil, fmt.Errorf("naive: Nearest: %d bytes over the limit of %d: %w",
			len(text), detector.DefaultMaxTextBytes, detector.ErrTooLarge)
	}
	set := Shingles(d.an, text, d.cfg.Shingle)
	var out []detector.Match
	for idx, other := range d.sets {
		if s := d.score(set, other); s > 0 {
			out = append(out, detector.Match{ID: d.docs.ID(idx), Score: s})
		}
	}
	return engine.Top(out, min(k, d.cfg.MaxResults)), nil
}

// Copies implements detector.CopyLister: the other live documents whose
// shingle sets equal id's, in ascending ID order. It compares id's set
// with every live document's: O(n) per call, like Containers.
func (d *Detector) Copies(id string) ([]string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Lookup("Copies", id)
	if err != nil {
		return nil, err
	}
	set := d.sets[idx]
	out := []string{}
	for other, o := range d.sets {
		if other != idx && len(o) == len(set) && inter(set, o) == len(set) {
			out = append(out, d.docs.ID(other))
		}
	}
	slices.Sort(out)
	return out, nil
}

// Len returns the number of live documents.
func (d *Detector) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.docs.Len()
}

// Containers implements detector.Detector.
func (d *Detector) Containers(id string) ([]detector.Match, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Lookup("Containers", id)
	if err != nil {
		return nil, err
	}
	var out []detector.Match
	for other, set := range d.sets {
		if other == idx {
			continue
		}
		if s, ok := d.related(d.sets[idx], set); ok {
			out = append(out, detector.Match{ID: d.docs.ID(other), Score: s})
		}
	}
	return engine.Top(out, d.cfg.MaxResults), nil
}

// Remove implements detector.Remover.
func (d *Detector) Remove(id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Remove(id)
	if err != nil {
		return err
	}
	delete(d.sets, idx)
	return nil
}

// Close implements detector.Detector.
func (d *Detector) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.docs.Close() {
		d.sets = nil
	}
	return nil
}

// Snapshot layout (kind "naive", version 1): one section "docs" holding
// the number of documents, then per document in ascending ID order its ID,
// its number of shingles and the shingle hashes in ascending order, the
// first as a uvarint and each further one as its (positive) difference
// from the one before.
const (
	kind        = "naive"
	kindVersion = 1
)

func (d *Detector) header() snapshot.Header {
	return snapshot.Header{Kind: kind, KindVersion: kindVersion, Config: d.cfg}
}

// WriteTo implements io.WriterTo: it writes a snapshot of the live
// documents' shingle sets (docs/snapshot.md in the repository).
func (d *Detector) WriteTo(w io.Writer) (int64, error) {
	d.mu.Lock()
	if d.docs.Closed() {
		d.mu.Unlock()
		return 0, fmt.Errorf("naive: WriteTo: %w", detector.ErrClosed)
	}
	var e snapshot.Enc
	idxs := slices.SortedFunc(maps.Keys(d.sets), func(a, b uint32) int {
		return cmp.Compare(d.docs.ID(a), d.docs.ID(b))
	})
	e.Int(len(idxs))
	for _, idx := range idxs {
		e.String(d.docs.ID(idx))
		hs := slices.Sorted(maps.Keys(d.sets[idx]))
		e.Int(len(hs))
		prev := uint64(0)
		for i, h := range hs {
			if i == 0 {
				e.Uvarint(h)
			} else {
				e.Uvarint(h - prev)
			}
			prev = h
		}
	}
	d.mu.Unlock()
	sw := snapshot.NewWriter(w, d.header())
	sw.Section("docs", e.B)
	n, err := sw.Finish(uint64(len(idxs)))
	if err != nil {
		return n, fmt.Errorf("naive: WriteTo: %w", err)
	}
	return n, nil
}

// ReadFrom implements io.ReaderFrom: it loads a snapshot written by WriteTo
// of a detector with the same Config into d, which must be empty. Errors
// wrap detector.ErrSnapshot (or detector.ErrClosed), and d is then left as
// it was.
func (d *Detector) ReadFrom(r io.Reader) (int64, error) {
	return snapshot.Load("naive", r, d.header(), []string{"docs"}, d.loadable, func(p [][]byte) (int, func() error, error) {
		dec := snapshot.NewDec(p[0])
		n := dec.Len(2, 0)
		ids := make([]string, 0, n)
		sets := make([]map[uint64]struct{}, 0, n)
		for i := range n {
			id := dec.String()
			switch {
			case dec.Err() != nil:
			case id == "":
				dec.Fail("document %d has an empty ID", i)
			case i > 0 && id <= ids[i-1]:
				dec.Fail("document IDs out of order at %q", id)
			}
			k := dec.Len(1, 0)
			set := make(map[uint64]struct{}, k)
			var h uint64
			for j := range k {
				x := dec.Uvarint()
				if j > 0 && x == 0 {
					dec.Fail("repeated shingle in %q", id)
				}
				if j > 0 && h+x < h {
					dec.Fail("shingle hashes of %q overflow", id)
				}
				h += x
				set[h] = struct{}{}
			}
			ids = append(ids, id)
			sets = append(sets, set)
		}
		if err := dec.Done(); err != nil {
			return 0, nil, fmt.Errorf("section docs: %w", err)
		}
		return len(ids), func() error {
			d.mu.Lock()
			defer d.mu.Unlock()
			if err := d.docs.Loadable(); err != nil {
				return err
			}
			for i, id := range ids {
				idx, err := d.docs.Add(detector.Doc{ID: id})
				if err != nil { // unreachable: the IDs are distinct and the set is open
					return err
				}
				d.sets[idx] = sets[i]
			}
			return nil
		}, nil
	})
}

// loadable returns the error of a ReadFrom into d unless d is open and
// empty.
func (d *Detector) loadable() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.docs.Loadable()
}
