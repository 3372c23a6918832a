package tweezer

import (
	"fmt"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/copyheap"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
	"github.com/seed-9ef9c1df/neardup/internal/spin"
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
// are computed outside its lock, the index is updated under it.
type Detector struct {
	signer *Signer

	mu spin.RWMutex
	ix *index
}

var (
	_ detector.Detector   = (*Detector)(nil)
	_ detector.Remover    = (*Detector)(nil)
	_ detector.Querier    = (*Detector)(nil)
	_ detector.Persister  = (*Detector)(nil)
	_ detector.CopyLister = (*Detector)(nil)
)

// New returns an empty Detector for cfg. It returns an error wrapping
// detector.ErrInvalidConfig for an invalid Config (see [NewSigner]), nil
// otherwise.
func New(cfg Config) (*Detector, error) {
	s, err := NewSigner(cfg)
	if err != nil {
		return nil, err
	}
	return &Detector{signer: s, ix: newIndex(s.cfg.MaxTextBytes)}, nil
}

// Config returns the Detector's configuration with every default filled in.
func (d *Detector) Config() Config { return d.signer.cfg }

// Signer returns the Detector's Signer, to compute signatures without
// indexing them.
func (d *Detector) Signer() *Signer { return d.signer }

// shingleSeed seeds the 64-bit shingle hashes of the inverted index.
const shingleSeed = 0x7477_6565_7a65_7231 // "tweezer1"

// sign returns what the index keeps of the signature of text.
func (d *Detector) sign(text string) docSig {
	sig := d.signer.Sign(text)
	ds := docSig{digest: sig.Digest, key: sig.Key, empty: sig.Empty(), caseless: sig.Caseless}
	if d.signer.cfg.Mode != Exact && !ds.empty {
		ds.hashes = make([]uint64, len(sig.Shingles))
		for i, sh := range sig.Shingles {
			ds.hashes[i] = hashx.String64(sh, shingleSeed)
		}
		slices.Sort(ds.hashes)
		ds.hashes = slices.Clip(slices.Compact(ds.hashes))
	}
	return ds
}

// matches returns the near-duplicates of s among the live documents other
// than skip, at most Config.MaxResults of them.
func (d *Detector) matches(s *docSig, skip uint32) []detector.Match {
	c := &d.signer.cfg
	return d.ix.matches(s, skip, c.Mode, c.Threshold, c.MinOverlap, c.MaxResults)
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
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	d.mu.RLock()
	err := d.ix.docs.Check(doc)
	d.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	ds := d.sign(doc.Text)

	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.ix.docs.Add(doc)
	if err != nil {
		return nil, err
	}
	g := d.ix.insert(idx, ds)
	if g == noGroup {
		return []detector.Match{}, nil
	}
	gs := d.ix.groups[g].sig()
	return d.matches(&gs, idx), nil
}

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
func (d *Detector) Query(doc detector.Doc) ([]detector.Match, error) {
	if err := d.checkQuery(doc); err != nil {
		return nil, err
	}
	ds := d.sign(doc.Text)
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.ix.docs.Closed() { // closed meanwhile
		return nil, fmt.Errorf("tweezer: Query(%q): %w", doc.ID, detector.ErrClosed)
	}
	skip := uint32(noDoc)
	if doc.ID != "" {
		if idx, err := d.ix.docs.Lookup("Query", doc.ID); err == nil {
			skip = idx
		}
	}
	return d.matches(&ds, skip), nil
}

// checkQuery returns the error Query gives doc before reading it.
func (d *Detector) checkQuery(doc detector.Doc) error {
	if max := d.signer.cfg.MaxTextBytes; len(doc.Text) > max {
		return fmt.Errorf("tweezer: Query(%q): %d bytes over the limit of %d: %w",
			doc.ID, len(doc.Text), max, detector.ErrTooLarge)
	}
	d.mu.RLock()
	closed := d.ix.docs.Closed()
	d.mu.RUnlock()
	if closed {
		return fmt.Errorf("tweezer: Query(%q): %w", doc.ID, detector.ErrClosed)
	}
	return nil
}

// Containers returns the near-duplicates of the live document id, including
// documents added after it, the Config.MaxResults strongest, ordered by
// [detector.SortMatches].
func (d *Detector) Containers(id string) ([]detector.Match, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.ix.docs.Lookup("Containers", id)
	if err != nil {
		return nil, err
	}
	g := d.ix.refs[idx]
	if g == noGroup {
		return []detector.Match{}, nil
	}
	gs := d.ix.groups[g].sig()
	return d.matches(&gs, idx), nil
}

// Copies returns the live documents whose signature equals that of the
// live document id (its exact copies as Tweezer reads them: the same
// shingles, Key and case), in ascending ID order, without id. A document
// without words has none. Copies time is O(c log c) for c copies. It
// returns an error wrapping detector.ErrUnknownID or detector.ErrClosed.
func (d *Detector) Copies(id string) ([]string, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.ix.docs.Lookup("Copies", id)
	if err != nil {
		return nil, err
	}
	g := d.ix.refs[idx]
	if g == noGroup {
		return []string{}, nil
	}
	return d.ix.gs.IDs(g, d.ix.groups[g].first, idx), nil
}

// Cluster returns the Tweezer cluster of the live document id: the live
// documents whose signature digest equals id's, id included, sorted by ID
// (Uyar 2009 Fig. 4.2; in either Mode). A document without words is alone in
// its cluster. Cluster time is O(c log c) for a cluster of c documents; it
// is not capped by Config.MaxResults.
func (d *Detector) Cluster(id string) ([]string, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.ix.docs.Lookup("Cluster", id)
	if err != nil {
		return nil, err
	}
	g := d.ix.refs[idx]
	if g == noGroup {
		return []string{id}, nil
	}
	var idxs []uint32
	for _, o := range d.ix.digest[d.ix.groups[g].digest] {
		idxs = d.ix.gs.AppendMembers(idxs, o, d.ix.groups[o].first)
	}
	return copyheap.SortedIDs(d.ix.docs, idxs, noDoc), nil
}

// Remove forgets the live document id and gives back the memory it took.
// A document with live copies leaves its group, O(log c) for c copies, and
// the index is untouched: a copy stands for them all. The last of a group
// takes it out of the index: the posting lists it was the last entry of
// are deleted, and an index map that has fallen to a quarter of the most
// keys it held is rebuilt at its current size (Go maps keep their buckets
// after deletions). Remove time is then the length of the posting lists
// it is on, plus the rebuilds, O(1) amortised per deleted key.
func (d *Detector) Remove(id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.ix.docs.Remove(id)
	if err != nil {
		return err
	}
	d.ix.remove(idx)
	return nil
}

// Len returns the number of live documents.
func (d *Detector) Len() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.ix.docs.Len()
}

// Close releases the index. It is idempotent and returns nil; every later
// Add, Query, Containers, Copies, Cluster, Remove, WriteTo or ReadFrom
// returns an error wrapping detector.ErrClosed.
func (d *Detector) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ix.docs.Close() {
		docs := d.ix.docs
		d.ix = &index{docs: docs}
	}
	return nil
}
