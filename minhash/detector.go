package minhash

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/internal/spin"
)

// containmentLevels are the rows per band of the LSH tables of Containment
// mode; each level bands the whole signature (K/rows bands). A query picks,
// per size partition, the level whose S-curve best fits the Jaccard that
// the containment threshold means at that partition's sizes (LSH Ensemble,
// Zhu et al. PVLDB 2016 §4, as the fixed-r "Plus" indexes of
// ekzhu/lshensemble).
var containmentLevels = [...]int{1, 2, 4, 8}

// maxPartitions bounds the size partitions: partition p holds sets of
// 2^p ≤ size < 2^(p+1) distinct shingles.
const maxPartitions = 40

// Detector finds near-duplicates (Jaccard, Weighted) or containment
// (Containment) among the documents added to it, by MinHash signatures and
// an LSH index, reporting each pair whose signature estimate reaches
// Config.Threshold with that estimate as Match.Score.
//
// Documents whose content, as the Detector reads it, is identical (equal
// signatures and set sizes; in Weighted mode equal phrase sets) share one
// entry of the index; [Detector.Copies] lists them. Add, Containers and
// Query return at most Config.MaxResults matches, the strongest.
//
// A Detector is safe for concurrent use by multiple goroutines.
type Detector struct {
	cfg         Config
	bands, rows int // LSH banding of Jaccard and Weighted modes
	minHit      int // band matches a candidate needs

	pool     sync.Pool // of *Sketcher
	searches sync.Pool // of *search

	// mu guards ix: Adds search it under the read lock and commit to it
	// under the exclusive lock (search.go); the band tables' shards have
	// locks of their own besides.
	mu      spin.RWMutex
	ix      *index
	stats   *Stats
	online  bool
	version uint64 // counts the changes of the index, for Query

	// Weighted mode with online statistics: each Add draws a ticket
	// (issued) and one of the statistics when it registers its ID, counts
	// its document into the statistics in the turns of the latter
	// (statparts.go), and indexes it when done reaches the former (turn,
	// under mu): documents are counted and indexed in the order they
	// registered, as sequential Adds would be.
	issued uint64
	done   atomic.Uint64 // written under mu, read anywhere
	turn   sync.Cond
	share  sharing // a goroutine waiting for its turn helps the sampling ahead (share.go)

	// Containment: the level probed by a query of partition q for sets of
	// partition p, at q·maxPartitions+p, plus one (0: not computed yet).
	levels [maxPartitions * maxPartitions]atomic.Int32
}

// New returns a Detector for cfg. In Weighted mode the phrase statistics
// are kept online: each document counts towards them when it is added and
// is signed with the statistics so far, itself included (use
// [NewWithStats] to weigh by a reference collection, as Alonso et al. 2013
// did). The error is nil unless cfg is invalid, in which case it wraps
// detector.ErrInvalidConfig and names the field.
func New(cfg Config) (*Detector, error) {
	return NewWithStats(cfg, nil)
}

// NewWithStats returns a Weighted-mode Detector that weighs phrases by the
// document frequencies in stats (which the caller may keep updating; a
// signature uses the statistics current when its document is added). A
// nil stats means online statistics as in [New]. A snapshot of the
// Detector identifies stats by a fingerprint of its counts, and loads
// only into a Detector given statistics with the same counts. It returns
// an error wrapping detector.ErrInvalidConfig if cfg is invalid, or if
// stats was made for another phrase length or language.
func NewWithStats(cfg Config, stats *Stats) (*Detector, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if stats != nil {
		if cfg.Mode != Weighted {
			return nil, fmt.Errorf("minhash: Stats given in Mode %d, not Weighted: %w", cfg.Mode, detector.ErrInvalidConfig)
		}
		if sc := stats.sk.cfg; sc.Shingle != cfg.Shingle || sc.Language != cfg.Language {
			return nil, fmt.Errorf("minhash: Stats of Shingle %d, Language %q used with Shingle %d, Language %q: %w",
				sc.Shingle, sc.Language, cfg.Shingle, cfg.Language, detector.ErrInvalidConfig)
		}
	}
	d := &Detector{cfg: cfg, stats: stats, minHit: 1}
	d.pool.New = func() any {
		sk := newSketcher(cfg)
		sk.darts.share = &d.share
		return sk
	}
	d.searches.New = func() any { return new(search) }
	d.turn.L = &d.mu
	if cfg.Mode == Weighted && stats == nil {
		d.stats, d.online = newStats(cfg), true
	}
	switch {
	case cfg.Mode == Containment:
	case cfg.Supershingles > 0:
		d.bands, d.rows = cfg.Supershingles, cfg.NumHashes/cfg.Supershingles
		d.minHit = cfg.SupershingleMatches
	default:
		d.bands, d.rows = cfg.Bands, cfg.Rows
		if d.bands == 0 {
			d.bands, d.rows, _ = Params(cfg.Threshold, cfg.NumHashes, cfg.FalsePositiveWeight, cfg.FalseNegativeWeight)
		}
	}
	d.ix = d.newIndex()
	return d, nil
}

// Config returns the Detector's configuration with defaults filled in.
func (d *Detector) Config() Config { return d.cfg }

// Banding returns the (bands, rows) of the LSH index of Jaccard and
// Weighted modes (the supershingle grouping when Supershingles is on), and
// (0, 0) in Containment mode.
func (d *Detector) Banding() (bands, rows int) {
	return d.bands, d.rows
}

// sign computes the signature of text (not in Weighted mode with online
// statistics). The signature is in sk.out, valid until sk signs again.
func (d *Detector) sign(sk *Sketcher, text string) ([]uint32, int, uint64) {
	if d.cfg.Mode == Weighted {
		sig, size := sk.AppendWeightedSignature(sk.out[:0], text, d.stats)
		sk.out = sig
		return sig, size, setDigest(sk.keys)
	}
	sig, size := sk.AppendSignature(sk.out[:0], text)
	sk.out = sig
	return sig, size, 0
}

// afterAnalysis, when set by a test, is called by Add once a document is
// analysed and signed, before Add takes the Detector's lock.
var afterAnalysis func(id string)

// Add indexes doc and returns the live documents that contain it (in
// Jaccard and Weighted modes: its near-duplicates), the Config.MaxResults
// strongest, ordered by [detector.SortMatches]. Match.Score is the
// signature estimate of the Jaccard, weighted Jaccard or containment.
//
// A document whose content is identical to a live document's joins that
// document's group of exact copies and answers as the group does: no
// table grows, and the members of the group are read only as far as the
// cap needs. In Weighted mode, whose weights drift with the statistics,
// the group takes the signature of its newest copy (O(bands) to move it in
// the band tables).
//
// Add checks the document (Close, ID, size) before any work, analyses
// and signs the text outside the Detector's locks, searches the index
// under the shared lock and holds the exclusive lock only to register the
// ID, catch its search up with the groups changed since, place the
// document and collect the answer; a new group enters the band tables
// after that, under the tables' shard locks. Adds from several goroutines
// sign and search in parallel, and their results are those of the same
// Adds made one after another in the order they committed (in Weighted
// mode with online statistics, the order they counted their document into
// the statistics). Of concurrent Adds of one new ID exactly one succeeds;
// the others return an error wrapping detector.ErrDuplicateID.
//
// Add is O(n) in the text length for signing (Weighted mode: O(n + K log K)
// with Darts, O(n·K) with IoffeICWS), plus O(bands) index probes, O(K)
// per candidate group for verification and O(k log k) per matching group
// for the k = MaxResults matches returned.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	d.mu.RLock()
	err := d.ix.docs.Check(doc)
	d.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	sk := d.pool.Get().(*Sketcher)
	sc := d.searches.Get().(*search)
	defer func() {
		sk.shrink()
		d.pool.Put(sk)
		sc.shrink()
		d.searches.Put(sc)
	}()
	if d.online {
		return d.addOnline(sk, sc, doc)
	}
	sig, size, digest := d.sign(sk, doc.Text)
	if afterAnalysis != nil {
		afterAnalysis(doc.ID)
	}
	xkey := d.exactKey(sig, size, digest)
	sc.keys = d.appendKeys(sc.keys[:0], sig)
	searched, since := d.searchShared(sc, sig, size, digest, xkey)
	if afterSearch != nil {
		afterSearch(doc.ID)
	}
	d.mu.Lock()
	idx, err := d.ix.docs.Add(doc)
	if err != nil {
		d.mu.Unlock()
		return nil, err
	}
	ix := d.ix
	ms, issued := d.commit(sc, searched, since, idx, sig, size, digest, xkey)
	d.mu.Unlock()
	if issued {
		d.apply(ix)
	}
	return ms, nil
}

// addOnline is Add in Weighted mode with online statistics. A document's
// weights include the statistics of itself and of every document counted
// before it: registering the ID draws a ticket, and counting and
// committing each wait for the ticket's turn; analysis, weighing,
// sampling and the search run outside both.
func (d *Detector) addOnline(sk *Sketcher, sc *search, doc detector.Doc) ([]detector.Match, error) {
	sk.phrases(doc.Text)
	if afterAnalysis != nil {
		afterAnalysis(doc.ID)
	}
	// Kept in text order: only a snapshot needs them sorted, and sorts
	// its own copy (sorting here cost 7% of a Reuters Add).
	keys := make([]uint64, 0, len(sk.dterms)+len(sk.keys))
	keys = append(append(keys, sk.dterms...), sk.keys...)
	d.mu.Lock()
	ix := d.ix
	idx, err := ix.docs.Add(doc)
	if err != nil {
		d.mu.Unlock()
		return nil, err
	}
	ix.ensureRef(idx)
	ix.refs[idx] = pendingGroup
	for len(ix.counted) <= int(idx) {
		ix.counted = append(ix.counted, countedKeys{})
	}
	ix.counted[idx] = countedKeys{keys: keys, terms: len(sk.dterms)}
	ticket, counting := d.issued, d.stats.ticket()
	d.issued++
	d.mu.Unlock()

	// Counting, O(n), takes only the statistics' turns, in ticket order,
	// part by part, so that the next document counts in one part while
	// this one counts in the next: Containers, Remove of other documents
	// and Close do not wait for it.
	sk.count(d.stats, counting)

	sk.weighCounted()
	sig := sk.sampleWeighted(sk.out[:0])
	sk.out = sig
	size, digest := len(sk.keys), setDigest(sk.keys)
	xkey := d.exactKey(sig, size, digest)
	sc.keys = d.appendKeys(sc.keys[:0], sig)
	searched, since := d.searchShared(sc, sig, size, digest, xkey)
	if afterSearch != nil {
		afterSearch(doc.ID)
	}

	// Wait for the turn yielding first, as the locks do (package spin):
	// a goroutine parked on turn costs tens of µs of idle core to wake.
	// While it waits, it throws darts for the documents ahead (share.go);
	// its own signature is in sk.out, apart from the slots it uses.
	d.share.waiting.Add(1)
	spin.Until(func() bool {
		if r := d.share.offered.Load(); r != nil && d.done.Load() != ticket {
			r.help(&sk.darts)
		}
		return d.done.Load() == ticket
	})
	d.share.waiting.Add(-1)
	d.mu.Lock()
	for d.done.Load() != ticket {
		d.turn.Wait()
	}
	d.done.Add(1)
	d.turn.Broadcast()
	if d.ix.docs.Closed() {
		d.mu.Unlock()
		return nil, fmt.Errorf("minhash: Add(%q): %w", doc.ID, detector.ErrClosed)
	}
	ix = d.ix
	ms, issued := d.commit(sc, searched, since, idx, sig, size, digest, xkey)
	d.mu.Unlock()
	if issued {
		d.apply(ix)
	}
	return ms, nil
}

// settled waits until the document id is not pending and returns its
// dense index, or the error of Lookup. Caller holds mu.
func (d *Detector) settled(op, id string) (uint32, error) {
	for {
		idx, err := d.ix.docs.Lookup(op, id)
		if err != nil || d.ix.refs[idx] != pendingGroup {
			return idx, err
		}
		d.turn.Wait()
	}
}

// AddSignature indexes the document id by a signature made elsewhere, by
// a [Sketcher] of the same Config (a worker signing documents in parallel),
// with the number of distinct shingles
// the Sketcher returned with it, and returns its containers as Add does.
// An empty signature with size 0 is a document without words: it matches
// nothing. Signatures of another Config are not detected and give
// meaningless estimates.
//
// It returns the errors of Add for the ID, and an error wrapping
// detector.ErrInvalidConfig in Weighted mode (whose signatures depend on
// the Detector's statistics and whose exact copies are found by a digest
// the signature does not carry) or when len(sig) is neither 0 nor K, or
// size is negative or does not match an empty signature.
func (d *Detector) AddSignature(id string, sig []uint32, size int) ([]detector.Match, error) {
	if d.cfg.Mode == Weighted {
		return nil, fmt.Errorf("minhash: AddSignature in Weighted mode: %w", detector.ErrInvalidConfig)
	}
	if (len(sig) != 0 && len(sig) != d.cfg.NumHashes) || size < 0 || (len(sig) == 0) != (size == 0) {
		return nil, fmt.Errorf("minhash: AddSignature(%q) with %d values and size %d, want %d values and size ≥ 1, or none and 0: %w",
			id, len(sig), size, d.cfg.NumHashes, detector.ErrInvalidConfig)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.ix.docs.Add(detector.Doc{ID: id})
	if err != nil {
		return nil, err
	}
	return d.index(idx, sig, size, 0), nil
}

// index places the just-registered document idx in its group and returns
// its matches. Caller holds mu exclusively.
func (d *Detector) index(idx uint32, sig []uint32, size int, digest uint64) []detector.Match {
	ix := d.ix
	d.version++
	ix.ensureRef(idx)
	if size == 0 {
		ix.refs[idx] = noGroup
		return []detector.Match{} // no words: matches nothing
	}
	g := d.place(ix, idx, sig, size, digest)
	d.shareCounted(ix, g, idx)
	return d.matchGroup(g, idx)
}

// shareCounted lets the document idx, just placed in the group g, share
// the array of terms and phrases of another member of g (Weighted mode
// with online statistics) when they are equal, as they almost always are
// for a copy, rather than keep its own.
func (d *Detector) shareCounted(ix *index, g, idx uint32) {
	if !d.online || ix.gs.Size(g) <= 1 {
		return
	}
	other := ix.gs.Member(g, ix.groups[g].first, 0)
	if other == idx {
		other = ix.gs.Member(g, ix.groups[g].first, 1)
	}
	if a, b := ix.counted[idx], ix.counted[other]; a.terms == b.terms && slices.Equal(a.keys, b.keys) {
		ix.counted[idx].keys = b.keys
	}
}

// probe is a query of the index: a signature (nil: none) of a set of size
// distinct shingles, the Weighted-mode digest, the group of the same
// content if there is one, and a document not to report.
type probe struct {
	sig    []uint32
	size   int
	digest uint64
	own    uint32 // group of the same content, or noGroup
	skip   uint32 // document not to report, or noDoc
}

// matchGroup returns the matches of the live group g's content, skip not
// reported. Caller holds mu.
func (d *Detector) matchGroup(g, skip uint32) []detector.Match {
	ix := d.ix
	p := probe{size: int(ix.groups[g].size), own: g, skip: skip}
	if ix.groups[g].hasSig {
		p.sig = ix.sigs.of(g)
	}
	if d.cfg.Mode == Weighted {
		p.digest = ix.digests[g]
	}
	return d.match(p)
}

// setDigest is an order-independent 64-bit digest of a set of hashes.
func setDigest(keys []uint64) uint64 {
	var s uint64
	for _, k := range keys {
		s += hashtab.Mix64(k ^ 0x5bd1e9955bd1e995)
	}
	return hashtab.Mix64(s + uint64(len(keys)))
}

// partition returns the size partition of a set of size n ≥ 1.
func partition(n int) int8 {
	p := int8(0)
	for n > 1 && p < maxPartitions-1 {
		n >>= 1
		p++
	}
	return p
}

// Containers returns the live documents that contain the document id (in
// Jaccard and Weighted modes: its near-duplicates), including ones added
// after it, ordered and capped like Add's result.
func (d *Detector) Containers(id string) ([]detector.Match, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.settled("Containers", id)
	if err != nil {
		return nil, err
	}
	g := d.ix.refs[idx]
	if g == noGroup {
		return []detector.Match{}, nil
	}
	return d.matchGroup(g, idx), nil
}

// Copies returns the live documents whose content, as the Detector reads
// it, is identical to the live document id's (equal signatures and set
// sizes; in Weighted mode equal phrase sets), in ascending ID order,
// without id. A document without words has none. It is not capped, and
// costs O(c log c) for c copies. It returns an error wrapping
// detector.ErrUnknownID or detector.ErrClosed.
func (d *Detector) Copies(id string) ([]string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.settled("Copies", id)
	if err != nil {
		return nil, err
	}
	g := d.ix.refs[idx]
	if g == noGroup {
		return []string{}, nil
	}
	return d.ix.gs.IDs(g, d.ix.groups[g].first, idx), nil
}

// match returns the verified matches of p, the Config.MaxResults
// strongest. Caller holds mu exclusively.
func (d *Detector) match(p probe) []detector.Match {
	ix := d.ix
	d.drain(ix)
	sc := &ix.scr
	sc.keys = d.appendKeys(sc.keys[:0], p.sig)
	d.candidates(ix, sc, p)
	ix.cands = sc.cands
	return ix.gs.Collect(sc.scored, ix.first, p.skip, d.cfg.MaxResults)
}

// containmentLevel picks the level whose banding minimises the weighted
// false positive and false negative integrals in containment space for a
// query of size q against sets of size up to x (LSH Ensemble §4.2):
//
//	P(t | x, q) = 1 − (1 − s(t)^r)^b,  s(t) = t / (x/q + 1 − t)
//	FP = ∫₀^min(t*, x/q) P,  FN = ∫_t*^min(1, x/q) (1 − P)
//
// using x = the partition's upper size bound, the conservative choice.
func containmentLevel(cfg Config, q, x float64) int8 {
	ratio := x / q
	tStar := cfg.Threshold
	best, bestL := math.Inf(1), int8(0)
	for l, r := range containmentLevels {
		b := cfg.NumHashes / r
		p := func(t float64) float64 {
			s := t / (ratio + 1 - t)
			return collision(min(max(s, 0), 1), b, r)
		}
		fp := integrate(p, 0, min(tStar, ratio))
		fn := integrate(func(t float64) float64 { return 1 - p(t) }, tStar, min(1, ratio))
		if e := cfg.FalsePositiveWeight*fp + cfg.FalseNegativeWeight*fn; e < best-1e-12 {
			best, bestL = e, int8(l)
		}
	}
	return bestL
}

// Remove forgets the document id: it is reported by no later call and its
// ID may be added again. A document with live copies leaves its group in
// O(log c) for c copies and the index is untouched; the last of a group
// takes it out of the tables, O(bands). In Weighted mode with online
// statistics its terms and phrases leave the statistics too, which then
// describe the live documents: O(n) for its n terms and phrases.
func (d *Detector) Remove(id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, err := d.settled("Remove", id); err != nil {
		return err
	}
	ix := d.ix
	idx, err := ix.docs.Remove(id)
	if err != nil {
		return err
	}
	d.drain(ix)
	d.version++
	if g := ix.refs[idx]; g != noGroup {
		var sig []uint32
		if ix.groups[g].hasSig {
			sig = ix.sigs.of(g)
		}
		var digest uint64
		if d.cfg.Mode == Weighted {
			digest = ix.digests[g]
		}
		ix.leave(idx, d.exactKey(sig, int(ix.groups[g].size), digest))
	}
	if linearised != nil {
		linearised("remove", id)
	}
	if d.online && int(idx) < len(ix.counted) {
		c := ix.counted[idx]
		d.stats.exclusive(func() { d.stats.remove(c.keys[:c.terms], c.keys[c.terms:]) })
		ix.counted[idx] = countedKeys{}
	}
	return nil
}

// Close releases the index. It is idempotent and returns nil; later calls
// of Add, Query, Containers, Copies, Remove, WriteTo and ReadFrom return
// an error wrapping detector.ErrClosed.
func (d *Detector) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ix.docs.Close() {
		d.ix = &index{docs: d.ix.docs}
		d.version++
		d.turn.Broadcast()
	}
	return nil
}

// Len returns the number of live documents, 0 after Close.
func (d *Detector) Len() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.ix.docs.Len()
}
