package simhash

import (
	"fmt"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
	"github.com/seed-9ef9c1df/neardup/internal/liveidf"
	"github.com/seed-9ef9c1df/neardup/internal/scratch"
	"github.com/seed-9ef9c1df/neardup/internal/spin"
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
// texts have equal fingerprints, and the digest index holds only documents
// with terms but no fingerprint (every feature dropped or weighing 0).
//
// Documents with the same term sequence and the same fingerprint (exact
// copies, as the Detector reads them) share one entry of the index;
// [Detector.Copies] lists them. Add, Containers and Query return at most
// Config.MaxResults matches, the strongest.
//
// A Detector is safe for concurrent use by multiple goroutines. Add analyses
// and signs its text without holding the Detector's lock, so Adds run in
// parallel and never stall Containers. With its own online table, the Adds
// take turns (on a lock of their own, which Containers, Fingerprint and Len
// never take) only to count their document, which gives the document
// frequencies their weights are computed from, so that every result is
// that of the Adds run one by one in the order they took their turn; the
// weighing and signing run after the turn, in parallel, and the inserts
// follow in turn order.
type Detector struct {
	cfg    Config
	pool   scratch.Pool[*Signer]
	online bool           // fingerprints depend on a table that can change
	turns  *liveidf.Turns // the Detector's own table and its turns, or nil
	idf    *textproc.IDF  // the caller's table, or nil

	mu sync.RWMutex
	st *state

	onCommit func(id string) // test hook, called under mu as a document is indexed
}

// testHookAnalysed, when set, runs in Add after the text is analysed and
// before the Detector's lock is taken.
var testHookAnalysed func()

// testHookInTurn, when set, runs in Add of a Detector with its own table
// while the Add holds its turn, after its document is counted.
var testHookInTurn func()

var (
	_ detector.Detector   = (*Detector)(nil)
	_ detector.Remover    = (*Detector)(nil)
	_ detector.Querier    = (*Detector)(nil)
	_ detector.Persister  = (*Detector)(nil)
	_ detector.CopyLister = (*Detector)(nil)
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
	d := &Detector{cfg: rc}
	if own {
		d.turns = liveidf.NewTurns("simhash", true, &d.mu)
		d.turns.OnCounted = func() {
			if testHookInTurn != nil {
				testHookInTurn()
			}
		}
	} else {
		d.idf = idf
	}
	d.online = own || idf != nil && rc.usesIDF() && !idf.Frozen()
	if d.st, err = newState(rc, d.online, own); err != nil {
		return nil, err
	}
	// With its own table the pool's Signers read no table: a turn gives
	// them the document frequencies of one document at a time, and each
	// keeps a cache of the table's cells by term ID. A new
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
// uses none. For a Detector from [New] it is a frozen copy of the
// Detector's own online table as it is at the call (the live documents'
// frequencies), which later Adds and Removes do not change: call IDF again
// for a later state. The copy is made on the first call after a change,
// in O(distinct terms), and shared by the calls until the next change.
func (d *Detector) IDF() *textproc.IDF {
	return d.turns.IDFOr(d.idf)
}

// Fingerprint returns the fingerprint of the live document id, and false if
// it has none (no features).
func (d *Detector) Fingerprint(id string) (uint64, bool, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.st.docs.Lookup("Fingerprint", id)
	if err != nil {
		return 0, false, err
	}
	return d.st.fps[idx], d.st.has[idx], nil
}

// Add indexes doc and returns its near-duplicates among the live
// documents, the Config.MaxResults strongest, ordered by
// [detector.SortMatches]. Add time is that of [Signer.Sign] plus one
// [Index.Query] and, for a new fingerprint, one [Index.Add]; an exact copy
// of a live document (same terms, same fingerprint) joins its group in
// O(log c) for c copies instead, and reads only the members that make the
// cap: a flood of copies costs each Add the same, however long it runs.
//
// The checks that need no analysis (closed, empty ID, size, duplicate ID)
// come first; the text is then analysed without the lock, and the checks
// are repeated under it: of several Adds of one new ID at once, exactly one
// succeeds and the others return detector.ErrDuplicateID.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	spin.RLock(&d.mu)
	docs := d.st.docs
	err := docs.Check(doc)
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
	// The content digest identifies the document's exact copies, and is
	// matched (Score 1) when the fingerprints can change.
	dig, hasDig := s.contentDigest()
	if d.turns == nil {
		s.weigh()
		fp, ok := s.sign()
		return d.insert(doc, fp, ok, dig, hasDig, -1, "")
	}
	// Our own table: in our turn, check again and count the document,
	// which gives the document frequencies of its terms as the table now
	// has them; weigh, sign and insert after the turn, in turn order,
	// while the next turn proceeds. The Detector keeps the packed terms
	// the table keeps (the same string: its snapshot stores them), and
	// exact copies share one packed string.
	packed := d.packedFor(dig, hasDig, s.terms)
	tk, dfs, err := d.turns.Enter(doc, docs, s.ownTerms(), packed, s.dfs[:0])
	s.dfs = dfs
	if err != nil {
		return nil, err
	}
	s.weighOwn(tk.N, false)
	fp, ok := s.sign()
	// Insert uncounts the document if it fails (closed meanwhile).
	return d.turns.Insert(tk, func(h int32) ([]detector.Match, error) {
		return d.insert(doc, fp, ok, dig, hasDig, h, packed)
	})
}

// packedFor returns the packed distinct terms of a document whose content
// digest is dig: those of a live copy (equal digests, equal term
// sequences), so that copies share one string, or a new packing.
func (d *Detector) packedFor(dig hashx.Digest, hasDig bool, terms []string) string {
	if !hasDig {
		return ""
	}
	spin.RLock(&d.mu)
	defer d.mu.RUnlock()
	if l := d.st.exact[dig]; len(l) > 0 && d.st.own {
		return d.st.packed[l[0]]
	}
	return liveidf.Pack(terms)
}

// insert indexes a signed document under the Detector's lock: the checks
// are repeated (closed, duplicate ID), and of several Adds of one new ID
// exactly one gets here first.
func (d *Detector) insert(doc detector.Doc, fp uint64, ok bool, dig hashx.Digest, hasDig bool, h int32, packed string) ([]detector.Match, error) {
	spin.Lock(&d.mu)
	defer d.mu.Unlock()
	d.turns.Settle(doc.ID)
	st := d.st
	idx, err := st.docs.Add(doc)
	if err != nil {
		return nil, err
	}
	ms := st.matches(fp, ok, dig, hasDig, noDoc, d.cfg.MaxResults)
	st.insert(idx, fp, ok, dig, hasDig, h, packed)
	if d.onCommit != nil {
		d.onCommit(doc.ID)
	}
	return ms, nil
}

// Query returns what Add(doc) would return now, without indexing doc or
// changing anything a later call observes: the near-duplicates of doc
// among the live documents, the Config.MaxResults strongest, ordered by
// [detector.SortMatches]. doc.ID may be empty; a live document with that
// ID is not reported. With its own online table the Detector weighs doc's
// terms as that table would once doc were counted (one more document, one
// more for each of its terms), without counting it; under concurrent Adds
// and Removes the table and the index are read as they are at some moment
// of the call. Query costs what Add does and takes no turn: Queries run in
// parallel with each other and with Adds.
//
// Query returns an error wrapping detector.ErrClosed after Close, or
// detector.ErrTooLarge for a text over Config.MaxTextBytes, before it
// reads the text.
func (d *Detector) Query(doc detector.Doc) ([]detector.Match, error) {
	if len(doc.Text) > d.cfg.MaxTextBytes {
		return nil, fmt.Errorf("simhash: Query(%q): %d bytes over the limit of %d: %w",
			doc.ID, len(doc.Text), d.cfg.MaxTextBytes, detector.ErrTooLarge)
	}
	if err := d.closedErr("Query", doc.ID); err != nil {
		return nil, err
	}
	s, err := d.pool.Get()
	if err != nil {
		return nil, err
	}
	defer d.pool.Put(s)
	s.analyse(doc.Text)
	dig, hasDig := s.contentDigest()
	if d.turns == nil {
		s.weigh()
	} else {
		var n int64
		n, s.dfs = d.turns.Table().Peek(s.ownTerms(), s.dfs[:0])
		s.weighOwn(n, true)
	}
	fp, ok := s.sign()
	d.mu.RLock()
	defer d.mu.RUnlock()
	st := d.st
	if st.docs.Closed() { // closed meanwhile
		return nil, fmt.Errorf("simhash: Query(%q): %w", doc.ID, detector.ErrClosed)
	}
	skip := uint32(noDoc)
	if doc.ID != "" {
		if idx, err := st.docs.Lookup("Query", doc.ID); err == nil {
			skip = idx
		}
	}
	return st.matches(fp, ok, dig, hasDig, skip, d.cfg.MaxResults), nil
}

// closedErr returns the error of op after Close, or nil.
func (d *Detector) closedErr(op, id string) error {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.st.docs.Closed() {
		return fmt.Errorf("simhash: %s(%q): %w", op, id, detector.ErrClosed)
	}
	return nil
}

// Containers returns the near-duplicates of the live document id, including
// documents added after it, the Config.MaxResults strongest, ordered by
// [detector.SortMatches]. Its time is one [Index.Query], plus the members
// read of each related group of copies (at most the cap).
func (d *Detector) Containers(id string) ([]detector.Match, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	st := d.st
	idx, err := st.docs.Lookup("Containers", id)
	if err != nil {
		return nil, err
	}
	return st.matches(st.fps[idx], st.has[idx], st.digest[idx], st.hasDig[idx], idx, d.cfg.MaxResults), nil
}

// Copies returns the live documents with the same terms in the same order
// as the live document id (its exact copies as the Detector reads them:
// after case folding, stopword removal and stemming), in ascending ID
// order, without id. Copies with equal fingerprints share one entry of the
// index; with an online table, copies signed at different times may have
// different fingerprints and are listed too. A document without terms has
// none. Copies is not capped; its time is O(c log c) for c copies. It
// returns an error wrapping detector.ErrUnknownID or detector.ErrClosed.
func (d *Detector) Copies(id string) ([]string, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.st.docs.Lookup("Copies", id)
	if err != nil {
		return nil, err
	}
	return d.st.copies(idx), nil
}

// Remove forgets the live document id, and uncounts it from the online
// IDF table the Detector owns. A document with live copies leaves its
// group in O(log c) for c copies; the last of a group takes it out of the
// index.
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
	idx, err := d.st.docs.Remove(id)
	if err != nil {
		return -1, err
	}
	return d.st.remove(idx), nil
}

// Len returns the number of live documents.
func (d *Detector) Len() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.st.docs.Len()
}

// Close releases the index. It is idempotent and returns nil; every later
// Add, Query, Containers, Copies, Fingerprint, Remove, WriteTo or ReadFrom
// returns an error wrapping detector.ErrClosed.
func (d *Detector) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if docs := d.st.docs; docs.Close() {
		d.st = &state{docs: docs, online: d.st.online, own: d.st.own}
		d.pool.Close()
	}
	return nil
}
