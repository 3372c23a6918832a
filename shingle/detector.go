package shingle

import (
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// Detector is a full-fingerprinting, DSC or SpotSigs detector, as its
// Config.Method says, over one inverted index of integer posting lists.
//
// A Detector is safe for concurrent use by multiple goroutines: text is
// analysed and signed outside its lock, the index is updated under it and
// searched under a read lock shared by Query, Containers and Copies (the
// shell of package internal/engine).
type Detector struct {
	cfg Config
	e   *engine.Engine[features, uint64]
}

// New returns a detector for cfg. It returns an error wrapping
// detector.ErrInvalidConfig, naming the field, when a field is out of
// range (a negative length, a threshold outside (0, 1], MinIDF ≥ MaxIDF, a
// NaN, an unknown Method or Sampling, a Language that is not a BCP 47
// tag, a negative MaxResults, ...); otherwise the error is nil.
func New(cfg Config) (*Detector, error) {
	return newDetector(cfg, nil)
}

// newDetector is New; trace, when set (tests), is called by each Add and
// Remove as it takes effect, in order.
func newDetector(cfg Config, trace func(remove bool, id string)) (*Detector, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	ex, err := newExtractor(cfg)
	if err != nil {
		return nil, err
	}
	alg := &algorithm{cfg: cfg}
	alg.ex.New = func() (*extractor, error) { return newExtractor(cfg) }
	alg.ex.Put(ex)
	return &Detector{cfg: cfg, e: engine.New(engine.Spec{
		Name:          snapshotKind,
		Version:       snapshotVersion,
		Config:        storedConfig(cfg),
		NoGroup:       "empty",
		MinGroupBytes: 11, // a count, one feature or digest (8 bytes), a count and one ID
		MaxTextBytes:  cfg.MaxTextBytes,
		MaxResults:    cfg.MaxResults,
		Trace:         trace,
	}, engine.Algorithm[features, uint64](alg))}, nil
}

// Config returns the detector's effective configuration: every default
// filled in.
func (d *Detector) Config() Config { return d.cfg }

// features is what the index keeps of a text, computed outside the lock:
// a group's features once stored (see Insert), or a searched text's.
type features struct {
	set   []uint64 // FullFingerprint, DSC: sorted features; SpotSigs: sorted signature hashes
	super []uint64 // DSC-SS super-shingles
	cnt   []uint32 // SpotSigs: multiplicity of each signature hash
	size  int      // FullFingerprint, DSC: distinct shingles set was drawn from
	// key is the group key: the hash of set and size (FullFingerprint,
	// DSC) or the digest of the token sequence (SpotSigs); 0 for a text
	// without words, which is in no group.
	key uint64
	// self is the group number of stored features (set by Insert), noGroup
	// for a searched text.
	self uint32
	// SpotSigs: the IDs of the signatures the index held when Prepare ran
	// (noSig for the others), valid while sidsAt equals the index's frees.
	sids   []uint32
	sidsAt uint64
}

// algorithm is the detector as the engine sees it: how a text is read,
// its exact-copy key, and a group's snapshot encoding (snapshot.go).
type algorithm struct {
	cfg Config
	ex  engine.Pool[*extractor] // one per concurrent analysis
}

// Features analyses text with a pooled extractor.
func (alg *algorithm) Features(text string) features {
	e, err := alg.ex.Get()
	if err != nil {
		panic(err) // unreachable: newDetector built one with the same Config
	}
	f := e.read(alg.cfg, text)
	switch {
	case alg.cfg.Method == SpotSigs && len(e.hs) > 0:
		f.key = e.hash | 1
	case alg.cfg.Method != SpotSigs && len(f.set) > 0:
		f.key = setKey(f.set, f.size)
	}
	if e.release(len(text)) {
		alg.ex.Put(e)
	}
	return f
}

// read returns the features of text under cfg, without their key: the
// spot-signature multiset, the shingle set, or the DSC sample (and its
// super-shingles), copied out of e's buffers.
func (e *extractor) read(cfg Config, text string) features {
	f := features{self: noGroup}
	switch cfg.Method {
	case SpotSigs:
		h, c := e.spots(text)
		f.set, f.cnt = slices.Clone(h), slices.Clone(c)
	case FullFingerprint:
		f.set = slices.Clone(e.shingles(text))
		f.size = len(f.set)
	default:
		set, size := e.sample(text)
		f.set, f.size = slices.Clone(set), size
		if cfg.SuperShingle > 0 {
			f.super = slices.Clone(e.superShingles(f.set, cfg.SuperShingle))
		}
	}
	return f
}

// CopyKey returns the group key of f; a text without words has none.
func (alg *algorithm) CopyKey(f *features) (uint64, bool) { return f.key, f.key != 0 }

// NewIndex returns an empty index of the Config's Method.
func (alg *algorithm) NewIndex() engine.Index[features] {
	if alg.cfg.Method == SpotSigs {
		return newSpotIndex(alg.cfg)
	}
	return newContainIndex(alg.cfg)
}

// setKey is the group key of a FullFingerprint or DSC feature set.
func setKey(set []uint64, size int) uint64 {
	h := uint64(0x4752_4f55_50)
	for _, f := range set {
		h = hashtab.Combine(h, f)
	}
	return hashtab.Combine(h, uint64(size)) | 1
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
// without the lock, and the document is inserted and searched for under
// the exclusive lock, where the ID is checked again: of concurrent Adds of
// one new ID exactly one succeeds and the others return an error wrapping
// detector.ErrDuplicateID. Concurrent Adds answer as sequential Adds in
// the order they take the lock. A text whose features equal those of a
// live document joins that document's group of exact copies, O(log c) for
// c copies, and the index does not grow.
//
// Add time for full fingerprinting is O(n log n + P + K·n) for a text of n
// shingles, P the postings of its n−⌈θn⌉+1 rarest shingles and K the
// candidate groups they yield; DSC works on the sample. SpotSigs is O(n +
// P' + K'·n), with P' the postings scanned before early termination, plus
// the groups holding a signature whose idf crosses the band's edge with
// this Add (see the package documentation). Reading the matches costs
// O(M log M) for M = Config.MaxResults, whatever the sizes of the groups
// of exact copies they come from.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) { return d.e.Add(doc) }

// Query returns what Add(doc) would return now, without indexing doc or
// changing anything a later call observes: the first Config.MaxResults
// matches by [detector.SortMatches]. For SpotSigs that includes the idf
// band as doc's Add would move it: the answer is computed against the
// document frequencies and N the Add would leave, held in the query's own
// scratch, not in the index. doc.ID may be empty; a live document with
// that ID is not reported. Query costs what Add does, under a read lock
// shared with other searches.
//
// Query returns an error wrapping detector.ErrTooLarge for a text over
// Config.MaxTextBytes, or detector.ErrClosed after Close, before it reads
// the text.
func (d *Detector) Query(doc detector.Doc) ([]detector.Match, error) { return d.e.Query(doc) }

// Nearest returns the live documents most similar to text, best first, the
// min(k, Config.MaxResults) best, storing nothing (detector.Ranker): for
// full fingerprinting and DSC every document sharing a shingle (or a
// sampled one) with text, by the share of text's shingles it holds (the
// containment of text in it, Query's score); for SpotSigs every document
// sharing a signature, by their multiset Jaccard under the statistics
// text's Add would leave (Query's score), and its exact copies at 1.
// Below Config.Threshold too. It reads every posting list of text's
// features where Query reads the rarest: it costs a Query plus the
// postings of text's common features. Scores order documents within this
// detector.
func (d *Detector) Nearest(text string, k int) ([]detector.Match, error) { return d.e.Nearest(text, k) }

// Containers returns the live documents that contain the document id (for
// SpotSigs, its near-duplicates), including ones added after it: the first
// Config.MaxResults by [detector.SortMatches]. It is computed from the
// index on every call, with the cost of an Add of the same text (no
// analysis); for SpotSigs it is exact under the live document
// frequencies, which the index keeps up to date with every Add and Remove.
func (d *Detector) Containers(id string) ([]detector.Match, error) { return d.e.Containers(id) }

// Copies returns the live documents whose features equal those of the
// live document id (its exact copies as the Method reads them: the same
// shingle set, the same DSC sample drawn from as many shingles, or the
// same token sequence for SpotSigs), in ascending ID order, without id. A
// text without words has none. Copies time is O(c log c) for c copies;
// it is not capped by Config.MaxResults. It returns an error wrapping
// detector.ErrUnknownID or detector.ErrClosed.
func (d *Detector) Copies(id string) ([]string, error) { return d.e.Copies(id) }

// Remove forgets the document id. A document with live exact copies
// leaves its group in O(log c) (SpotSigs also lowers its signatures'
// document frequencies, as for any Remove); the last of a group purges it
// from every posting list.
func (d *Detector) Remove(id string) error { return d.e.Remove(id) }

// Close releases the index. It is idempotent and returns nil; later calls
// but Len and Close return an error wrapping detector.ErrClosed.
func (d *Detector) Close() error { return d.e.Close() }

// Len returns the number of live documents, 0 after Close.
func (d *Detector) Len() int { return d.e.Len() }
