package tweezer

import (
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// Detector is a Tweezer near-duplicate detector (symmetric). In [Exact]
// mode documents with equal signature digests are near-duplicates, Score 1
// (Uyar 2009 Fig. 4.2 step 6). In [Jaccard] and [Overlap] mode documents
// whose shingle sets have a similarity ≥ Config.Threshold are, Score = the
// similarity, found through an inverted index of shingle hashes. Documents
// without words are accepted and match nothing.
//
// Documents with equal signatures (exact copies, as Tweezer reads them)
// share one entry of the index; [Detector.Copies] lists them. Add,
// Containers and Query return at most Config.MaxResults matches, the
// strongest.
//
// A Detector is safe for concurrent use by multiple goroutines: signatures
// are computed outside its lock, the index is updated under it (the shell
// of package internal/engine).
type Detector struct {
	signer *Signer
	e      *engine.Engine[docSig, sigKey]
}

// New returns an empty Detector for cfg. It returns an error wrapping
// detector.ErrInvalidConfig for an invalid Config (see [NewSigner]), nil
// otherwise.
func New(cfg Config) (*Detector, error) {
	s, err := NewSigner(cfg)
	if err != nil {
		return nil, err
	}
	return newDetector(s), nil
}

// newDetector returns an empty Detector signing with s.
func newDetector(s *Signer) *Detector {
	c := &s.cfg
	return &Detector{signer: s, e: engine.New(engine.Spec{
		Name:          "tweezer",
		Version:       snapshotVersion,
		Config:        s.cfg,
		NoGroup:       "empty",
		MinGroupBytes: 37, // 16+16+1 bytes, two counts and one ID
		MaxTextBytes:  c.MaxTextBytes,
		MaxResults:    c.MaxResults,
	}, algorithm{s})}
}

// algorithm is Tweezer as the engine sees it.
type algorithm struct{ s *Signer }

func (a algorithm) Features(text string) docSig { return sign(a.s, text) }

func (a algorithm) CopyKey(s *docSig) (sigKey, bool) {
	return sigKey{s.digest, s.key, s.caseless}, !s.empty
}

func (a algorithm) NewIndex() engine.Index[docSig] { return newIndex(&a.s.cfg) }

// Config returns the Detector's configuration with every default filled in.
func (d *Detector) Config() Config { return d.signer.cfg }

// Signer returns the Detector's Signer, to compute signatures without
// indexing them.
func (d *Detector) Signer() *Signer { return d.signer }

// shingleSeed seeds the 64-bit shingle hashes of the inverted index.
const shingleSeed = 0x7477_6565_7a65_7231 // "tweezer1"

// sign returns what the index keeps of the signature signer gives text.
func sign(signer *Signer, text string) docSig {
	sig := signer.Sign(text)
	ds := docSig{digest: sig.Digest, key: sig.Key, empty: sig.Empty(), caseless: sig.Caseless}
	if signer.cfg.Mode != Exact && !ds.empty {
		ds.hashes = make([]uint64, len(sig.Shingles))
		for i, sh := range sig.Shingles {
			ds.hashes[i] = hashtab.String64(sh, shingleSeed)
		}
		slices.Sort(ds.hashes)
		ds.hashes = slices.Clip(slices.Compact(ds.hashes))
	}
	return ds
}

// Add indexes doc and returns its near-duplicates among the live documents,
// the Config.MaxResults strongest, ordered by [detector.SortMatches]. Add
// time is that of [Signer.Sign] plus, in Exact mode, one hash-table probe;
// in the set modes, the total length of the posting lists of its
// shingles, which hold one entry per distinct signature; plus
// O(k log k) per related group of exact copies for the k = MaxResults
// matches returned. An exact copy of a live document is not indexed again:
// it joins its group in O(log c) for c copies.
//
// Before it reads the text, Add returns an error wrapping
// detector.ErrClosed after Close, detector.ErrEmptyID for an empty ID,
// detector.ErrTooLarge for a text over Config.MaxTextBytes, and
// detector.ErrDuplicateID for the ID of a live document. It signs the text
// without holding the lock, then checks the ID again under it: of several
// concurrent Adds of one new ID, exactly one indexes its document.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) { return d.e.Add(doc) }

// Query returns what Add(doc) would return now, without indexing doc or
// changing anything a later call observes: the near-duplicates of doc
// among the live documents, the Config.MaxResults strongest, ordered by
// [detector.SortMatches]. doc.ID may be empty; a live document with that
// ID is not reported. Query costs what Add does, under a read lock, so
// that Queries run in parallel with each other.
//
// Query returns an error wrapping detector.ErrClosed after Close, or
// detector.ErrTooLarge for a text over Config.MaxTextBytes, before it
// reads the text.
func (d *Detector) Query(doc detector.Doc) ([]detector.Match, error) { return d.e.Query(doc) }

// Nearest returns the live documents most similar to text, best first, the
// min(k, Config.MaxResults) best, storing nothing (detector.Ranker). In the
// set modes it ranks every document sharing a shingle with text by the
// score Query gives (the overlap of their shingle sets in Overlap mode,
// their Jaccard similarity in Jaccard mode), below Config.Threshold too,
// at the cost of a Query; in Exact mode, a digest, it finds exact copies
// only. Scores order documents within this detector.
func (d *Detector) Nearest(text string, k int) ([]detector.Match, error) { return d.e.Nearest(text, k) }

// Containers returns the near-duplicates of the live document id, including
// documents added after it, the Config.MaxResults strongest, ordered by
// [detector.SortMatches].
func (d *Detector) Containers(id string) ([]detector.Match, error) { return d.e.Containers(id) }

// Copies returns the live documents whose signature equals that of the
// live document id (its exact copies as Tweezer reads them: the same
// shingles, Key and case), in ascending ID order, without id. A document
// without words has none. Copies time is O(c log c) for c copies. It
// returns an error wrapping detector.ErrUnknownID or detector.ErrClosed.
func (d *Detector) Copies(id string) ([]string, error) { return d.e.Copies(id) }

// Cluster returns the Tweezer cluster of the live document id: the live
// documents whose signature digest equals id's, id included, sorted by ID
// (Uyar 2009 Fig. 4.2; in either Mode). A document without words is alone in
// its cluster. Cluster time is O(c log c) for a cluster of c documents; it
// is not capped by Config.MaxResults.
func (d *Detector) Cluster(id string) ([]string, error) {
	return d.e.Union("Cluster", id, func(_ uint32, s *docSig, ix engine.Index[docSig]) []uint32 {
		return ix.(*index).digest[s.digest]
	})
}

// Remove forgets the live document id and gives back the memory it took.
// A document with live copies leaves its group, O(log c) for c copies, and
// the index is untouched: a copy stands for them all. The last of a group
// takes it out of the index: the posting lists it was the last entry of
// are deleted, and an index map that has fallen to a quarter of the most
// keys it held is rebuilt at its current size (Go maps keep their buckets
// after deletions). Remove time is then the length of the posting lists
// it is on, plus the rebuilds, O(1) amortised per deleted key.
func (d *Detector) Remove(id string) error { return d.e.Remove(id) }

// Len returns the number of live documents.
func (d *Detector) Len() int { return d.e.Len() }

// Close releases the index. It is idempotent and returns nil; every later
// Add, Query, Containers, Copies, Cluster, Remove, WriteTo or ReadFrom
// returns an error wrapping detector.ErrClosed.
func (d *Detector) Close() error { return d.e.Close() }
