package tweezer

import (
	"maps"
	"slices"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/evidence"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
	"github.com/seed-9ef9c1df/neardup/internal/postings"
)

// Detector is a Tweezer near-duplicate detector (symmetric). In [Exact]
// mode documents with equal signature digests are near-duplicates, Score 1
// (Uyar 2009 Fig. 4.2 step 6). In [Jaccard] and [Overlap] mode documents
// whose shingle sets have a similarity ≥ Config.Threshold are, Score = the
// similarity, found through an inverted index of shingle hashes. Documents without
// words are accepted and match nothing.
//
// A Detector is safe for concurrent use by multiple goroutines: signatures
// are computed outside its lock, the index is updated under it.
type Detector struct {
	signer *Signer

	mu     sync.RWMutex
	docs   *docset.Set
	digest map[Digest][]uint32 // Exact mode and Cluster: digest → live docs
	keys   map[Digest][]uint32 // Signature.Key → live docs
	bare   map[Digest][]uint32 // Signature.Key → live caseless docs
	post   map[uint64][]uint32 // set modes: shingle hash → live docs
	sigs   []docSig            // by dense index

	// The most keys each map has held since it was last rebuilt: a Go map
	// keeps its buckets when keys are deleted, so Remove rebuilds a map
	// that has fallen to a quarter of its peak.
	digestPeak, keysPeak, barePeak, postPeak int
}

// docSig is what the index keeps of a document.
type docSig struct {
	digest   Digest
	key      Digest
	empty    bool
	caseless bool
	hashes   []uint64 // set modes: sorted distinct shingle hashes
}

var (
	_ detector.Detector = (*Detector)(nil)
	_ detector.Remover  = (*Detector)(nil)
)

// New returns an empty Detector for cfg. It returns an error wrapping
// detector.ErrInvalidConfig for an invalid Config (see [NewSigner]), nil
// otherwise.
func New(cfg Config) (*Detector, error) {
	s, err := NewSigner(cfg)
	if err != nil {
		return nil, err
	}
	return &Detector{
		signer: s,
		docs:   docset.New("tweezer", s.cfg.MaxTextBytes),
		digest: make(map[Digest][]uint32),
		keys:   make(map[Digest][]uint32),
		bare:   make(map[Digest][]uint32),
		post:   make(map[uint64][]uint32),
	}, nil
}

// Config returns the Detector's configuration with every default filled in.
func (d *Detector) Config() Config { return d.signer.cfg }

// Signer returns the Detector's Signer, to compute signatures without
// indexing them.
func (d *Detector) Signer() *Signer { return d.signer }

// shingleSeed seeds the 64-bit shingle hashes of the inverted index.
const shingleSeed = 0x7477_6565_7a65_7231 // "tweezer1"

// Add indexes doc and returns its near-duplicates among the live documents,
// ordered by [detector.SortMatches]. Add time is that of [Signer.Sign] plus,
// in Exact mode, one hash-table probe and the size of the matching group; in
// the set modes, the total length of the posting lists of its shingles.
//
// Before it reads the text, Add returns an error wrapping
// detector.ErrClosed after Close, detector.ErrEmptyID for an empty ID,
// detector.ErrTooLarge for a text over Config.MaxTextBytes, and
// detector.ErrDuplicateID for the ID of a live document. It signs the text
// without holding the lock, then checks the ID again under it: of several
// concurrent Adds of one new ID, exactly one indexes its document.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	d.mu.RLock()
	err := d.docs.Check(doc)
	d.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	sig := d.signer.Sign(doc.Text)
	ds := docSig{digest: sig.Digest, key: sig.Key, empty: sig.Empty(), caseless: sig.Caseless}
	if d.signer.cfg.Mode != Exact && !ds.empty {
		ds.hashes = make([]uint64, len(sig.Shingles))
		for i, sh := range sig.Shingles {
			ds.hashes[i] = hashx.String64(sh, shingleSeed)
		}
		slices.Sort(ds.hashes)
		ds.hashes = slices.Clip(slices.Compact(ds.hashes))
	}

	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Add(doc)
	if err != nil {
		return nil, err
	}
	if int(idx) >= len(d.sigs) {
		d.sigs = append(d.sigs, make([]docSig, int(idx)+1-len(d.sigs))...)
	}
	d.sigs[idx] = ds
	if ds.empty {
		return nil, nil
	}
	d.digest[ds.digest] = append(d.digest[ds.digest], idx)
	d.keys[ds.key] = append(d.keys[ds.key], idx)
	if ds.caseless {
		d.bare[ds.key] = append(d.bare[ds.key], idx)
	}
	for _, h := range ds.hashes {
		d.post[h] = append(d.post[h], idx)
	}
	d.digestPeak = max(d.digestPeak, len(d.digest))
	d.keysPeak = max(d.keysPeak, len(d.keys))
	d.barePeak = max(d.barePeak, len(d.bare))
	d.postPeak = max(d.postPeak, len(d.post))
	return d.matches(idx), nil
}

// matches returns the live near-duplicates of the live document idx.
func (d *Detector) matches(idx uint32) []detector.Match {
	ds := &d.sigs[idx]
	if ds.empty {
		return nil
	}
	var out []detector.Match
	// Caseless documents match by Key (see Similarity): found here, they
	// are skipped below. A caseless document reads every document with its
	// Key, one with case only the caseless ones.
	var byKey map[uint32]bool
	withKey := d.bare[ds.key]
	if ds.caseless {
		withKey = d.keys[ds.key]
	}
	for _, o := range withKey {
		if o != idx {
			if byKey == nil {
				byKey = map[uint32]bool{}
			}
			byKey[o] = true
			out = append(out, detector.Match{ID: d.docs.ID(o), Score: 1})
		}
	}
	if d.signer.cfg.Mode == Exact {
		for _, o := range d.digest[ds.digest] {
			if o != idx && !byKey[o] {
				out = append(out, detector.Match{ID: d.docs.ID(o), Score: 1})
			}
		}
		detector.SortMatches(out)
		return out
	}
	shared := map[uint32]int{}
	for _, h := range ds.hashes {
		for _, o := range d.post[h] {
			if o != idx && !byKey[o] {
				shared[o]++
			}
		}
	}
	for o, n := range shared {
		la, lb := len(ds.hashes), len(d.sigs[o].hashes)
		j := score(d.signer.cfg.Mode, n, la, lb)
		if j >= d.signer.cfg.Threshold && (j == 1 || evidence.Enough(float64(n), float64(min(la, lb)), float64(d.signer.cfg.MinOverlap))) {
			out = append(out, detector.Match{ID: d.docs.ID(o), Score: j})
		}
	}
	detector.SortMatches(out)
	return out
}

// Containers returns the near-duplicates of the live document id, including
// documents added after it, ordered by [detector.SortMatches].
func (d *Detector) Containers(id string) ([]detector.Match, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.docs.Lookup("Containers", id)
	if err != nil {
		return nil, err
	}
	return d.matches(idx), nil
}

// Cluster returns the Tweezer cluster of the live document id: the live
// documents whose signature digest equals id's, id included, sorted by ID
// (Uyar 2009 Fig. 4.2; in either Mode). A document without words is alone in
// its cluster. Cluster time is O(c log c) for a cluster of c documents.
func (d *Detector) Cluster(id string) ([]string, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.docs.Lookup("Cluster", id)
	if err != nil {
		return nil, err
	}
	ds := d.sigs[idx]
	if ds.empty {
		return []string{id}, nil
	}
	var out []string
	for _, o := range d.digest[ds.digest] {
		out = append(out, d.docs.ID(o))
	}
	slices.Sort(out)
	return out, nil
}

// Remove forgets the live document id and gives back the memory its
// shingles took: the posting lists it was the last document on are
// deleted, and an index map that has fallen to a quarter of the most keys
// it held is rebuilt at its current size (Go maps keep their buckets after
// deletions). Remove time is the length of the posting lists it is on,
// plus the rebuilds, O(1) amortised per deleted key.
func (d *Detector) Remove(id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Remove(id)
	if err != nil {
		return err
	}
	ds := d.sigs[idx]
	d.sigs[idx] = docSig{}
	if ds.empty {
		return nil
	}
	// Lists are sets: every reader sorts its results, so the unordered
	// delete serves.
	postings.Delete(d.digest, ds.digest, idx)
	postings.Delete(d.keys, ds.key, idx)
	if ds.caseless {
		postings.Delete(d.bare, ds.key, idx)
	}
	for _, h := range ds.hashes {
		postings.Delete(d.post, h, idx)
	}
	d.digest = shrink(d.digest, &d.digestPeak)
	d.keys = shrink(d.keys, &d.keysPeak)
	d.bare = shrink(d.bare, &d.barePeak)
	d.post = shrink(d.post, &d.postPeak)
	return nil
}

// minShrink is the least peak size at which a map is rebuilt: below it the
// buckets a map keeps are not worth a copy.
const minShrink = 1024

// shrink returns m rebuilt at its current size when it holds fewer than a
// quarter of its peak number of keys, and resets the peak; otherwise m.
// The rebuild copies at most a third of the keys deleted since the last
// one, so its cost is O(1) amortised per deletion.
func shrink[K comparable, V any](m map[K]V, peak *int) map[K]V {
	if *peak < minShrink || len(m) >= *peak/4 {
		return m
	}
	*peak = len(m)
	// Not maps.Clone, which may copy the buckets at their old size.
	out := make(map[K]V, len(m))
	maps.Copy(out, m)
	return out
}

// Len returns the number of live documents.
func (d *Detector) Len() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.docs.Len()
}

// Close releases the index. It is idempotent and returns nil; every later
// Add, Containers, Cluster or Remove returns an error wrapping
// detector.ErrClosed.
func (d *Detector) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.docs.Close() {
		d.digest, d.keys, d.bare, d.post, d.sigs = nil, nil, nil, nil, nil
	}
	return nil
}
