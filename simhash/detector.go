package simhash

import (
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/internal/idftab"
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
// A Detector is safe for concurrent use by multiple goroutines (the shell
// of package internal/engine). Add analyses and signs its text without
// holding the Detector's lock, so Adds run in parallel and never stall
// Containers. With its own online table, the Adds take turns (on a lock
// of their own, which Containers, Fingerprint, Query and Len never take)
// only to count their document, which gives the document frequencies
// their weights are computed from, so that every result is that of the
// Adds run one by one in the order they took their turn; the weighing and
// signing run after the turn, in parallel, and the commits follow in turn
// order.
type Detector struct {
	cfg  Config
	pool *engine.Pool[*Signer]
	own  bool          // the Detector keeps its own online table
	idf  *textproc.IDF // the caller's table, or nil
	e    *engine.Engine[sig, sigKey]

	// closedTable is the own table as Close left it, for IDF.
	closedTable atomic.Pointer[idftab.Table]

	onCommit func(id string) // test hook, called under the engine's lock as a document is committed
}

// testHookAnalysed, when set, runs in Add after the text is analysed and
// before the Detector's lock is taken.
var testHookAnalysed func()

// testHookInTurn, when set, runs in Add of a Detector with its own table
// while the Add holds its turn, after its document is counted.
var testHookInTurn func()

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
	d := &Detector{cfg: rc, own: own, idf: idf, pool: &engine.Pool[*Signer]{}}
	// A new Signer cannot fail once the first is built: the same Config
	// and table build it.
	d.pool.New = func() (*Signer, error) { return newSigner(rc, tc, idf) }
	d.pool.Tidy = (*Signer).tidy
	d.pool.Put(s)
	alg := algorithm{cfg: &d.cfg, pool: d.pool, own: own,
		online: own || idf != nil && rc.usesIDF() && !idf.Frozen()}
	spec := engine.Spec{
		Name:          snapshotKind,
		Version:       snapshotVersion,
		Config:        storedConfig(rc),
		NoGroup:       "bare",
		MinGroupBytes: 28, // 1+8+16 bytes, a count and one ID
		MaxTextBytes:  rc.MaxTextBytes,
		MaxResults:    rc.MaxResults,
		Trace: func(remove bool, id string) {
			if !remove && d.onCommit != nil {
				d.onCommit(id)
			}
		},
	}
	if idf != nil && rc.usesIDF() {
		spec.TablesNow = func() map[string]uint64 { return map[string]uint64{"idf": idf.Fingerprint()} }
	}
	d.e = engine.New(spec, alg)
	return d, nil
}

// algorithm is SimHash as the engine sees it. Without the Detector's own
// table, Features analyses and signs a text; with it, Features analyses
// the text and keeps its Signer for the turn (ownIndex), which signs it
// with the frequencies the turn gives.
type algorithm struct {
	cfg         *Config
	pool        *engine.Pool[*Signer]
	own, online bool
}

var _ engine.Releaser[sig] = algorithm{}

// Features analyses text and computes its content digest, which identifies
// its exact copies and is matched (Score 1) when fingerprints can change;
// without the own table it also weighs and signs it.
func (a algorithm) Features(text string) sig {
	s, err := a.pool.Get()
	if err != nil {
		// Cannot happen: the first Signer of this Config was built by
		// New. A text no Signer reads matches nothing.
		return sig{}
	}
	s.analyse(text)
	if testHookAnalysed != nil {
		testHookAnalysed()
	}
	f := sig{s: s}
	f.dig, f.hasDig = s.contentDigest()
	if !a.own {
		s.weigh()
		f.fp, f.has = s.sign()
		putSigner(a.pool, &f)
	}
	return f
}

// Release hands back the Signer of features the engine drops unsigned.
func (a algorithm) Release(f *sig) { putSigner(a.pool, f) }

func (a algorithm) CopyKey(f *sig) (sigKey, bool) {
	return sigKey{fp: f.fp, dig: f.dig, has: f.has}, f.hasDig
}

func (a algorithm) NewIndex() engine.Index[sig] {
	ham, err := NewIndex(a.cfg.k(), a.cfg.Blocks)
	if err != nil {
		// Cannot happen: validate checked this Config's K and Blocks.
		ham = &Index{}
	}
	ix := &index{ham: ham, exact: make(map[hashtab.Digest][]uint32), online: a.online}
	if !a.own {
		return ix
	}
	return &ownIndex{index: ix, table: idftab.New(true), pool: a.pool}
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
	if !d.own {
		return d.idf
	}
	if t := d.table(); t != nil {
		return t.IDF()
	}
	if t := d.closedTable.Load(); t != nil {
		return t.IDF()
	}
	return idftab.New(true).IDF() // closed before any table was read: empty
}

// table returns the own table of the current index, or nil after Close.
func (d *Detector) table() *idftab.Table {
	var t *idftab.Table
	d.e.Inspect(func(ix engine.Index[sig], _ int) {
		if o, ok := ix.(*ownIndex); ok {
			t = o.table
		}
	})
	return t
}

// Fingerprint returns the fingerprint of the live document id, and false if
// it has none (no features).
func (d *Detector) Fingerprint(id string) (fp uint64, ok bool, err error) {
	err = d.e.Group("Fingerprint", id, func(f *sig) {
		if f != nil {
			fp, ok = f.fp, f.has
		}
	})
	return fp, ok, err
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
// come first; the text is then analysed and signed without the lock (with
// the Detector's own table, it is counted in a turn in between), and the
// checks are repeated under it: of several Adds of one new ID at once,
// exactly one succeeds and the others return detector.ErrDuplicateID.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) { return d.e.Add(doc) }

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
func (d *Detector) Query(doc detector.Doc) ([]detector.Match, error) { return d.e.Query(doc) }

// Nearest returns the live documents nearest to text, best first, the
// min(k, Config.MaxResults) best, storing nothing (detector.Ranker): its
// exact copies, then the fingerprints nearest to its, at any distance,
// scored 1 − distance/64 as Query scores them. Up to a size set by the
// tables (35,000 documents at the defaults) it scans every fingerprint and
// finds the exact nearest; beyond, it probes each table's keys within two
// bits of the text's and misses fingerprints that agree on no table's key.
// On 5,000 Reuters stories it costs 1.9 Queries (simhash-spots 1.1).
func (d *Detector) Nearest(text string, k int) ([]detector.Match, error) { return d.e.Nearest(text, k) }

// Containers returns the near-duplicates of the live document id, including
// documents added after it, the Config.MaxResults strongest, ordered by
// [detector.SortMatches]. Its time is one [Index.Query], plus the members
// read of each related group of copies (at most the cap).
func (d *Detector) Containers(id string) ([]detector.Match, error) { return d.e.Containers(id) }

// Copies returns the live documents with the same terms in the same order
// as the live document id (its exact copies as the Detector reads them:
// after case folding, stopword removal and stemming), in ascending ID
// order, without id. Copies with equal fingerprints share one entry of the
// index; with an online table, copies signed at different times may have
// different fingerprints and are listed too. A document without terms has
// none. Copies is not capped; its time is O(c log c) for c copies. It
// returns an error wrapping detector.ErrUnknownID or detector.ErrClosed.
func (d *Detector) Copies(id string) ([]string, error) {
	ids, err := d.e.Union("Copies", id, func(g uint32, f *sig, ix engine.Index[sig]) []uint32 {
		return baseIndex(ix).related(g, f)
	})
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(ids, func(o string) bool { return o == id }), nil
}

// baseIndex returns the index under either kind of engine index.
func baseIndex(ix engine.Index[sig]) *index {
	if o, ok := ix.(*ownIndex); ok {
		return o.index
	}
	return ix.(*index)
}

// Remove forgets the live document id, and uncounts it from the online
// IDF table the Detector owns. A document with live copies leaves its
// group in O(log c) for c copies; the last of a group takes it out of the
// index.
func (d *Detector) Remove(id string) error { return d.e.Remove(id) }

// Len returns the number of live documents.
func (d *Detector) Len() int { return d.e.Len() }

// Close releases the index. It is idempotent and returns nil; every later
// Add, Query, Containers, Copies, Fingerprint, Remove, WriteTo or ReadFrom
// returns an error wrapping detector.ErrClosed.
func (d *Detector) Close() error {
	if d.own {
		if t := d.table(); t != nil {
			d.closedTable.CompareAndSwap(nil, t)
		}
	}
	err := d.e.Close()
	d.pool.Close()
	return err
}
