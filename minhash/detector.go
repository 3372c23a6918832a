package minhash

import (
	"fmt"
	"math"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/evidence"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
	"github.com/seed-9ef9c1df/neardup/internal/matches"
	"github.com/seed-9ef9c1df/neardup/internal/postings"
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
// A Detector is safe for concurrent use by multiple goroutines.
type Detector struct {
	cfg Config

	pool sync.Pool // of *Sketcher

	mu     sync.Mutex
	docs   *docset.Set
	stats  *Stats
	online bool
	exact  map[uint64][]uint32 // Weighted: digest → documents

	// Weighted mode with online statistics: counted holds each live
	// document's distinct terms and phrases (to take them out of the
	// statistics on Remove). Each Add draws a ticket (issued) when it
	// registers its ID, counts its document into the statistics when
	// counting reaches its ticket (countTurn, under stats.mu), and indexes
	// it when done does (turn, under mu): documents are counted and
	// indexed in the order they registered, as sequential Adds would be.
	counted                []countedKeys
	issued, counting, done uint64
	turn, countTurn        sync.Cond

	k      int
	sigs   strided[uint32] // k values per dense index
	meta   []docMeta       // per dense index
	tables []*table
	minHit int // band matches a candidate needs

	levelOf map[[2]int8]int8 // Containment: (query partition, partition) → level
	keys    []uint64
	epoch   uint32
	cands   []uint32
}

// countedKeys are the distinct terms and phrases a document added to the
// online statistics: keys[:terms] the terms, keys[terms:] the phrases.
type countedKeys struct {
	keys  []uint64
	terms int
}

// docMeta is what the Detector keeps per document besides its signature.
type docMeta struct {
	digest uint64 // Weighted: digest of the phrase set
	size   int32  // distinct shingles; 0 = no signature or removed
	stamp  uint32 // query epoch of the last band hit
	hits   uint16 // band hits in that query
	part   int8   // size partition (Containment)
	hasSig bool
	// pending: registered and counted into the online statistics, not
	// yet indexed (its Add is sampling outside the lock).
	pending bool
}

var (
	_ detector.Detector = (*Detector)(nil)
	_ detector.Remover  = (*Detector)(nil)
)

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
// nil stats means online statistics as in [New]. It returns an error
// wrapping detector.ErrInvalidConfig if cfg is invalid, or if stats was
// made for another phrase length or language.
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
	d := &Detector{cfg: cfg, docs: docset.New("minhash", cfg.MaxTextBytes), k: cfg.NumHashes, stats: stats,
		sigs: newStrided[uint32](cfg.NumHashes, 0)}
	d.pool.New = func() any { return newSketcher(cfg) }
	d.turn.L = &d.mu
	if cfg.Mode == Weighted && stats == nil {
		d.stats, d.online = newStats(cfg), true
		d.countTurn.L = &d.stats.mu
	}
	if cfg.Mode == Weighted {
		d.exact = map[uint64][]uint32{}
	}
	switch {
	case cfg.Mode == Containment:
		for _, r := range containmentLevels {
			d.tables = append(d.tables, newTable(cfg.NumHashes/r, r))
		}
		d.levelOf = map[[2]int8]int8{}
		d.minHit = 1
	case cfg.Supershingles > 0:
		d.tables = []*table{newTable(cfg.Supershingles, cfg.NumHashes/cfg.Supershingles)}
		d.minHit = cfg.SupershingleMatches
	default:
		b, r := cfg.Bands, cfg.Rows
		if b == 0 {
			b, r, _ = Params(cfg.Threshold, cfg.NumHashes, cfg.FalsePositiveWeight, cfg.FalseNegativeWeight)
		}
		d.tables = []*table{newTable(b, r)}
		d.minHit = 1
	}
	return d, nil
}

// Config returns the Detector's configuration with defaults filled in.
func (d *Detector) Config() Config { return d.cfg }

// Banding returns the (bands, rows) of the LSH index of Jaccard and
// Weighted modes (the supershingle grouping when Supershingles is on), and
// (0, 0) in Containment mode.
func (d *Detector) Banding() (bands, rows int) {
	if d.cfg.Mode == Containment {
		return 0, 0
	}
	return d.tables[0].bands, d.tables[0].rows
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
// Jaccard and Weighted modes: its near-duplicates), by estimate descending
// then ID. Match.Score is the signature estimate of the Jaccard, weighted
// Jaccard or containment.
//
// Add checks the document (Close, ID, size) before any work and analyses
// and signs the text outside the Detector's lock, which it holds only to
// register and index the signature: Adds from several goroutines sign in
// parallel, and their results are those of the same Adds made one after
// another (in Weighted mode with online statistics, in the order they
// counted their document into the statistics). Of concurrent Adds of one
// new ID exactly one succeeds; the others return an error wrapping
// detector.ErrDuplicateID.
//
// Add is O(n) in the text length for signing (Weighted mode: O(n + K log K)
// with Darts, O(n·K) with IoffeICWS), plus O(bands) index probes and O(K)
// per candidate for verification.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	d.mu.Lock()
	err := d.docs.Check(doc)
	d.mu.Unlock()
	if err != nil {
		return nil, err
	}
	sk := d.pool.Get().(*Sketcher)
	defer func() {
		sk.shrink()
		d.pool.Put(sk)
	}()
	if d.online {
		return d.addOnline(sk, doc)
	}
	sig, size, digest := d.sign(sk, doc.Text)
	if afterAnalysis != nil {
		afterAnalysis(doc.ID)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Add(doc)
	if err != nil {
		return nil, err
	}
	return d.index(idx, sig, size, digest), nil
}

// addOnline is Add in Weighted mode with online statistics. A document's
// weights include the statistics of itself and of every document counted
// before it: registering the ID draws a ticket, and counting and indexing
// each wait for the ticket's turn; analysis, weighing and sampling run
// outside both locks.
func (d *Detector) addOnline(sk *Sketcher, doc detector.Doc) ([]detector.Match, error) {
	sk.phrases(doc.Text)
	if afterAnalysis != nil {
		afterAnalysis(doc.ID)
	}
	keys := make([]uint64, 0, len(sk.dterms)+len(sk.keys))
	keys = append(append(keys, sk.dterms...), sk.keys...)
	d.mu.Lock()
	idx, err := d.docs.Add(doc)
	if err != nil {
		d.mu.Unlock()
		return nil, err
	}
	for len(d.counted) <= int(idx) {
		d.counted = append(d.counted, countedKeys{})
	}
	d.counted[idx] = countedKeys{keys: keys, terms: len(sk.dterms)}
	d.ensureMeta(idx)
	d.meta[idx] = docMeta{stamp: d.meta[idx].stamp, hits: d.meta[idx].hits, pending: true}
	ticket := d.issued
	d.issued++
	d.mu.Unlock()

	// Counting, O(n), holds only the statistics' lock, in ticket order:
	// Containers, Remove of other documents and Close do not wait for it.
	d.stats.mu.Lock()
	for d.counting != ticket {
		d.countTurn.Wait()
	}
	sk.countLocked(d.stats)
	d.counting++
	d.countTurn.Broadcast()
	d.stats.mu.Unlock()

	sk.weighCounted()
	sig := sk.sampleWeighted(sk.out[:0])
	sk.out = sig
	size, digest := len(sk.keys), setDigest(sk.keys)

	d.mu.Lock()
	defer d.mu.Unlock()
	for d.done != ticket {
		d.turn.Wait()
	}
	d.done++
	d.turn.Broadcast()
	if d.docs.Closed() {
		return nil, fmt.Errorf("minhash: Add(%q): %w", doc.ID, detector.ErrClosed)
	}
	return d.index(idx, sig, size, digest), nil
}

// settled waits until the document id is not pending and returns its
// dense index, or the error of Lookup. Caller holds mu.
func (d *Detector) settled(op, id string) (uint32, error) {
	for {
		idx, err := d.docs.Lookup(op, id)
		if err != nil || !d.meta[idx].pending {
			return idx, err
		}
		d.turn.Wait()
	}
}

func (d *Detector) ensureMeta(idx uint32) {
	for len(d.meta) <= int(idx) {
		d.meta = append(d.meta, docMeta{})
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
	if (len(sig) != 0 && len(sig) != d.k) || size < 0 || (len(sig) == 0) != (size == 0) {
		return nil, fmt.Errorf("minhash: AddSignature(%q) with %d values and size %d, want %d values and size ≥ 1, or none and 0: %w",
			id, len(sig), size, d.k, detector.ErrInvalidConfig)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Add(detector.Doc{ID: id})
	if err != nil {
		return nil, err
	}
	return d.index(idx, sig, size, 0), nil
}

// index stores the signature of the just-added document idx, queries it
// and inserts it into the bands. Caller holds mu.
func (d *Detector) index(idx uint32, sig []uint32, size int, digest uint64) []detector.Match {
	d.ensureMeta(idx)
	m := &d.meta[idx]
	*m = docMeta{stamp: m.stamp, hits: m.hits}
	if size == 0 {
		return []detector.Match{} // no words: matches nothing
	}
	m.size = int32(min(size, math.MaxInt32))
	m.part = partition(size)
	if d.exact != nil {
		m.digest = digest
		d.exact[digest] = append(d.exact[digest], idx)
	}
	if len(sig) == 0 {
		// Weighted mode: every phrase weighs 0; only exact copies match.
		return d.query(idx)
	}
	m.hasSig = true
	d.sigs.ensure(idx)
	copy(d.sigs.of(idx), sig)
	ms := d.query(idx)
	for i, t := range d.tables {
		if i > 0 || d.cfg.Mode == Containment {
			d.keys = AppendBandKeys(d.keys[:0], sig, t.bands, t.rows)
		} // else d.keys still holds the keys query computed
		t.insert(idx, d.keys)
	}
	return ms
}

// setDigest is an order-independent 64-bit digest of a set of hashes.
func setDigest(keys []uint64) uint64 {
	var s uint64
	for _, k := range keys {
		s += hashx.Mix64(k ^ 0x5bd1e9955bd1e995)
	}
	return hashx.Mix64(s + uint64(len(keys)))
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
// after it, ordered like Add's result.
func (d *Detector) Containers(id string) ([]detector.Match, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.settled("Containers", id)
	if err != nil {
		return nil, err
	}
	if d.meta[idx].size == 0 {
		return []detector.Match{}, nil
	}
	return d.query(idx), nil
}

// query returns the verified matches of the indexed-or-about-to-be-indexed
// document idx (never idx itself). Caller holds mu.
func (d *Detector) query(idx uint32) []detector.Match {
	var sig []uint32
	if d.meta[idx].hasSig {
		sig = d.sigs.of(idx)
	}
	d.epoch++
	if d.epoch == 0 { // wrapped: clear the stamps
		for i := range d.meta {
			d.meta[i].stamp = 0
		}
		d.epoch = 1
	}
	d.cands = d.cands[:0]
	mark := func(c uint32) {
		if c == idx {
			return
		}
		m := &d.meta[c]
		if m.stamp != d.epoch {
			m.stamp = d.epoch
			m.hits = 0
		}
		m.hits++
		if int(m.hits) == d.minHit {
			d.cands = append(d.cands, c)
		}
	}
	switch {
	case sig == nil:
	case d.cfg.Mode == Containment:
		d.containmentCandidates(idx, sig)
	default:
		t := d.tables[0]
		d.keys = AppendBandKeys(d.keys[:0], sig, t.bands, t.rows)
		t.each(d.keys, mark)
	}
	if d.exact != nil {
		// Online weights drift as the statistics grow, so two copies of a
		// text signed at different times may disagree: the exact-set index
		// keeps the contract "an exact duplicate is always reported", also
		// for texts whose every phrase weighs 0.
		// The newest maxProbe, as in the bands.
		same := d.exact[d.meta[idx].digest]
		for _, c := range same[max(0, len(same)-maxProbe):] {
			for range d.minHit {
				mark(c)
			}
		}
	}
	var ms []detector.Match
	for _, c := range d.cands {
		var score float64
		switch {
		case d.exact != nil && d.meta[c].digest == d.meta[idx].digest:
			score = 1
		case sig != nil && d.meta[c].hasSig:
			score = Similarity(sig, d.sigs.of(c))
		}
		sa, sb := float64(d.meta[idx].size), float64(d.meta[c].size)
		var shared float64
		if d.cfg.Mode == Containment {
			score = ContainmentOf(score, int(sa), int(sb))
			if evidence.PartOf(score*sa, sb, sa) {
				continue // c is a part of idx: a part does not contain its whole
			}
			shared = score * sa
		} else {
			shared = score / (1 + score) * (sa + sb)
		}
		if score >= d.cfg.Threshold && (score == 1 || evidence.Enough(shared, min(sa, sb), float64(d.cfg.MinOverlap))) {
			ms = append(ms, detector.Match{ID: d.docs.ID(c), Score: score})
		}
	}
	return matches.Top(ms, 0)
}

// containmentCandidates collects the candidate containers of idx into
// d.cands: for each size partition p that can hold a container (upper size
// u ≥ threshold·|A|), the level chosen by [containmentLevel] is probed and
// its hits in partition p kept.
func (d *Detector) containmentCandidates(idx uint32, sig []uint32) {
	qp := d.meta[idx].part
	var want [len(containmentLevels)]bool
	var levelFor [maxPartitions]int8
	for p := range int8(maxPartitions) {
		levelFor[p] = -1
		upper := math.Exp2(float64(p)+1) - 1
		if upper < d.cfg.Threshold*float64(d.meta[idx].size) {
			continue // too small to hold |A∩C| ≥ t·|A|
		}
		key := [2]int8{qp, p}
		l, ok := d.levelOf[key]
		if !ok {
			l = containmentLevel(d.cfg, math.Exp2(float64(qp)), upper)
			d.levelOf[key] = l
		}
		levelFor[p] = l
		want[l] = true
	}
	for l, t := range d.tables {
		if !want[l] {
			continue
		}
		d.keys = AppendBandKeys(d.keys[:0], sig, t.bands, t.rows)
		t.each(d.keys, func(c uint32) {
			if c == idx || levelFor[d.meta[c].part] != int8(l) || d.meta[c].stamp == d.epoch {
				return
			}
			d.meta[c].stamp = d.epoch
			d.cands = append(d.cands, c)
		})
	}
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
// ID may be added again. In Weighted mode with online statistics its terms
// and phrases leave the statistics too, which then describe the live
// documents. Remove is O(bands · chain length), plus O(n) for the n terms
// and phrases of a Weighted-mode document with online statistics.
// (and O(copies) for the list of its exact copies in Weighted mode).
func (d *Detector) Remove(id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, err := d.settled("Remove", id); err != nil {
		return err
	}
	idx, err := d.docs.Remove(id)
	if err != nil {
		return err
	}
	if d.meta[idx].hasSig {
		for _, t := range d.tables {
			t.remove(idx) // indexed exactly when it has a signature
		}
	}
	if d.meta[idx].size != 0 && d.exact != nil {
		postings.DeleteOrdered(d.exact, d.meta[idx].digest, idx)
	}
	if d.online && int(idx) < len(d.counted) {
		c := d.counted[idx]
		d.stats.mu.Lock()
		d.stats.remove(c.keys[:c.terms], c.keys[c.terms:])
		d.stats.mu.Unlock()
		d.counted[idx] = countedKeys{}
	}
	d.meta[idx].size, d.meta[idx].hasSig = 0, false
	return nil
}

// Close releases the index. It is idempotent and returns nil; later calls
// of Add, Containers and Remove return an error wrapping
// detector.ErrClosed.
func (d *Detector) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.docs.Close() {
		d.sigs, d.tables, d.meta = strided[uint32]{}, nil, nil
		d.cands, d.keys, d.counted, d.exact = nil, nil, nil, nil
		d.turn.Broadcast()
	}
	return nil
}

// Len returns the number of live documents, 0 after Close.
func (d *Detector) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.docs.Len()
}
