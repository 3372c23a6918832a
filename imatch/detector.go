package imatch

import (
	"fmt"
	"slices"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/liveidf"
	"github.com/seed-9ef9c1df/neardup/internal/matches"
	"github.com/seed-9ef9c1df/neardup/internal/postings"
	"github.com/seed-9ef9c1df/neardup/internal/scratch"
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
// and (unless the Detector owns an online table) signs its text without
// holding the Detector's lock, so Adds run in parallel and never stall
// Containers. With its own online table, the Adds take turns (on a lock of
// their own, which Containers, Cluster, Signature and Len never take) to
// count their document and select its terms, so that every result is that
// of the Adds run one by one in the order they took their turn; their
// analysis still runs in parallel.
type Detector struct {
	cfg   Config
	pool  scratch.Pool[*Signer]
	exact bool           // index the exact-content key
	turns *liveidf.Turns // the Detector's own table and its turns, or nil
	idf   *textproc.IDF  // the caller's table, or nil

	mu     sync.RWMutex
	docs   *docset.Set
	post   map[Key][]uint32
	keys   [][]Key // by dense index
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
	d := &Detector{cfg: rc, docs: docset.New("imatch", rc.MaxTextBytes), post: make(map[Key][]uint32)}
	if owned {
		d.turns = liveidf.NewTurns("imatch", false, &d.mu)
	} else {
		d.idf = idf
	}
	d.exact = owned || !idf.Frozen()
	// With its own table the pool's Signers get it in their turn, for one
	// document at a time, and hold no table between documents. A new
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
// it. For a Detector from [New] this is its own online table, which it
// replaces by a compact copy after most of its documents are removed: call
// IDF again rather than keep the result across Removes.
func (d *Detector) IDF() *textproc.IDF {
	return d.turns.IDFOr(d.idf)
}

// Add indexes doc and returns its near-duplicates: the live documents that
// share one of its signatures. Add time is that of [Signer.Sign] plus
// O(K+1) hash-table probes and the size of the matched groups.
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
	s.analyze(doc.Text)
	if testHookAnalysed != nil {
		testHookAnalysed()
	}
	var keys []Key
	if d.turns == nil {
		keys = s.appendKeys(nil)
	}
	// The exact-content key: for every document when the table can change
	// (always the case with our own table), and for documents without
	// signatures otherwise.
	var exact Key
	hasExact := false
	if d.exact || len(keys) == 0 {
		exact, hasExact = s.exactKey()
	}

	if d.turns == nil {
		return d.insert(doc, keys, exact, hasExact, -1)
	}
	// Our own table: in our turn, check again, count the document and
	// select its terms against the table as it now is; insert in turn
	// order, while the next turn proceeds.
	tk, err := d.turns.Enter(doc, d.docs, s.terms)
	if err != nil {
		return nil, err
	}
	s.idf = d.turns.IDF()
	keys = s.appendKeys(nil)
	s.idf = nil // the table may be replaced by the next Remove
	if testHookInTurn != nil {
		testHookInTurn()
	}
	d.turns.Leave()
	return d.turns.Insert(tk, func(h int32) ([]detector.Match, error) {
		return d.insert(doc, keys, exact, hasExact, h)
	})
}

// insert indexes a signed document under the Detector's lock: the checks
// are repeated (closed, duplicate ID), and of several Adds of one new ID
// exactly one gets here first.
func (d *Detector) insert(doc detector.Doc, keys []Key, exact Key, hasExact bool, h int32) ([]detector.Match, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.turns.Settle(doc.ID)
	idx, err := d.docs.Add(doc)
	if err != nil {
		return nil, err
	}
	if hasExact {
		keys = append(keys, exact)
	}
	ms := d.matches(idx, keys)
	for _, k := range keys {
		d.post[k] = append(d.post[k], idx)
	}
	if n := d.docs.Cap(); n > len(d.keys) {
		d.keys = append(d.keys, make([][]Key, n-len(d.keys))...)
		d.handle = append(d.handle, make([]int32, n-len(d.handle))...)
	}
	d.keys[idx] = slices.Clip(keys)
	d.handle[idx] = h
	if d.onCommit != nil {
		d.onCommit(doc.ID)
	}
	return ms, nil
}

// lexiconKeys counts the keys that are not the exact-content key.
func lexiconKeys(keys []Key) int {
	n := len(keys)
	if n > 0 && keys[n-1].Lexicon == exactLexicon {
		n--
	}
	return n
}

// matches returns the live documents other than self sharing a key with
// keys, scored by the fraction of shared lexicon keys.
func (d *Detector) matches(self uint32, keys []Key) []detector.Match {
	var hits []uint32
	exactHit := map[uint32]bool{}
	for _, k := range keys {
		for _, o := range d.post[k] {
			if o == self {
				continue
			}
			if k.Lexicon == exactLexicon {
				exactHit[o] = true
				continue
			}
			hits = append(hits, o)
		}
	}
	for o := range exactHit {
		hits = append(hits, o)
	}
	if len(hits) == 0 {
		return []detector.Match{}
	}
	slices.Sort(hits)
	mine := lexiconKeys(keys)
	var out []detector.Match
	for i := 0; i < len(hits); {
		j := i
		for j < len(hits) && hits[j] == hits[i] {
			j++
		}
		o := hits[i]
		score := 1.0
		if !exactHit[o] {
			shared := j - i
			score = float64(shared) / float64(max(mine, lexiconKeys(d.keys[o])))
		}
		out = append(out, detector.Match{ID: d.docs.ID(o), Score: score})
		i = j
	}
	return matches.Top(out, 0)
}

// Containers returns the near-duplicates of the live document id: every
// other live document sharing one of its signatures, including documents
// added after it.
func (d *Detector) Containers(id string) ([]detector.Match, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.docs.Lookup("Containers", id)
	if err != nil {
		return nil, err
	}
	return d.matches(idx, d.keys[idx]), nil
}

// Cluster returns the I-Match cluster of the live document id, sorted by ID
// and including id itself: the documents whose digest equals id's (Uyar 2009
// Fig. 2.4 step 7, "If there is a collision of digest values then the
// documents are similar"). With random sub-lexicons (and the exact-content
// key) a cluster is the connected component of digest collisions (Kołcz et
// al. 2004), so the relation is transitive. A document without signatures is
// alone in its cluster. Cluster time is O(size of the cluster · keys per
// document).
func (d *Detector) Cluster(id string) ([]string, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.docs.Lookup("Cluster", id)
	if err != nil {
		return nil, err
	}
	seen := map[uint32]bool{idx: true}
	queue := []uint32{idx}
	for len(queue) > 0 {
		cur := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, k := range d.keys[cur] {
			for _, o := range d.post[k] {
				if !seen[o] {
					seen[o] = true
					queue = append(queue, o)
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for o := range seen {
		out = append(out, d.docs.ID(o))
	}
	slices.Sort(out)
	return out, nil
}

// Signature returns the signatures of the live document id, as [Signer.Sign]
// computed them when it was added (without the exact-content key).
func (d *Detector) Signature(id string) ([]Key, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.docs.Lookup("Signature", id)
	if err != nil {
		return nil, err
	}
	ks := d.keys[idx]
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
	idx, err := d.docs.Remove(id)
	if err != nil {
		return -1, err
	}
	for _, k := range d.keys[idx] {
		postings.Delete(d.post, k, idx)
	}
	d.keys[idx] = nil
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
		d.post, d.keys, d.handle = nil, nil, nil
		d.pool.Close()
	}
	return nil
}
