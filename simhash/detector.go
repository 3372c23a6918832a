package simhash

import (
	"fmt"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
	"github.com/seed-9ef9c1df/neardup/internal/liveidf"
	"github.com/seed-9ef9c1df/neardup/internal/matches"
	"github.com/seed-9ef9c1df/neardup/internal/postings"
	"github.com/seed-9ef9c1df/neardup/internal/scratch"
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
// A Detector is safe for concurrent use by multiple goroutines. Add analyses
// and (unless the Detector owns an online table) signs its text without
// holding the Detector's lock, so Adds run in parallel and never stall
// Containers. With its own online table, the Adds take turns (on a lock of
// their own, which Containers, Fingerprint and Len never take) to count
// their document and weigh its terms, so that every result is that of the
// Adds run one by one in the order they took their turn; their analysis
// still runs in parallel.
type Detector struct {
	cfg    Config
	pool   scratch.Pool[*Signer]
	online bool           // fingerprints depend on a table that can change
	turns  *liveidf.Turns // the Detector's own table and its turns, or nil
	idf    *textproc.IDF  // the caller's table, or nil

	mu     sync.RWMutex
	docs   *docset.Set
	index  *Index
	fps    []uint64 // by dense index
	has    []bool   // the document has a fingerprint (and is in index)
	exact  map[hashx.Digest][]uint32
	digest []hashx.Digest // by dense index, when hasDig
	hasDig []bool
	handle []int32 // by dense index: the document's handle in the own table

	onCommit func(id string) // test hook, called under mu as a document is indexed
}

// testHookAnalysed, when set, runs in Add after the text is analysed and
// before the Detector's lock is taken.
var testHookAnalysed func()

// testHookInTurn, when set, runs in Add of a Detector with its own table
// while the Add holds its turn, before it takes the Detector's lock.
var testHookInTurn func()

var (
	_ detector.Detector = (*Detector)(nil)
	_ detector.Remover  = (*Detector)(nil)
)

// New returns a Detector. When cfg uses idf (WeightIDF, WeightTFIDF or
// SkipTop ≥ 0) it keeps its own online IDF table over its live documents,
// smoothed (log(1 + N/df), so the first documents do not weigh every term
// 0): every added document is counted before its fingerprint is computed,
// and a removed document is uncounted, so the table holds the terms of the
// live documents only. It returns an error wrapping
// detector.ErrInvalidConfig for an invalid Config, and nil otherwise.
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
	rc, tc, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	own := owned && rc.usesIDF()
	if !own && idf == nil && rc.usesIDF() {
		return nil, fmt.Errorf("simhash: NewWithIDF: nil IDF table with Weights %d and SkipTop %d: %w", rc.Weights, rc.SkipTop, detector.ErrInvalidConfig)
	}
	s, err := newSigner(rc, tc, idf)
	if err != nil {
		return nil, err
	}
	ix, err := NewIndex(rc.k(), rc.Blocks)
	if err != nil {
		return nil, err
	}
	d := &Detector{cfg: rc, docs: docset.New("simhash", rc.MaxTextBytes), index: ix, exact: make(map[hashx.Digest][]uint32)}
	if own {
		d.turns = liveidf.NewTurns("simhash", true, &d.mu)
	} else {
		d.idf = idf
	}
	d.online = own || idf != nil && rc.usesIDF() && !idf.Frozen()
	// With its own table the pool's Signers get it in their turn, for one
	// document at a time, and hold no table between documents. A new
	// Signer cannot fail once the first is built: the same Config and
	// table build it.
	d.pool.New = func() (*Signer, error) { return newSigner(rc, tc, idf) }
	d.pool.Tidy = (*Signer).tidy
	d.pool.Put(s)
	return d, nil
}

// Config returns the Detector's configuration with every default filled in.
func (d *Detector) Config() Config { return d.cfg }

// IDF returns the table the Detector weighs features with, or nil if it
// uses none. For a Detector from [New] this is its own online table, which
// it replaces by a compact copy after most of its documents are removed:
// call IDF again rather than keep the result across Removes.
func (d *Detector) IDF() *textproc.IDF {
	return d.turns.IDFOr(d.idf)
}

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
//
// The checks that need no analysis (closed, empty ID, size, duplicate ID)
// come first; the text is then analysed without the lock, and the checks
// are repeated under it: of several Adds of one new ID at once, exactly one
// succeeds and the others return detector.ErrDuplicateID.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	d.mu.RLock()
	err := d.docs.Check(doc)
	d.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	s, err := d.pool.Get()
	if err != nil {
		return nil, err
	}
	defer d.pool.Put(s)
	s.analyse(doc.Text)
	if testHookAnalysed != nil {
		testHookAnalysed()
	}
	var fp uint64
	var ok bool
	if d.turns == nil {
		s.weigh()
		fp, ok = s.sign()
	}
	// The exact digest: for every document with terms when the
	// fingerprints can change (always the case with our own table), and
	// for documents with terms but no fingerprint otherwise.
	var dig hashx.Digest
	hasDig := false
	if (d.online || !ok) && len(s.th) > 0 {
		if s.lite {
			s.toks = s.an.Tokens(doc.Text) // a text without features: rare
		}
		s.digBuf, dig = hashx.TokensDigest(s.digBuf, s.toks)
		hasDig = true
	}

	if d.turns == nil {
		return d.insert(doc, fp, ok, dig, hasDig, -1)
	}
	// Our own table: in our turn, check again, count the document and
	// weigh its terms against the table as it now is; sign and insert in
	// turn order, while the next turn proceeds.
	tk, err := d.turns.Enter(doc, d.docs, s.terms)
	if err != nil {
		return nil, err
	}
	s.idf = d.turns.IDF()
	s.weigh()   // the weights are copied: sign reads no table
	s.idf = nil // the table may be replaced by the next Remove
	if testHookInTurn != nil {
		testHookInTurn()
	}
	d.turns.Leave()
	fp, ok = s.sign()
	return d.turns.Insert(tk, func(h int32) ([]detector.Match, error) {
		return d.insert(doc, fp, ok, dig, hasDig, h)
	})
}

// insert indexes a signed document under the Detector's lock: the checks
// are repeated (closed, duplicate ID), and of several Adds of one new ID
// exactly one gets here first.
func (d *Detector) insert(doc detector.Doc, fp uint64, ok bool, dig hashx.Digest, hasDig bool, h int32) ([]detector.Match, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.turns.Settle(doc.ID)
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
		d.handle = append(d.handle, make([]int32, n-len(d.handle))...)
	}
	d.fps[idx], d.has[idx], d.handle[idx] = fp, ok, h
	if ok {
		d.index.Add(idx, fp)
	}
	if hasDig {
		d.digest[idx], d.hasDig[idx] = dig, true
		d.exact[dig] = append(d.exact[dig], idx)
	}
	if d.onCommit != nil {
		d.onCommit(doc.ID)
	}
	return ms, nil
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
	return matches.Top(out, 0)
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

// Remove forgets the live document id, and uncounts it from the online
// IDF table the Detector owns.
func (d *Detector) Remove(id string) error {
	if d.turns != nil {
		return d.turns.Remove(func() (int32, error) { return d.remove(id) })
	}
	_, err := d.remove(id)
	return err
}

// remove takes document id out of the index and returns its handle in the
// online table.
func (d *Detector) remove(id string) (int32, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Remove(id)
	if err != nil {
		return -1, err
	}
	if d.has[idx] {
		// insert puts (idx, fps[idx]) in the index exactly when it sets
		// has[idx], under this lock, and only remove takes it out: it is
		// there (TestIndexInStep).
		d.index.Remove(idx, d.fps[idx])
	}
	d.has[idx], d.fps[idx] = false, 0
	if d.hasDig[idx] {
		postings.Delete(d.exact, d.digest[idx], idx)
		d.hasDig[idx] = false
	}
	return d.handle[idx], nil
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
		d.index, d.fps, d.has, d.exact, d.digest, d.hasDig, d.handle = nil, nil, nil, nil, nil, nil, nil
		d.pool.Close()
	}
	return nil
}
