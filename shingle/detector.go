package shingle

import (
	"fmt"
	"slices"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/matches"
	plist "github.com/seed-9ef9c1df/neardup/internal/postings"
)

// Detector is a full-fingerprinting, DSC or SpotSigs detector, as its
// Config.Method says, over one inverted index of integer posting lists.
//
// A Detector is safe for concurrent use by multiple goroutines. Text is
// analysed and signed outside the index's lock, full-fingerprinting and DSC
// postings are inserted under per-shard locks, and searches (Add's answer,
// Containers) share a read lock, so concurrent Adds work in parallel and a
// long Add holds up other calls only while it registers, publishes (and,
// for SpotSigs, inserts) its document.
type Detector struct {
	cfg Config
	ex  sync.Pool // *extractor, one per concurrent Add

	// mu guards the index: held exclusively to change it, shared by
	// searches (the answer of Add, Containers), each with scratch from sq
	// (SpotSigs) or cq (FullFingerprint, DSC).
	mu   sync.RWMutex
	sq   sync.Pool // *spotQuery
	cq   sync.Pool // *containQuery
	docs *docset.Set
	con  *containIndex // FullFingerprint, DSC
	spot *spotIndex    // SpotSigs

	// Exact duplicates for SpotSigs: the release reports a pair whose
	// contents hash alike whatever their signatures (SpotSigs.java
	// deduplicateIndex: counter.SHA1.equals(counter2.SHA1)).
	digest []uint64 // by dense index; 0 = no words
	byHash map[uint64][]uint32
}

var (
	_ detector.Detector = (*Detector)(nil)
	_ detector.Remover  = (*Detector)(nil)
)

// New returns a detector for cfg. It returns an error wrapping
// detector.ErrInvalidConfig, naming the field, when a field is out of
// range (a negative length, a threshold outside (0, 1], MinIDF ≥ MaxIDF, a
// NaN, an unknown Method or Sampling, a Language that is not a BCP 47
// tag, ...); otherwise the error is nil.
func New(cfg Config) (*Detector, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	ex, err := newExtractor(cfg)
	if err != nil {
		return nil, err
	}
	d := &Detector{cfg: cfg, docs: docset.New("shingle", cfg.MaxTextBytes)}
	d.ex.New = func() any {
		e, err := newExtractor(cfg)
		if err != nil {
			panic(err) // unreachable: the same cfg built one above
		}
		return e
	}
	d.ex.Put(ex)
	if cfg.Method == SpotSigs {
		d.spot = &spotIndex{cfg: cfg}
		d.byHash = map[uint64][]uint32{}
	} else {
		d.con = &containIndex{cfg: cfg}
	}
	return d, nil
}

// Config returns the detector's effective configuration: every default
// filled in.
func (d *Detector) Config() Config { return d.cfg }

// analysis is a text's features, computed outside the lock and owned by
// the Add that computed them.
type analysis struct {
	set, super []uint64 // FullFingerprint, DSC
	size       int
	hashes     []uint64 // SpotSigs
	cnt        []uint32
	digest     uint64
	words      bool
}

// analyse computes the features of text with a pooled extractor.
func (d *Detector) analyse(text string) analysis {
	e := d.ex.Get().(*extractor)
	var a analysis
	switch d.cfg.Method {
	case SpotSigs:
		h, c := e.spots(text)
		a.hashes, a.cnt = slices.Clone(h), slices.Clone(c)
		a.digest, a.words = e.hash, e.ntok > 0
	case FullFingerprint:
		a.set = slices.Clone(e.shingles(text))
		a.size = len(a.set)
	default:
		set, size := e.sample(text)
		a.set, a.size = slices.Clone(set), size
		if d.cfg.SuperShingle > 0 {
			a.super = slices.Clone(e.superShingles(a.set, d.cfg.SuperShingle))
		}
	}
	if e.release(len(text)) {
		d.ex.Put(e)
	}
	return a
}

// Add indexes doc and returns the live documents that contain it: for full
// fingerprinting and DSC the documents holding at least Threshold of its
// shingles (or sample), scored by that fraction; for SpotSigs its
// near-duplicates, scored by multiset Jaccard similarity (1 for an exact
// duplicate). Matches are ordered by [detector.SortMatches]. The answer is
// the one [Detector.Containers] gives for doc right after the Add.
//
// The closed, ID and size checks come first; the text is then analysed
// without the lock, which is taken again to register the ID (checked
// again: of concurrent Adds of one new ID, exactly one succeeds and the
// others return an error wrapping detector.ErrDuplicateID). Full
// fingerprinting and DSC insert their postings under per-shard locks only
// and take the lock briefly to publish the document (until then
// Containers and Remove of its ID report it unknown); SpotSigs inserts
// under the lock. The answer is searched under a read lock shared with
// other searches: under concurrent Adds it reflects the index when the
// search runs, which may already hold a document added concurrently; if
// the document was removed before its answer, Add returns no match.
//
// Add time for full fingerprinting is O(n log n + P + K·n) for a text of n
// shingles, P the postings of its n−⌈θn⌉+1 rarest shingles and K the
// candidates they yield; DSC works on the sample. SpotSigs is O(n + P' +
// K'·n), with P' the postings scanned before early termination, plus the
// documents holding a signature whose idf crosses the band's edge with
// this Add (see the package documentation).
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	d.mu.Lock()
	err := d.docs.Check(doc)
	d.mu.Unlock()
	if err != nil {
		return nil, err
	}
	a := d.analyse(doc.Text)
	d.mu.Lock()
	idx, err := d.docs.Add(doc) // closed or a duplicate ID since the check
	if err != nil {
		d.mu.Unlock()
		return nil, err
	}
	if d.cfg.Method == SpotSigs {
		d.spot.insert(idx, a.hashes, a.cnt)
		d.setDigest(idx, a.digest, a.words)
		d.mu.Unlock()
	} else {
		// The postings go in under their shards' locks only; until
		// publish, the document is pending: registered (its ID taken) but
		// invisible.
		x := d.con
		x.reserve(idx)
		d.mu.Unlock()
		x.insertPostings(idx, a.set)
		d.mu.Lock()
		if d.docs.Closed() {
			d.mu.Unlock()
			return nil, fmt.Errorf("shingle: Add(%q): %w", doc.ID, detector.ErrClosed)
		}
		x.publish(idx, a.set, a.size, a.super)
		d.mu.Unlock()
	}
	// The search only reads: it shares the lock with other searches.
	d.mu.RLock()
	defer d.mu.RUnlock()
	if cur, err := d.docs.Lookup("Add", doc.ID); err != nil || cur != idx {
		if d.docs.Closed() {
			return nil, fmt.Errorf("shingle: Add(%q): %w", doc.ID, detector.ErrClosed)
		}
		return []detector.Match{}, nil // removed by a concurrent Remove before the answer
	}
	return d.answer(idx), nil
}

// answer returns the matches of live document idx: its containers (FFP,
// DSC) or near-duplicates (SpotSigs). It needs the lock, shared or not.
func (d *Detector) answer(idx uint32) []detector.Match {
	if d.cfg.Method == SpotSigs {
		return d.similar(idx)
	}
	return d.containers(idx)
}

// lookup returns the dense index of a live, published document.
func (d *Detector) lookup(op, id string) (uint32, error) {
	idx, err := d.docs.Lookup(op, id)
	if err == nil && d.con != nil && d.con.isPending(idx) {
		// Its Add has not returned: as if the call came before it.
		return 0, fmt.Errorf("shingle: %s(%q): %w", op, id, detector.ErrUnknownID)
	}
	return idx, err
}

func (d *Detector) setDigest(idx uint32, h uint64, ok bool) {
	for int(idx) >= len(d.digest) {
		d.digest = append(d.digest, 0)
	}
	if !ok {
		d.digest[idx] = 0
		return
	}
	h |= 1
	d.digest[idx] = h
	d.byHash[h] = append(d.byHash[h], idx)
}

// containers answers for FullFingerprint and DSC. It needs the lock,
// shared or not.
func (d *Detector) containers(idx uint32) []detector.Match {
	q, _ := d.cq.Get().(*containQuery)
	if q == nil {
		q = &containQuery{}
	}
	defer d.cq.Put(q)
	x := d.con
	q.hits = x.containers(x.sets[idx], x.super[idx], idx, d.docs.Cap(), q.hits[:0], q)
	out := d.matches(q.hits)
	if cap(q.hits) > largeScratch {
		q.hits = nil
	}
	return out
}

// similar answers for SpotSigs: the near-duplicates under the live
// statistics plus the exact duplicates. It needs the lock, shared or not.
func (d *Detector) similar(idx uint32) []detector.Match {
	q, _ := d.sq.Get().(*spotQuery)
	if q == nil {
		q = &spotQuery{}
	}
	defer d.sq.Put(q)
	hits := d.spot.similar(idx, d.docs.Cap(), q.hits[:0], q)
	if h := d.digest[idx]; h != 0 {
		for _, o := range d.byHash[h] {
			if o == idx {
				continue
			}
			if i := slices.IndexFunc(hits, func(x hit) bool { return x.idx == o }); i >= 0 {
				hits[i].score = 1
			} else {
				hits = append(hits, hit{o, 1})
			}
		}
	}
	q.hits = hits
	if cap(q.hits) > largeScratch {
		q.hits = nil
	}
	return d.matches(hits)
}

func (d *Detector) matches(hits []hit) []detector.Match {
	if len(hits) == 0 {
		return []detector.Match{}
	}
	out := make([]detector.Match, len(hits))
	for i, h := range hits {
		out[i] = detector.Match{ID: d.docs.ID(h.idx), Score: h.score}
	}
	return matches.Top(out, 0)
}

// Containers returns the live documents that contain the document id (for
// SpotSigs, its near-duplicates), including ones added after it, ordered by
// [detector.SortMatches]. It is computed from the index on every call, with
// the cost of an Add of the same text (no analysis); for SpotSigs it is
// exact under the live document frequencies, which the index keeps up to
// date with every Add and Remove.
func (d *Detector) Containers(id string) ([]detector.Match, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.lookup("Containers", id)
	if err != nil {
		return nil, err
	}
	return d.answer(idx), nil
}

// Remove forgets the document id and purges it from every posting list.
func (d *Detector) Remove(id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, err := d.lookup("Remove", id); err != nil {
		return err
	}
	idx, err := d.docs.Remove(id)
	if err != nil {
		return err
	}
	if d.cfg.Method == SpotSigs {
		d.spot.remove(idx)
		if h := d.digest[idx]; h != 0 {
			plist.Delete(d.byHash, h, idx)
			d.digest[idx] = 0
		}
		return nil
	}
	d.con.remove(idx)
	return nil
}

// Close releases the index. It is idempotent and returns nil; later calls
// return an error wrapping detector.ErrClosed.
func (d *Detector) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.docs.Close() {
		d.con, d.spot, d.byHash, d.digest = nil, nil, nil, nil
	}
	return nil
}

// Len returns the number of live documents, 0 after Close. An Add in progress
// counts from the moment its ID is registered, a moment before its
// document is visible to Containers.
func (d *Detector) Len() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.docs.Len()
}
