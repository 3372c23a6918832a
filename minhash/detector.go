package minhash

import (
	"fmt"
	"io"
	"math"
	"sync/atomic"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
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
// A Detector is safe for concurrent use by multiple goroutines: texts are
// signed outside its lock, the index is searched under a shared lock and
// changed under an exclusive one (the shell of package internal/engine).
type Detector struct {
	a *algorithm
	e *engine.Engine[sketch, uint64]
}

// algorithm is MinHash as the engine sees it, shared by a Detector's
// indexes: the Config, the banding and the per-call scratch.
type algorithm struct {
	cfg         Config
	bands, rows int // LSH banding of Jaccard and Weighted modes
	minHit      int // band matches a candidate needs
	stats       *Stats
	online      bool // Weighted mode, statistics kept over the live documents

	sketchers engine.Pool[*Sketcher]
	searches  engine.Pool[*search]

	// Containment: the level probed by a query of partition q for sets of
	// partition p, at q·maxPartitions+p, plus one (0: not computed yet).
	levels [maxPartitions * maxPartitions]atomic.Int32
}

// sketch is what the index keeps of a document: its signature, set size
// and (Weighted) phrase-set digest, with, while an Add runs, the Sketcher
// that signs it.
type sketch struct {
	sig    []uint32 // nil: none; a group's is in the index's store
	digest uint64   // Weighted: of the phrase set
	seq    uint64   // the order the group entered the band chains
	size   int32    // distinct shingles (phrases); 0: a text without words
	handle int32    // online statistics: the counted document (see countedIndex)
	part   int8     // size partition (Containment)
	sk     *Sketcher
	load   *[]countedKeys // a snapshot's group being loaded: its members' keys, in ID order
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
	a := &algorithm{cfg: cfg, stats: stats, minHit: 1, online: cfg.Mode == Weighted && stats == nil}
	a.sketchers.New = func() (*Sketcher, error) { return newSketcher(cfg), nil }
	a.sketchers.Tidy = (*Sketcher).shrink
	a.searches.New = func() (*search, error) { return new(search), nil }
	a.searches.Tidy = (*search).shrink
	switch {
	case cfg.Mode == Containment:
	case cfg.Supershingles > 0:
		a.bands, a.rows = cfg.Supershingles, cfg.NumHashes/cfg.Supershingles
		a.minHit = cfg.SupershingleMatches
	default:
		a.bands, a.rows = cfg.Bands, cfg.Rows
		if a.bands == 0 {
			a.bands, a.rows, _ = Params(cfg.Threshold, cfg.NumHashes, cfg.FalsePositiveWeight, cfg.FalseNegativeWeight)
		}
	}
	spec := engine.Spec{
		Name:          snapshotKind,
		Version:       snapshotVersion,
		Config:        storedConfig(cfg),
		NoGroup:       "empty",
		MinGroupBytes: 3, // a size, a member count and one ID
		MaxTextBytes:  cfg.MaxTextBytes,
		MaxResults:    cfg.MaxResults,
		// An Add's answer is the same searched before its insertion: a new
		// group holds only the Add's document, and a search neither counts
		// the query's own group in a band's probe cap nor scores it below 1
		// (Weighted renews its signature after the search).
		SearchFirst: true,
	}
	if stats != nil {
		spec.TablesNow = func() map[string]uint64 { return map[string]uint64{"Stats": stats.fingerprint()} }
	}
	return &Detector{a: a, e: engine.New(spec, engine.Algorithm[sketch, uint64](a))}, nil
}

// Config returns the Detector's configuration with defaults filled in.
func (d *Detector) Config() Config { return d.a.cfg }

// Banding returns the (bands, rows) of the LSH index of Jaccard and
// Weighted modes (the supershingle grouping when Supershingles is on), and
// (0, 0) in Containment mode.
func (d *Detector) Banding() (bands, rows int) { return d.a.bands, d.a.rows }

// Features signs text with a pooled Sketcher, which the sketch holds until
// Release. With online statistics it only reads the phrases: the
// signature is drawn by Complete, once the document is counted.
func (a *algorithm) Features(text string) sketch {
	sk, _ := a.sketchers.Get() // New never fails
	sk.pre.ok = false
	f := sketch{sk: sk}
	switch {
	case a.online:
		sk.phrases(text)
		f.size, f.digest = capSize(len(sk.keys)), setDigest(sk.keys)
		// Kept in text order: only a snapshot needs them sorted, and
		// sorts its own copy.
		sk.counted = append(append(make([]uint64, 0, len(sk.dterms)+len(sk.keys)), sk.dterms...), sk.keys...)
	case a.cfg.Mode == Weighted:
		sig, size := sk.AppendWeightedSignature(sk.out[:0], text, a.stats)
		sk.out = sig
		f.sig, f.size, f.digest = nonEmpty(sig), capSize(size), setDigest(sk.keys)
	default:
		sig, size := sk.AppendSignature(sk.out[:0], text)
		sk.out = sig
		f.sig, f.size = nonEmpty(sig), capSize(size)
	}
	if !a.online {
		a.prepare(&f)
	}
	if afterAnalysis != nil {
		afterAnalysis(text)
	}
	return f
}

// afterAnalysis, when set by a test, is called by Features once a text is
// analysed (and signed, unless with online statistics).
var afterAnalysis func(text string)

// Release returns the sketch's Sketcher to the pool.
func (a *algorithm) Release(f *sketch) {
	if f.sk != nil {
		f.sk.pre.ok = false
		a.sketchers.Put(f.sk)
		f.sk = nil
	}
}

// HeldToCommit: with online statistics the signature stays in the
// Sketcher until the commit copies it into the index.
func (a *algorithm) HeldToCommit() {}

// CopyKey returns the exact-copy key of f; a text without words has none.
func (a *algorithm) CopyKey(f *sketch) (uint64, bool) {
	return a.keyOf(f), f.size > 0
}

// keys is what the commit of an Add needs of a signature and can have
// computed before it, outside the engine's lock: the exact-copy key and
// the band keys of every table of the index, table after table.
type keys struct {
	ok    bool // computed for the signature the sketch holds
	exact uint64
	bands []uint64
}

// prepare computes the keys of f's complete signature into its Sketcher,
// O(K) per table, so that the commit and the search under the engine's
// lock read them instead of hashing the signature again (up to four times
// for the exact-copy key, twice for the band keys). It runs in the
// features step, after the signature is drawn; an Add's answer is
// searched with the Add's own sketch (engine.Spec.SearchFirst) to read
// them.
func (a *algorithm) prepare(f *sketch) {
	sk := f.sk
	if sk == nil {
		return
	}
	sk.pre.exact = a.exactKey(f.sig, f.size, f.digest)
	sk.pre.bands = a.appendKeys(sk.pre.bands[:0], f.sig)
	sk.pre.ok = true
	if a.cfg.Mode == Containment && f.size > 0 {
		// The first query of a size partition works out its levels (an
		// integration each), which the search would otherwise do under
		// the lock; they are memoised for every later query.
		var levels [maxPartitions]int8
		a.levelsFor(&levels, f.size)
	}
}

// keyOf returns the exact-copy key of f, prepared or computed now.
func (a *algorithm) keyOf(f *sketch) uint64 {
	if f.sk != nil && f.sk.pre.ok {
		return f.sk.pre.exact
	}
	return a.exactKey(f.sig, f.size, f.digest)
}

// prepared returns the prepared band keys of f, or nil.
func (a *algorithm) prepared(f *sketch) []uint64 {
	if f.sk != nil && f.sk.pre.ok && f.sig != nil {
		return f.sk.pre.bands
	}
	return nil
}

// bandsOf appends to dst the band keys of f for every table (see
// appendKeys) and returns them: the prepared keys of an Add's or a
// Query's sketch, computed now for a group's.
func (a *algorithm) bandsOf(dst []uint64, f *sketch) []uint64 {
	if b := a.prepared(f); b != nil {
		return append(dst, b...)
	}
	return a.appendKeys(dst, f.sig)
}

// NewIndex returns an empty index, counting the statistics with online
// statistics.
func (a *algorithm) NewIndex() engine.Index[sketch] {
	ix := newIndex(a)
	if a.online {
		return &countedIndex{index: ix, stats: newStats(a.cfg)}
	}
	return ix
}

func nonEmpty(sig []uint32) []uint32 {
	if len(sig) == 0 {
		return nil
	}
	return sig
}

func capSize(n int) int32 { return int32(min(n, math.MaxInt32)) }

// exactKey returns the key of a content in the exact-copy map: the digest
// itself in Weighted mode, a hash of signature and size otherwise.
func (a *algorithm) exactKey(sig []uint32, size int32, digest uint64) uint64 {
	if a.cfg.Mode == Weighted {
		return digest
	}
	h := hashtab.Mix64(uint64(size) ^ 0x6578616374) // "exact"
	for _, v := range sig {
		h = hashtab.Combine(h, uint64(v))
	}
	return h & exactKeyMask
}

// exactKeyMask is all ones; a test clears bits to make keys collide.
var exactKeyMask = ^uint64(0)

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

// Add indexes doc and returns the live documents that contain it (in
// Jaccard and Weighted modes: its near-duplicates), the Config.MaxResults
// strongest, ordered by [detector.SortMatches]. Match.Score is the
// signature estimate of the Jaccard, weighted Jaccard or containment. A
// document whose content is identical to a live document's joins that
// document's group of exact copies (in Weighted mode the group takes the
// new copy's signature) and answers as the group does.
//
// Add checks the document (Close, ID, size) before any work and signs the
// text outside the Detector's lock (with online statistics: after
// counting it in its turn); its result is that of the Adds made one after
// another in the order they committed. Of concurrent Adds of one new ID
// exactly one succeeds; the others return an error wrapping
// detector.ErrDuplicateID. It costs the signing (see [Sketcher]), O(bands)
// index probes, O(K) per candidate group and O(k log k) per matching
// group for the k = MaxResults matches returned.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) { return d.e.Add(doc) }

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
	cfg := &d.a.cfg
	if cfg.Mode == Weighted {
		return nil, fmt.Errorf("minhash: AddSignature in Weighted mode: %w", detector.ErrInvalidConfig)
	}
	if (len(sig) != 0 && len(sig) != cfg.NumHashes) || size < 0 || (len(sig) == 0) != (size == 0) {
		return nil, fmt.Errorf("minhash: AddSignature(%q) with %d values and size %d, want %d values and size ≥ 1, or none and 0: %w",
			id, len(sig), size, cfg.NumHashes, detector.ErrInvalidConfig)
	}
	return d.e.AddFeatures(detector.Doc{ID: id}, sketch{sig: nonEmpty(sig), size: capSize(size)})
}

// Query returns what Add(doc) would return now, without indexing doc or
// changing anything a later call observes: the live documents that
// contain doc (its near-duplicates in Jaccard and Weighted modes), the
// Config.MaxResults strongest, ordered by [detector.SortMatches]. doc.ID
// may be empty; a live document with that ID is not reported. In Weighted
// mode with online statistics doc is weighed as Add would weigh it, as if
// counted into the statistics, which are left unchanged; such a Query
// takes a turn after the Adds counted before it.
//
// Query signs doc outside the Detector's lock and costs what Add does. It
// returns an error wrapping detector.ErrClosed after Close, or
// detector.ErrTooLarge for a text over Config.MaxTextBytes, before it
// reads the text.
func (d *Detector) Query(doc detector.Doc) ([]detector.Match, error) { return d.e.Query(doc) }

// Containers returns the live documents that contain the document id (in
// Jaccard and Weighted modes: its near-duplicates), including ones added
// after it, ordered and capped like Add's result.
func (d *Detector) Containers(id string) ([]detector.Match, error) { return d.e.Containers(id) }

// Copies returns the live documents whose content, as the Detector reads
// it, is identical to the live document id's (equal signatures and set
// sizes; in Weighted mode equal phrase sets), in ascending ID order,
// without id. A document without words has none. It is not capped, and
// costs O(c log c) for c copies. It returns an error wrapping
// detector.ErrUnknownID or detector.ErrClosed.
func (d *Detector) Copies(id string) ([]string, error) { return d.e.Copies(id) }

// Remove forgets the document id: it is reported by no later call and its
// ID may be added again. A document with live copies leaves its group in
// O(log c) for c copies and the index is untouched; the last of a group
// takes it out of the tables, O(bands). In Weighted mode with online
// statistics its terms and phrases leave the statistics too, which then
// describe the live documents: O(n) for its n terms and phrases.
func (d *Detector) Remove(id string) error { return d.e.Remove(id) }

// Close releases the index. It is idempotent and returns nil; later calls
// of Add, Query, Containers, Copies, Remove, WriteTo and ReadFrom return
// an error wrapping detector.ErrClosed.
func (d *Detector) Close() error { return d.e.Close() }

// Len returns the number of live documents, 0 after Close.
func (d *Detector) Len() int { return d.e.Len() }

// WriteTo writes a snapshot of the live documents to w and returns the
// bytes written: their IDs, the signatures and set sizes of their groups
// of exact copies, and with online statistics each document's distinct
// terms and phrases; not their texts (the layout: snapshot.go). The
// sections are encoded under the Detector's lock, so concurrent Adds and
// Removes are either wholly in it or wholly not. It returns an error
// wrapping detector.ErrClosed after Close, or the error of w.
func (d *Detector) WriteTo(w io.Writer) (int64, error) { return d.e.WriteTo(w) }

// ReadFrom loads a snapshot written by WriteTo into d, which must be empty
// and made by the same constructor with the same Config (and, for
// NewWithStats, statistics with the same counts), and returns the bytes
// read. It builds a fresh index (and statistics) before it installs it, so
// on any error d stays empty; loading is linear in the snapshot and signs
// no text. It returns an error wrapping detector.ErrClosed after Close,
// and one wrapping detector.ErrSnapshot for a d that is not empty and for
// input it cannot load: another kind or layout, another Config (the error
// names the field) or statistics (it names the Stats table), a damaged or
// truncated stream.
func (d *Detector) ReadFrom(r io.Reader) (int64, error) { return d.e.ReadFrom(r) }

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
