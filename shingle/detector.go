package shingle

import (
	"slices"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
)

// Detector is a full-fingerprinting, DSC or SpotSigs detector, as its
// Config.Method says, over one inverted index of integer posting lists.
//
// A Detector is safe for concurrent use by multiple goroutines: one mutex
// serialises every call.
type Detector struct {
	cfg Config

	mu   sync.Mutex
	docs *docset.Set
	ex   *extractor
	con  *containIndex // FullFingerprint, DSC
	spot *spotIndex    // SpotSigs

	// Exact duplicates for SpotSigs: the release reports a pair whose
	// contents hash alike whatever their signatures (SpotSigs.java
	// deduplicateIndex: counter.SHA1.equals(counter2.SHA1)).
	digest  []uint64 // by dense index; 0 = no words
	byHash  map[uint64][]uint32
	hits    []hit
	scratch []uint64
}

var (
	_ detector.Detector = (*Detector)(nil)
	_ detector.Remover  = (*Detector)(nil)
)

// New returns a detector for cfg. It returns an error wrapping
// detector.ErrInvalidConfig, naming the field, when a field is out of
// range (a negative length, a threshold outside (0, 1], MinIDF ≥ MaxIDF, an
// unknown Method or Sampling, a Language that is not a BCP 47 tag, ...);
// otherwise the error is nil.
func New(cfg Config) (*Detector, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	ex, err := newExtractor(cfg)
	if err != nil {
		return nil, err
	}
	d := &Detector{cfg: cfg, docs: docset.New("shingle", cfg.MaxTextBytes), ex: ex}
	if cfg.Method == SpotSigs {
		d.spot = &spotIndex{cfg: cfg}
		d.byHash = map[uint64][]uint32{}
	} else {
		d.con = &containIndex{cfg: cfg}
	}
	return d, nil
}

// Config returns the detector's configuration with every default filled in.
func (d *Detector) Config() Config { return d.cfg }

// Add indexes doc and returns the live documents that contain it: for full
// fingerprinting and DSC the documents holding at least Threshold of its
// shingles (or sample), scored by that fraction; for SpotSigs its
// near-duplicates, scored by multiset Jaccard similarity (1 for an exact
// duplicate). Matches are ordered by [detector.SortMatches].
//
// Add time for full fingerprinting is O(n log n + P + K·n) for a text of n
// shingles, P the postings of its n−⌈θn⌉+1 rarest shingles and K the
// candidates they yield; DSC works on the sample. SpotSigs is
// O(P' + K'·n) amortised, with P' the postings scanned before early
// termination, plus an O(total signatures) refresh of the idf view once
// the collection has changed by an eighth since the last one.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.docs.Check(doc); err != nil {
		return nil, err
	}
	switch d.cfg.Method {
	case SpotSigs:
		hashes, cnt := d.ex.spots(doc.Text)
		idx, _ := d.docs.Add(doc)
		d.spot.insert(idx, hashes, cnt)
		d.setDigest(idx, d.ex.hash, d.ex.ntok > 0)
		return d.similar(idx), nil
	default:
		set, size, super := d.features(doc.Text)
		idx, _ := d.docs.Add(doc)
		d.con.insert(idx, set, size, super)
		return d.containers(idx), nil
	}
}

// features extracts FFP's shingle set or DSC's sample and super-shingles.
func (d *Detector) features(text string) (set []uint64, size int, super []uint64) {
	if d.cfg.Method == FullFingerprint {
		set = d.ex.shingles(text)
		return set, len(set), nil
	}
	set, size = d.ex.sample(text)
	if d.cfg.SuperShingle > 0 {
		super = d.ex.superShingles(set, d.cfg.SuperShingle)
	}
	return set, size, super
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

// containers answers for FullFingerprint and DSC.
func (d *Detector) containers(idx uint32) []detector.Match {
	x := d.con
	d.hits = x.containers(x.sets[idx], x.super[idx], idx, d.docs.Cap(), d.hits[:0])
	return d.matches()
}

// similar answers for SpotSigs: the view's near-duplicates plus the exact
// duplicates.
func (d *Detector) similar(idx uint32) []detector.Match {
	d.hits = d.spot.similar(idx, d.docs.Cap(), d.hits[:0])
	if h := d.digest[idx]; h != 0 {
		for _, o := range d.byHash[h] {
			if o == idx {
				continue
			}
			if i := slices.IndexFunc(d.hits, func(x hit) bool { return x.idx == o }); i >= 0 {
				d.hits[i].score = 1
			} else {
				d.hits = append(d.hits, hit{o, 1})
			}
		}
	}
	return d.matches()
}

func (d *Detector) matches() []detector.Match {
	if len(d.hits) == 0 {
		return nil
	}
	out := make([]detector.Match, len(d.hits))
	for i, h := range d.hits {
		out[i] = detector.Match{ID: d.docs.ID(h.idx), Score: h.score}
	}
	detector.SortMatches(out)
	return out
}

// Containers returns the live documents that contain the document id (for
// SpotSigs, its near-duplicates), including ones added after it, ordered by
// [detector.SortMatches]. It is computed from the index on every call, with
// the cost of an Add of the same text; for SpotSigs, a call after Adds or
// Removes first refreshes the idf view (O(total signatures)), so the answer
// is exact under the live document frequencies.
func (d *Detector) Containers(id string) ([]detector.Match, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Lookup("Containers", id)
	if err != nil {
		return nil, err
	}
	if d.cfg.Method == SpotSigs {
		d.spot.fresh()
		return d.similar(idx), nil
	}
	return d.containers(idx), nil
}

// Remove forgets the document id and purges it from every posting list.
func (d *Detector) Remove(id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Remove(id)
	if err != nil {
		return err
	}
	if d.cfg.Method == SpotSigs {
		d.spot.remove(idx)
		if h := d.digest[idx]; h != 0 {
			l := d.byHash[h]
			if i := slices.Index(l, idx); i >= 0 {
				l = slices.Delete(l, i, i+1)
			}
			if len(l) == 0 {
				delete(d.byHash, h)
			} else {
				d.byHash[h] = l
			}
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
