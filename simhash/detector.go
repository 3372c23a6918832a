package simhash

import (
	"fmt"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
	"github.com/seed-9ef9c1df/neardup/internal/postings"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Detector is a SimHash near-duplicate detector: two documents are
// near-duplicates when their fingerprints are within Hamming distance K
// (symmetric). A Match's Score is 1 − distance/64.
//
// When the fingerprints depend on an IDF table that can change (the online
// table [New] keeps, or an unfrozen table given to [NewWithIDF]), two copies
// of a text added at different times may get slightly different weights and
// fingerprints. So that an exact duplicate is always reported, the Detector
// then also indexes a 128-bit digest of each document's term sequence and
// reports equal digests with Score 1. With a frozen table (or no table) equal
// texts have equal fingerprints, and the digest is kept only for documents
// with terms but no fingerprint (every feature dropped or weighing 0).
//
// A Detector is safe for concurrent use by multiple goroutines.
type Detector struct {
	mu     sync.RWMutex
	docs   *docset.Set
	signer *Signer
	owned  bool
	index  *Index
	fps    []uint64 // by dense index
	has    []bool   // the document has a fingerprint
	online bool     // fingerprints depend on a table that can change
	exact  map[hashx.Digest][]uint32
	digest []hashx.Digest // by dense index, when exact != nil
	hasDig []bool
	stamp  []uint32
	serial uint32
	terms  []string
	buf    []byte
}

var (
	_ detector.Detector = (*Detector)(nil)
	_ detector.Remover  = (*Detector)(nil)
)

// New returns a Detector. When cfg uses idf (WeightIDF, WeightTFIDF or
// SkipTop ≥ 0) it keeps its own online IDF table, smoothed (log(1 + N/df),
// so the first documents do not weigh every term 0): every added document is
// counted before its fingerprint is computed, and removed documents stay
// counted. It returns an error wrapping detector.ErrInvalidConfig for an
// invalid Config, and nil otherwise.
func New(cfg Config) (*Detector, error) {
	return newDetector(cfg, nil, true)
}

// NewWithIDF returns a Detector that weighs features with idf, the caller's
// table, which it reads and never writes. Freeze the table for stable
// fingerprints. idf may be nil only when cfg does not use idf. It returns an
// error wrapping detector.ErrInvalidConfig for an invalid Config or a
// missing table.
func NewWithIDF(cfg Config, idf *textproc.IDF) (*Detector, error) {
	return newDetector(cfg, idf, false)
}

func newDetector(cfg Config, idf *textproc.IDF, owned bool) (*Detector, error) {
	rc, _, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	if owned {
		if rc.usesIDF() {
			idf = textproc.NewIDF(true)
		} else {
			owned = false
		}
	}
	s, err := NewSigner(cfg, idf)
	if err != nil {
		return nil, err
	}
	ix, err := NewIndex(rc.k(), rc.Blocks)
	if err != nil {
		return nil, err
	}
	d := &Detector{docs: docset.New("simhash", rc.MaxTextBytes), signer: s, owned: owned, index: ix, exact: make(map[hashx.Digest][]uint32)}
	d.online = idf != nil && rc.usesIDF() && (owned || !idf.Frozen())
	return d, nil
}

// Config returns the Detector's configuration with every default filled in.
func (d *Detector) Config() Config { return d.signer.cfg }

// IDF returns the table the Detector weighs features with (its own online
// table for a Detector from [New]), or nil if it uses none.
func (d *Detector) IDF() *textproc.IDF { return d.signer.idf }

// Fingerprint returns the fingerprint of the live document id, and false if
// it has none (no features).
func (d *Detector) Fingerprint(id string) (uint64, bool, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.docs.Lookup("Fingerprint", id)
	if err != nil {
		return 0, false, err
	}
	return d.fps[idx], d.has[idx], nil
}

// Add indexes doc and returns its near-duplicates, nearest first. Add time
// is that of [Signer.Sign] plus one [Index.Query] and one [Index.Add].
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.docs.Check(doc); err != nil {
		return nil, err
	}
	s := d.signer
	if s.lite {
		s.analyse(doc.Text)
	} else {
		s.toks = s.an.Tokens(doc.Text)
		if d.owned && len(s.toks) > 0 {
			_ = s.idf.AddDocument(d.uniqueTerms()) // our table is never frozen
		}
		s.prepare()
	}
	fp, ok := s.sign()
	var dig hashx.Digest
	hasDig := false
	if (d.online || !ok) && len(s.th) > 0 {
		if s.lite {
			s.toks = s.an.Tokens(doc.Text) // a text without features: rare
		}
		d.buf, dig = hashx.TokensDigest(d.buf, s.toks)
		hasDig = true
	}
	idx, err := d.docs.Add(doc)
	if err != nil {
		return nil, err
	}
	ms := d.matches(idx, fp, ok, dig, hasDig)
	if n := d.docs.Cap(); n > len(d.fps) {
		d.fps = append(d.fps, make([]uint64, n-len(d.fps))...)
		d.has = append(d.has, make([]bool, n-len(d.has))...)
		d.digest = append(d.digest, make([]hashx.Digest, n-len(d.digest))...)
		d.hasDig = append(d.hasDig, make([]bool, n-len(d.hasDig))...)
	}
	d.fps[idx], d.has[idx] = fp, ok
	if ok {
		d.index.Add(idx, fp)
	}
	if hasDig {
		d.digest[idx], d.hasDig[idx] = dig, true
		d.exact[dig] = append(d.exact[dig], idx)
	}
	return ms, nil
}

// uniqueTerms returns the distinct terms of the analysed document.
func (d *Detector) uniqueTerms() []string {
	s := d.signer
	if n := s.an.VocabularySize(); n > len(d.stamp) {
		d.stamp = append(d.stamp, make([]uint32, n-len(d.stamp))...)
	}
	d.serial++
	if d.serial == 0 {
		clear(d.stamp)
		d.serial = 1
	}
	d.terms = d.terms[:0]
	for _, t := range s.toks {
		if d.stamp[t.ID] != d.serial {
			d.stamp[t.ID] = d.serial
			d.terms = append(d.terms, t.Term)
		}
	}
	return d.terms
}

// matches returns the live documents other than self within distance K of
// fp, and those with an equal exact digest.
func (d *Detector) matches(self uint32, fp uint64, ok bool, dig hashx.Digest, hasDig bool) []detector.Match {
	var out []detector.Match
	seen := map[uint32]bool{self: true}
	if hasDig {
		for _, o := range d.exact[dig] {
			if !seen[o] {
				seen[o] = true
				out = append(out, detector.Match{ID: d.docs.ID(o), Score: 1})
			}
		}
	}
	if ok {
		for _, n := range d.index.Query(fp, nil) {
			if !seen[n.ID] {
				seen[n.ID] = true
				out = append(out, detector.Match{ID: d.docs.ID(n.ID), Score: 1 - float64(n.Distance)/64})
			}
		}
	}
	detector.SortMatches(out)
	return out
}

// Containers returns the near-duplicates of the live document id, including
// documents added after it, nearest first. Its time is one [Index.Query].
func (d *Detector) Containers(id string) ([]detector.Match, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.docs.Lookup("Containers", id)
	if err != nil {
		return nil, err
	}
	return d.matches(idx, d.fps[idx], d.has[idx], d.digest[idx], d.hasDig[idx]), nil
}

// Remove forgets the live document id. Its terms stay counted in an online
// IDF table the Detector owns.
func (d *Detector) Remove(id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Remove(id)
	if err != nil {
		return err
	}
	if d.has[idx] {
		if !d.index.Remove(idx, d.fps[idx]) {
			return fmt.Errorf("simhash: Remove(%q): index out of step: %w", id, detector.ErrUnknownID)
		}
	}
	d.has[idx], d.fps[idx] = false, 0
	if d.hasDig[idx] {
		postings.Delete(d.exact, d.digest[idx], idx)
		d.hasDig[idx] = false
	}
	return nil
}

// Len returns the number of live documents.
func (d *Detector) Len() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.docs.Len()
}

// Close releases the index. It is idempotent and returns nil; later calls
// return an error wrapping detector.ErrClosed.
func (d *Detector) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.docs.Close() {
		d.index, d.fps, d.has, d.exact, d.digest, d.hasDig = nil, nil, nil, nil, nil, nil
	}
	return nil
}
