package shingle

import (
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
	"github.com/seed-9ef9c1df/neardup/internal/spin"
)

// Detector is a full-fingerprinting, DSC or SpotSigs detector, as its
// Config.Method says, over one inverted index of integer posting lists.
//
// A Detector is safe for concurrent use by multiple goroutines. Text is
// analysed and signed outside the index's lock; each Add takes one
// exclusive turn to register its document (answering as sequential Adds
// in the order of the turns would), with full fingerprinting's and DSC's
// search before it (posting lengths under per-shard locks, the rest under
// a read lock) and their postings inserted after it under per-shard
// locks; SpotSigs inserts and searches in its turn. Containers, Copies and
// Query share the read lock.
type Detector struct {
	cfg Config
	ex  sync.Pool // *extractor, one per concurrent Add

	// mu guards ix: held exclusively to change it, shared by searches
	// (the answer of Add, Containers, Query), each with scratch from sq
	// (SpotSigs) or cq (FullFingerprint, DSC). ReadFrom swaps ix whole.
	mu spin.RWMutex
	sq sync.Pool // *spotQuery
	cq sync.Pool // *containQuery
	ix *index

	// turn, when set (by tests only), is called in each exclusive turn
	// that adds or removes a document, in the order of the turns: the
	// order in which concurrent calls are linearised.
	turn func(remove bool, id string)
}

// index is a Detector's state. Documents with equal features share a
// group (see groups), and the search index (con or spot) holds groups.
type index struct {
	docs *docset.Set
	gs   *groups
	con  *containIndex // FullFingerprint, DSC
	spot *spotIndex    // SpotSigs

	// keys finds a text's group: the hash of its features and size
	// (FullFingerprint, DSC) or the digest of its token sequence
	// (SpotSigs) → the live groups with it. For SpotSigs it also gives
	// the exact duplicates: the release reports a pair whose contents
	// hash alike whatever their signatures (SpotSigs.java
	// deduplicateIndex: counter.SHA1.equals(counter2.SHA1)).
	keys     map[uint64][]uint32
	key      []uint64 // by group
	keysPeak int
	// ready holds, for each FullFingerprint or DSC group whose postings
	// are being inserted, a channel closed once it is published: an exact
	// copy added meanwhile waits on it before answering.
	ready map[uint32]chan struct{}

	// noGroups puts every document in a group of its own, as the index
	// was before exact copies were grouped: the reference of tests
	// (never set otherwise).
	noGroups bool
}

var (
	_ detector.Detector   = (*Detector)(nil)
	_ detector.Remover    = (*Detector)(nil)
	_ detector.Querier    = (*Detector)(nil)
	_ detector.CopyLister = (*Detector)(nil)
	_ detector.Persister  = (*Detector)(nil)
)

// New returns a detector for cfg. It returns an error wrapping
// detector.ErrInvalidConfig, naming the field, when a field is out of
// range (a negative length, a threshold outside (0, 1], MinIDF ≥ MaxIDF, a
// NaN, an unknown Method or Sampling, a Language that is not a BCP 47
// tag, a negative MaxResults, ...); otherwise the error is nil.
func New(cfg Config) (*Detector, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	ex, err := newExtractor(cfg)
	if err != nil {
		return nil, err
	}
	d := &Detector{cfg: cfg, ix: newIndex(cfg)}
	d.ex.New = func() any {
		e, err := newExtractor(cfg)
		if err != nil {
			panic(err) // unreachable: the same cfg built one above
		}
		return e
	}
	d.ex.Put(ex)
	return d, nil
}

func newIndex(cfg Config) *index {
	docs := docset.New("shingle", cfg.MaxTextBytes)
	ix := &index{docs: docs, gs: newGroups(docs), keys: map[uint64][]uint32{}, ready: map[uint32]chan struct{}{}}
	if cfg.Method == SpotSigs {
		ix.spot = &spotIndex{cfg: cfg}
	} else {
		ix.con = &containIndex{cfg: cfg}
	}
	return ix
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
	sids       []uint32   // SpotSigs: IDs of hashes found by resolve, or nil
	sidsIn     *spotIndex // the index resolve read
	sidsAt     uint64     // its frees then
	key        uint64     // the group key; 0: no words, in no group
}

// analyse computes the features of text with a pooled extractor.
func (d *Detector) analyse(text string) analysis {
	e := d.ex.Get().(*extractor)
	var a analysis
	switch d.cfg.Method {
	case SpotSigs:
		h, c := e.spots(text)
		a.hashes, a.cnt = slices.Clone(h), slices.Clone(c)
		if e.ntok > 0 {
			a.key = e.hash | 1
		}
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
	if d.cfg.Method != SpotSigs && len(a.set) > 0 {
		a.key = setKey(a.set, a.size)
	}
	if e.release(len(text)) {
		d.ex.Put(e)
	}
	return a
}

// setKey is the group key of a FullFingerprint or DSC feature set.
func setKey(set []uint64, size int) uint64 {
	h := uint64(0x4752_4f55_50)
	for _, f := range set {
		h = hashx.Combine(h, f)
	}
	return hashx.Combine(h, uint64(size)) | 1
}

// find returns the live group whose features are a's.
func (ix *index) find(a *analysis) (uint32, bool) {
	if ix.noGroups {
		return 0, false
	}
	for _, g := range ix.keys[a.key] {
		if ix.same(g, a) {
			return g, true
		}
	}
	return 0, false
}

// same reports whether the live group g has the features of a.
func (ix *index) same(g uint32, a *analysis) bool {
	if x := ix.con; x != nil {
		return x.size[g] == a.size && slices.Equal(x.sets[g], a.set)
	}
	x := ix.spot
	if int(g) >= len(x.docs) || !x.docs[g].counted {
		// An uncounted text (too few signatures) is read by its digest only.
		total := 0
		for _, c := range a.cnt {
			total += int(c)
		}
		return total < x.cfg.MinSignatures
	}
	d := &x.docs[g]
	if len(d.sigs) != len(a.hashes) {
		return false
	}
	for i, h := range a.hashes {
		s, ok := x.ids.Get(h)
		if !ok {
			return false
		}
		k, ok := slices.BinarySearch(d.sigs, s)
		if !ok || d.cnt[k] != a.cnt[i] {
			return false
		}
	}
	return true
}

// open makes a new group of document idx with the features of a, keyed.
func (ix *index) open(idx uint32, a *analysis) uint32 {
	g := ix.gs.open(idx)
	for int(g) >= len(ix.key) {
		ix.key = append(ix.key, 0)
	}
	ix.key[g] = a.key
	ix.keys[a.key] = append(ix.keys[a.key], g)
	ix.keysPeak = max(ix.keysPeak, len(ix.keys))
	return g
}

// drop takes the emptied group g out of the keys.
func (ix *index) drop(g uint32) {
	docset.DeletePosting(ix.keys, ix.key[g], g)
	ix.key[g] = 0
	if ix.keysPeak >= minRebuild && len(ix.keys) < ix.keysPeak/4 {
		keys := make(map[uint64][]uint32, len(ix.keys))
		maps.Copy(keys, ix.keys) // not maps.Clone, which may keep the old buckets
		ix.keys, ix.keysPeak = keys, len(keys)
	}
}

// Add indexes doc and returns the live documents that contain it: for full
// fingerprinting and DSC the documents holding at least Threshold of its
// shingles (or sample), scored by that fraction; for SpotSigs its
// near-duplicates, scored by multiset Jaccard similarity (1 for an exact
// duplicate). It returns the first Config.MaxResults of them by
// [detector.SortMatches]. The answer is the one [Detector.Containers]
// gives for doc right after the Add.
//
// The closed, ID and size checks come first; the text is then analysed
// without the lock. Of concurrent Adds of one new ID exactly one succeeds
// and the others return an error wrapping detector.ErrDuplicateID. A text
// whose features equal those of a live document joins that document's
// group of exact copies, O(log c) for c copies, and the index does not
// grow.
//
// Under concurrent calls, an Add's answer is what one goroutine making the
// same calls in the order of their exclusive turns (for an Add, the turn
// that registers its ID) would get. Full fingerprinting and DSC search under a read lock
// shared with other searches before the turn; in the turn, the hits whose
// documents were removed since are dropped and the few documents added
// since are compared with the text directly. Their postings then go in
// under per-shard locks only, and a second short turn publishes the
// document (until then Containers and Remove of its ID report it unknown,
// other searches compare it directly, and an exact copy added meanwhile
// waits for it before returning).
// SpotSigs, whose every Add moves the idf band, inserts and searches in
// its turn.
//
// Add time for full fingerprinting is O(n log n + P + K·n) for a text of n
// shingles, P the postings of its n−⌈θn⌉+1 rarest shingles and K the
// candidate groups they yield; DSC works on the sample. SpotSigs is O(n +
// P' + K'·n), with P' the postings scanned before early termination, plus
// the groups holding a signature whose idf crosses the band's edge with
// this Add (see the package documentation). Reading the matches costs
// O(M log M) for M = Config.MaxResults, whatever the sizes of the groups
// of exact copies they come from.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	d.mu.RLock()
	err := d.ix.docs.Check(doc)
	ix, x := d.ix, d.ix.con
	var seen uint64
	if x != nil {
		seen = x.pubs
	}
	d.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	a := d.analyse(doc.Text)
	if d.cfg.Method == SpotSigs {
		return d.addSpot(doc, &a)
	}
	return d.addContain(doc, &a, ix, x, seen)
}

// addSpot is Add for SpotSigs. Every Add moves the idf band, so the answer
// is searched in the same exclusive turn as the insertion (the search
// costs a small part of an Add).
//
// The IDs of the signatures the index already holds are looked up before,
// under the read lock, and used in the turn if no signature ID was freed
// meanwhile: the turn then looks up and allocates only the new ones.
func (d *Detector) addSpot(doc detector.Doc, a *analysis) ([]detector.Match, error) {
	if a.key != 0 {
		d.mu.RLock()
		if x := d.ix.spot; x != nil {
			a.sids, a.sidsAt = x.resolve(a.hashes, make([]uint32, 0, len(a.hashes)))
			a.sidsIn = x
		}
		d.mu.RUnlock()
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.spotTurn(doc, a)
}

// spotTurn is the exclusive turn of a SpotSigs Add: register, insert (or
// join a group of exact copies), answer.
func (d *Detector) spotTurn(doc detector.Doc, a *analysis) ([]detector.Match, error) {
	ix := d.ix
	idx, err := ix.docs.Add(doc) // closed or a duplicate ID since the check
	if err != nil {
		return nil, err
	}
	if d.turn != nil {
		d.turn(false, doc.ID)
	}
	if a.key == 0 {
		ix.gs.bare(idx) // no words: no feature, no match, no copy
		return []detector.Match{}, nil
	}
	if g, ok := ix.find(a); ok {
		ix.gs.join(g, idx)
		ix.spot.join(g)
	} else {
		g := ix.open(idx, a)
		var pre []uint32
		if x := ix.spot; a.sidsIn == x && x.frees == a.sidsAt {
			pre = a.sids
		}
		ix.spot.insertIDs(g, a.hashes, a.cnt, pre)
	}
	return d.answer(idx), nil
}

// answer returns the matches of live document idx: its containers (FFP,
// DSC) or near-duplicates (SpotSigs). It needs the lock, shared or not.
func (d *Detector) answer(idx uint32) []detector.Match {
	ix := d.ix
	g := ix.gs.of(idx)
	if g == noGroup {
		return []detector.Match{}
	}
	var hits []hit
	if ix.spot != nil {
		q := d.spotQuery()
		defer d.sq.Put(q)
		hits = ix.spot.similar(g, ix.gs.cap(), q.hits[:0], q)
		hits = ix.exact(hits, ix.key[g])
		q.keep(hits)
	} else {
		q := d.containQuery()
		defer d.cq.Put(q)
		x := ix.con
		hits = x.containers(x.sets[g], x.super[g], x.size[g], g, ix.gs.cap(), q.hits[:0], q, false)
		q.cands = ix.pending(q.cands[:0])
		hits = x.delta(x.sets[g], x.super[g], x.size[g], q.cands, hits)
		hits = append(hits, hit{Group: g, Score: 1}) // its exact copies contain it
		q.keep(hits)
	}
	return ix.gs.collect(hits, idx, d.cfg.MaxResults)
}

func (d *Detector) spotQuery() *spotQuery {
	if q, _ := d.sq.Get().(*spotQuery); q != nil {
		return q
	}
	return &spotQuery{}
}

func (d *Detector) containQuery() *containQuery {
	if q, _ := d.cq.Get().(*containQuery); q != nil {
		return q
	}
	return &containQuery{}
}

func (q *spotQuery) keep(hits []hit) {
	q.hits = hits
	if cap(q.hits) > largeScratch {
		q.hits = nil
	}
}

func (q *containQuery) keep(hits []hit) {
	q.hits = hits
	if cap(q.hits) > largeScratch {
		q.hits = nil
	}
}

// exact adds to SpotSigs hits the groups whose token digest is key, with
// score 1: exact duplicates, whatever their signatures.
func (ix *index) exact(hits []hit, key uint64) []hit {
	for _, o := range ix.keys[key] {
		if i := slices.IndexFunc(hits, func(x hit) bool { return x.Group == o }); i >= 0 {
			hits[i].Score = 1
		} else {
			hits = append(hits, hit{Group: o, Score: 1})
		}
	}
	return hits
}

// Query returns what Add(doc) would return now, without indexing doc or
// changing anything a later call observes: the first Config.MaxResults
// matches by [detector.SortMatches]. For SpotSigs that includes the idf
// band as doc's Add would move it: the answer is computed against the
// document frequencies and N the Add would leave, held in the query's own
// scratch, not in the index. doc.ID may be empty; a live document with
// that ID is not reported. Query costs what Add does, under a read lock
// shared with other searches.
//
// Query returns an error wrapping detector.ErrClosed after Close, or
// detector.ErrTooLarge for a text over Config.MaxTextBytes, before it
// reads the text.
func (d *Detector) Query(doc detector.Doc) ([]detector.Match, error) {
	d.mu.RLock()
	closed := d.ix.docs.Closed()
	d.mu.RUnlock()
	switch {
	case closed:
		return nil, fmt.Errorf("shingle: Query(%q): %w", doc.ID, detector.ErrClosed)
	case len(doc.Text) > d.maxText():
		return nil, fmt.Errorf("shingle: Query(%q): %d bytes over the limit of %d: %w",
			doc.ID, len(doc.Text), d.maxText(), detector.ErrTooLarge)
	}
	a := d.analyse(doc.Text)
	d.mu.RLock()
	defer d.mu.RUnlock()
	ix := d.ix
	if ix.docs.Closed() {
		return nil, fmt.Errorf("shingle: Query(%q): %w", doc.ID, detector.ErrClosed)
	}
	skip := uint32(noDoc)
	if doc.ID != "" {
		if idx, err := ix.docs.Lookup("Query", doc.ID); err == nil {
			skip = idx
		}
	}
	if a.key == 0 {
		return []detector.Match{}, nil
	}
	var hits []hit
	if ix.spot != nil {
		q := d.spotQuery()
		defer d.sq.Put(q)
		x := ix.spot
		sigs, cnt, mass, rescued := x.view(a.hashes, a.cnt, q)
		hits = q.hits[:0]
		if mass >= 0 {
			hits = x.search(sigs, cnt, mass, rescued, noGroup, ix.gs.cap(), hits, q, true)
		}
		hits = ix.exact(hits, a.key)
		q.keep(hits)
	} else {
		q := d.containQuery()
		defer d.cq.Put(q)
		hits = ix.con.containers(a.set, a.super, a.size, noGroup, ix.gs.cap(), q.hits[:0], q, false)
		q.cands = ix.pending(q.cands[:0])
		hits = ix.con.delta(a.set, a.super, a.size, q.cands, hits)
		q.keep(hits)
	}
	return ix.gs.collect(hits, skip, d.cfg.MaxResults), nil
}

// maxText is the effective text size limit.
func (d *Detector) maxText() int {
	if d.cfg.MaxTextBytes > 0 {
		return d.cfg.MaxTextBytes
	}
	return detector.DefaultMaxTextBytes
}

// lookup returns the dense index of a live, published document.
func (d *Detector) lookup(op, id string) (uint32, error) {
	ix := d.ix
	idx, err := ix.docs.Lookup(op, id)
	if err == nil && ix.con != nil && ix.con.isPending(ix.gs.of(idx)) {
		// Its group's first Add has not returned: as if the call came
		// before it.
		return 0, fmt.Errorf("shingle: %s(%q): %w", op, id, detector.ErrUnknownID)
	}
	return idx, err
}

// Containers returns the live documents that contain the document id (for
// SpotSigs, its near-duplicates), including ones added after it: the first
// Config.MaxResults by [detector.SortMatches]. It is computed from the
// index on every call, with the cost of an Add of the same text (no
// analysis); for SpotSigs it is exact under the live document
// frequencies, which the index keeps up to date with every Add and Remove.
func (d *Detector) Containers(id string) ([]detector.Match, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.lookup("Containers", id)
	if err != nil {
		return nil, err
	}
	return d.answer(idx), nil
}

// Copies returns the live documents whose features equal those of the
// live document id (its exact copies as the Method reads them: the same
// shingle set, the same DSC sample drawn from as many shingles, or the
// same token sequence for SpotSigs), in ascending ID order, without id. A
// text without words has none. Copies time is O(c log c) for c copies;
// it is not capped by Config.MaxResults. It returns an error wrapping
// detector.ErrUnknownID or detector.ErrClosed.
func (d *Detector) Copies(id string) ([]string, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.lookup("Copies", id)
	if err != nil {
		return nil, err
	}
	g := d.ix.gs.of(idx)
	if g == noGroup {
		return []string{}, nil
	}
	return d.ix.gs.sortedIDs(g, idx), nil
}

// Remove forgets the document id. A document with live exact copies
// leaves its group in O(log c) (SpotSigs also lowers its signatures'
// document frequencies, as for any Remove); the last of a group purges it
// from every posting list.
func (d *Detector) Remove(id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, err := d.lookup("Remove", id); err != nil {
		return err
	}
	ix := d.ix
	idx, err := ix.docs.Remove(id)
	if err != nil {
		return err
	}
	if d.turn != nil {
		d.turn(true, id)
	}
	g, last := ix.gs.leave(idx)
	switch {
	case g == noGroup:
	case !last:
		if ix.spot != nil {
			ix.spot.leave(g)
		}
	default:
		if ix.spot != nil {
			ix.spot.remove(g)
		} else {
			ix.con.remove(g)
		}
		ix.drop(g)
	}
	return nil
}

// Close releases the index. It is idempotent and returns nil; later calls
// return an error wrapping detector.ErrClosed.
func (d *Detector) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ix.docs.Close() {
		ix := d.ix
		ix.con, ix.spot, ix.keys, ix.key = nil, nil, nil, nil
		ix.gs = newGroups(ix.docs)
	}
	return nil
}

// Len returns the number of live documents, 0 after Close. An Add in progress
// counts from the moment its ID is registered, a moment before its
// document is visible to Containers.
func (d *Detector) Len() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.ix.docs.Len()
}
