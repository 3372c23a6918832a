package imatch

import (
	"fmt"
	"slices"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/liveidf"
	"github.com/seed-9ef9c1df/neardup/internal/scratch"
	"github.com/seed-9ef9c1df/neardup/internal/spin"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Detector is an I-Match near-duplicate detector: documents sharing a
// signature [Key] are near-duplicates of each other (symmetric). A Match's
// Score is the fraction of lexicon signatures the two documents share,
// shared / max(|keys(a)|, |keys(b)|): 1 for plain I-Match, and 1 for exact
// duplicates.
//
// When the IDF table can change (an online table: the one [New] keeps, or an
// unfrozen table given to [NewWithIDF]), two copies of a text added at
// different times may select different terms. So that an exact duplicate is
// always reported, the Detector then also indexes a digest of each
// document's whole term sequence. With a frozen table equal texts have equal
// signatures, and the extra key is kept only for documents too short for a
// signature (fewer than MinTerms selected terms).
//
// A Detector is safe for concurrent use by multiple goroutines. Add analyses
// and signs its text without holding the Detector's lock, so Adds run in
// parallel and never stall Containers. With its own online table, the Adds
// take turns (on a lock of their own, which Containers, Copies, Cluster,
// Signature, Len and WriteTo never take) only to count their document,
// which gives the document frequencies their selection reads, so that
// every result is that of the Adds run one by one in the order they took
// their turn; the selection and the digests run after the turn, in
// parallel, and the inserts follow in turn order. Remove, Query and
// ReadFrom take a turn too, so that each sees the table and the index
// agree.
//
// Exact copies (documents of one analysed term sequence, the exact-content
// digest) that were given the same keys share one group: the index holds
// the group once, a further copy costs O(log c) for a group of c, and
// [Detector.Copies] lists them. Add, Containers and Query return at most
// Config.MaxResults matches, and read only the members of a group that can
// make that cut.
type Detector struct {
	cfg   Config
	pool  scratch.Pool[*Signer]
	exact bool           // index the exact-content key
	turns *liveidf.Turns // the Detector's own table and its turns, or nil
	idf   *textproc.IDF  // the caller's table, or nil

	mu sync.RWMutex
	ix *index

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

// New returns a Detector that keeps its own online IDF table over its live
// documents: every added document is counted before its signature is
// computed, so idf reflects the stream (the "recalculate IDF for each
// collection" option of Uyar 2009 §2.2.3), and a removed document is
// uncounted, so the table holds the terms of the live documents only. It
// returns an error wrapping detector.ErrInvalidConfig for an invalid Config,
// and nil otherwise.
func New(cfg Config) (*Detector, error) {
	return newDetector(cfg, nil, true)
}

// NewWithIDF returns a Detector that selects terms with idf, the caller's
// table, which it reads and never writes (the "generic collection" option of
// Uyar 2009 §2.2.3). Freeze the table for stable signatures. It returns an
// error wrapping detector.ErrInvalidConfig for an invalid Config or a nil
// table.
func NewWithIDF(cfg Config, idf *textproc.IDF) (*Detector, error) {
	if idf == nil {
		return nil, fmt.Errorf("imatch: NewWithIDF: nil IDF table: %w", detector.ErrInvalidConfig)
	}
	return newDetector(cfg, idf, false)
}

func newDetector(cfg Config, idf *textproc.IDF, owned bool) (*Detector, error) {
	rc, tc, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	d := &Detector{cfg: rc, ix: newIndex(rc.MaxTextBytes, owned)}
	if owned {
		d.turns = liveidf.NewTurns("imatch", false, &d.mu)
		d.turns.OnCounted = func() {
			if testHookInTurn != nil {
				testHookInTurn()
			}
		}
	} else {
		d.idf = idf
	}
	d.exact = owned || !idf.Frozen()
	// With its own table the pool's Signers read no table: a turn gives
	// them the document frequencies of one document at a time, and each
	// keeps a cache of the table's cells by term ID. A new
	// Signer cannot fail once the first is built: the same Config builds
	// it.
	d.pool.New = func() (*Signer, error) { return newSigner(rc, tc, idf) }
	d.pool.Tidy = (*Signer).tidy
	s, err := d.pool.Get()
	if err != nil {
		return nil, err
	}
	d.pool.Put(s)
	return d, nil
}

// Config returns the Detector's configuration with every default filled in.
func (d *Detector) Config() Config { return d.cfg }

// IDF returns the table the Detector selects terms with, e.g. to persist
// it. For a Detector from [New] it is a frozen copy of the Detector's own
// online table as it is at the call (the live documents' frequencies),
// which later Adds and Removes do not change: call IDF again for a later
// state. The copy is made on the first call after a change, in
// O(distinct terms), and shared by the calls until the next change.
func (d *Detector) IDF() *textproc.IDF {
	return d.turns.IDFOr(d.idf)
}

// Add indexes doc and returns its near-duplicates: the live documents that
// share one of its signatures, at most Config.MaxResults of them. Add time
// is that of [Signer.Sign] plus O(K+1) hash-table probes, the number of
// groups sharing a key, and O(r log r) for r results; an exact copy of a
// live document joins its group in O(log c) for c copies.
//
// The checks that need no analysis (closed, empty ID, size, duplicate ID)
// come first; the text is then analysed without the lock, and the checks
// are repeated under it: of several Adds of one new ID at once, exactly one
// succeeds and the others return detector.ErrDuplicateID.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	spin.RLock(&d.mu)
	docs := d.ix.docs
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
	s.analyze(doc.Text)
	if testHookAnalysed != nil {
		testHookAnalysed()
	}
	content, hasContent := s.content()
	if d.turns == nil {
		keys := d.withExact(s.appendKeys(nil), content, hasContent)
		return d.insert(doc, keys, content, "", -1)
	}
	// Our own table: in our turn, check again and count the document,
	// which gives the document frequencies of its terms as the table now
	// has them; select its terms and sign after the turn, and insert in
	// turn order, while the next turn proceeds. The document is counted with
	// the packed terms of a live copy when there is one, so that a flood
	// of copies keeps its terms once.
	packed := ""
	if len(s.terms) > 0 {
		var ok bool
		spin.RLock(&d.mu)
		packed, ok = d.ix.packedOf(content)
		d.mu.RUnlock()
		if !ok {
			packed = liveidf.Pack(s.terms)
		}
	}
	tk, dfs, err := d.turns.Enter(doc, docs, s.ownTerms(), packed, s.ownDF[:0])
	s.ownDF = dfs
	if err != nil {
		return nil, err
	}
	keys := d.withExact(s.appendOwnKeys(nil, tk.N, 0), content, hasContent)
	// Insert uncounts the document if it is refused (closed meanwhile).
	return d.turns.Insert(tk, func(h int32) ([]detector.Match, error) {
		return d.insert(doc, keys, content, packed, h)
	})
}

// withExact appends the exact-content key to a document's lexicon keys:
// for every document when the table can change (always the case with our
// own table), and for documents without signatures otherwise.
func (d *Detector) withExact(keys []Key, content Digest, hasContent bool) []Key {
	if hasContent && (d.exact || len(keys) == 0) {
		keys = append(keys, Key{Lexicon: exactLexicon, Digest: content})
	}
	return keys
}

// insert indexes a signed document under the Detector's lock: the checks
// are repeated (closed, duplicate ID), and of several Adds of one new ID
// exactly one gets here first.
func (d *Detector) insert(doc detector.Doc, keys []Key, content Digest, packed string, h int32) ([]detector.Match, error) {
	spin.Lock(&d.mu)
	defer d.mu.Unlock()
	d.turns.Settle(doc.ID)
	ix := d.ix
	idx, err := ix.docs.Add(doc)
	if err != nil {
		return nil, err
	}
	ms := ix.matches(keys, noDoc, d.cfg.MaxResults)
	ix.insert(idx, keys, content, packed, h)
	if d.onCommit != nil {
		d.onCommit(doc.ID)
	}
	return ms, nil
}

// Query returns what Add(doc) would return at this moment, without
// indexing doc or changing anything a later call observes: with its own
// table the Detector weighs doc as that table would after counting it,
// without counting it. doc.ID may be empty; a live document of that ID is
// not reported. Query runs in parallel with other Queries and with Adds
// (with its own table it selects its terms in a turn, as Add does). It
// returns an error wrapping detector.ErrTooLarge or detector.ErrClosed.
func (d *Detector) Query(doc detector.Doc) ([]detector.Match, error) {
	if len(doc.Text) > d.cfg.MaxTextBytes {
		return nil, fmt.Errorf("imatch: Query(%q): %d bytes over the limit of %d: %w",
			doc.ID, len(doc.Text), d.cfg.MaxTextBytes, detector.ErrTooLarge)
	}
	if err := d.open("Query", doc.ID); err != nil {
		return nil, err
	}
	s, err := d.pool.Get()
	if err != nil {
		return nil, err
	}
	defer d.pool.Put(s)
	s.analyze(doc.Text)
	content, hasContent := s.content()
	if d.turns == nil {
		return d.lookup(doc.ID, d.withExact(s.appendKeys(nil), content, hasContent))
	}
	var ms []detector.Match
	// A turn of its own, after the Adds of earlier turns are inserted:
	// the table and the index agree.
	err = d.turns.Do(func() error {
		var n int64
		n, s.ownDF = d.turns.Table().Peek(s.ownTerms(), s.ownDF[:0])
		keys := d.withExact(s.appendOwnKeys(nil, n, 1), content, hasContent)
		var err error
		ms, err = d.lookup(doc.ID, keys)
		return err
	})
	return ms, err
}

// open returns an error wrapping detector.ErrClosed after Close.
func (d *Detector) open(op, id string) error {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.ix.docs.Closed() {
		return fmt.Errorf("imatch: %s(%q): %w", op, id, detector.ErrClosed)
	}
	return nil
}

// lookup returns the matches of keys under a read lock, leaving out the
// live document id.
func (d *Detector) lookup(id string, keys []Key) ([]detector.Match, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	ix := d.ix
	if ix.docs.Closed() {
		return nil, fmt.Errorf("imatch: Query(%q): %w", id, detector.ErrClosed)
	}
	skip := uint32(noDoc)
	if id != "" {
		if idx, err := ix.docs.Lookup("Query", id); err == nil {
			skip = idx
		}
	}
	return ix.matches(keys, skip, d.cfg.MaxResults), nil
}

// Containers returns the near-duplicates of the live document id: every
// other live document sharing one of its signatures, including documents
// added after it, at most Config.MaxResults of them.
func (d *Detector) Containers(id string) ([]detector.Match, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	ix := d.ix
	idx, err := ix.docs.Lookup("Containers", id)
	if err != nil {
		return nil, err
	}
	g := ix.refs[idx]
	if g == noGroup {
		return []detector.Match{}, nil
	}
	return ix.matches(ix.groups[g].keys, idx, d.cfg.MaxResults), nil
}

// Copies returns the other live documents whose analysed term sequence
// (after case folding, stopword removal and stemming: the exact-content
// digest) is that of the live document id, in ascending ID order. They
// match id with score 1 and are reported by Add and Containers only up to
// the cap; Copies lists them all, in O(c log c) for c copies. A document
// without terms has no copies (it matches nothing). It returns an error
// wrapping detector.ErrUnknownID or detector.ErrClosed.
func (d *Detector) Copies(id string) ([]string, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	ix := d.ix
	idx, err := ix.docs.Lookup("Copies", id)
	if err != nil {
		return nil, err
	}
	out := []string{}
	g := ix.refs[idx]
	if g == noGroup {
		return out, nil
	}
	var mem []uint32
	for _, o := range ix.sameContent(nil, g) {
		mem = ix.members(mem, o)
	}
	for _, o := range mem {
		if o != idx {
			out = append(out, ix.docs.ID(o))
		}
	}
	slices.Sort(out)
	return out, nil
}

// Cluster returns the I-Match cluster of the live document id, sorted by ID
// and including id itself: the documents whose digest equals id's (Uyar 2009
// Fig. 2.4 step 7, "If there is a collision of digest values then the
// documents are similar"). With random sub-lexicons (and the exact-content
// key) a cluster is the connected component of digest collisions (Kołcz et
// al. 2004), so the relation is transitive. A document without signatures is
// alone in its cluster. Cluster time is O(size of the cluster · keys per
// document). The cluster is not capped.
func (d *Detector) Cluster(id string) ([]string, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	ix := d.ix
	idx, err := ix.docs.Lookup("Cluster", id)
	if err != nil {
		return nil, err
	}
	g := ix.refs[idx]
	if g == noGroup {
		return []string{id}, nil
	}
	seen := map[uint32]bool{g: true}
	queue := []uint32{g}
	var mem []uint32
	for len(queue) > 0 {
		cur := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		mem = ix.members(mem, cur)
		for _, k := range ix.groups[cur].keys {
			for _, o := range ix.post[k] {
				if !seen[o] {
					seen[o] = true
					queue = append(queue, o)
				}
			}
		}
	}
	out := make([]string, 0, len(mem))
	for _, o := range mem {
		out = append(out, ix.docs.ID(o))
	}
	slices.Sort(out)
	return out, nil
}

// Signature returns the signatures of the live document id, as [Signer.Sign]
// computed them when it was added (without the exact-content key).
func (d *Detector) Signature(id string) ([]Key, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	ix := d.ix
	idx, err := ix.docs.Lookup("Signature", id)
	if err != nil {
		return nil, err
	}
	g := ix.refs[idx]
	if g == noGroup {
		return nil, nil
	}
	ks := ix.groups[g].keys
	return slices.Clone(ks[:lexiconKeys(ks)]), nil
}

// Remove forgets the live document id, and uncounts it from the online IDF
// table the Detector owns.
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
	idx, err := d.ix.docs.Remove(id)
	if err != nil {
		return -1, err
	}
	return d.ix.remove(idx), nil
}

// Len returns the number of live documents.
func (d *Detector) Len() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.ix.docs.Len()
}

// Close releases the index. It is idempotent and returns nil; later calls
// return an error wrapping detector.ErrClosed.
func (d *Detector) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ix.docs.Close() {
		d.ix = &index{docs: d.ix.docs}
		d.pool.Close()
	}
	return nil
}
