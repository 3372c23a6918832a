// Package naive is the reference detector for differential tests: exact
// word-shingle containment or Jaccard, computed by comparing the new document
// with every live one. It is slow (O(N) set comparisons per Add) and exact,
// which is what a reference is for.
package naive

import (
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/evidence"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
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
}

// Detector is the reference detector. It is safe for concurrent use.
type Detector struct {
	cfg  Config
	mu   sync.Mutex
	docs *docset.Set
	an   *textproc.Analyzer
	sets map[uint32]map[uint64]struct{}
}

var _ detector.Detector = (*Detector)(nil)
var _ detector.Remover = (*Detector)(nil)

// New returns a reference detector.
func New(cfg Config) *Detector {
	if cfg.Shingle == 0 {
		cfg.Shingle = 4
	}
	if cfg.Threshold == 0 {
		cfg.Threshold = 0.6
	}
	an, _ := textproc.NewAnalyzer(textproc.Config{})
	return &Detector{cfg: cfg, docs: docset.New("naive", 0), an: an, sets: map[uint32]map[uint64]struct{}{}}
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
			h = hashx.Combine(h, hashx.String64(toks[j].Term, 0))
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
	var out []detector.Match
	for idx, other := range d.sets {
		if s, ok := d.related(set, other); ok {
			out = append(out, detector.Match{ID: d.docs.ID(idx), Score: s})
		}
	}
	idx, _ := d.docs.Add(doc)
	d.sets[idx] = set
	detector.SortMatches(out)
	return out, nil
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
	detector.SortMatches(out)
	return out, nil
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
