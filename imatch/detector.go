package imatch

import (
	"fmt"
	"slices"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/postings"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Detector is an I-Match near-duplicate detector: documents sharing a
// signature [Key] are near-duplicates of each other (symmetric). A Match's
// Score is the fraction of lexicon signatures the two documents share,
// shared / max(|keys(a)|, |keys(b)|): 1 for plain I-Match, and 1 for exact
// duplicates.
//
// When the IDF table can change (an online table: the one [New] keeps, or an
// unfrozen table given to [NewWithIDF]), two copies of a text added at
// different times may select different terms. So that an exact duplicate is
// always reported, the Detector then also indexes a digest of each
// document's whole term sequence. With a frozen table equal texts have equal
// signatures, and the extra key is kept only for documents too short for a
// signature (fewer than MinTerms selected terms).
//
// A Detector is safe for concurrent use by multiple goroutines.
type Detector struct {
	mu     sync.RWMutex
	docs   *docset.Set
	signer *Signer
	owned  bool // the IDF table is ours: count each added document
	exact  bool // index the exact-content key
	post   map[Key][]uint32
	keys   [][]Key // by dense index
}

var (
	_ detector.Detector = (*Detector)(nil)
	_ detector.Remover  = (*Detector)(nil)
)

// New returns a Detector that keeps its own online IDF table: every added
// document is counted before its signature is computed, so idf reflects the
// stream so far (the "recalculate IDF for each collection" option of Uyar
// 2009 §2.2.3). Removed documents stay counted. It returns an error wrapping
// detector.ErrInvalidConfig for an invalid Config, and nil otherwise.
func New(cfg Config) (*Detector, error) {
	return newDetector(cfg, textproc.NewIDF(false), true)
}

// NewWithIDF returns a Detector that selects terms with idf, the caller's
// table, which it reads and never writes (the "generic collection" option of
// Uyar 2009 §2.2.3). Freeze the table for stable signatures. It returns an
// error wrapping detector.ErrInvalidConfig for an invalid Config or a nil
// table.
func NewWithIDF(cfg Config, idf *textproc.IDF) (*Detector, error) {
	if idf == nil {
		return nil, fmt.Errorf("imatch: NewWithIDF: nil IDF table: %w", detector.ErrInvalidConfig)
	}
	return newDetector(cfg, idf, false)
}

func newDetector(cfg Config, idf *textproc.IDF, owned bool) (*Detector, error) {
	s, err := NewSigner(cfg, idf)
	if err != nil {
		return nil, err
	}
	return &Detector{
		docs:   docset.New("imatch", s.cfg.MaxTextBytes),
		signer: s,
		owned:  owned,
		exact:  owned || !idf.Frozen(),
		post:   make(map[Key][]uint32),
	}, nil
}

// Config returns the Detector's configuration with every default filled in.
func (d *Detector) Config() Config { return d.signer.cfg }

// IDF returns the table the Detector selects terms with (its own online
// table for a Detector from [New]), e.g. to persist it.
func (d *Detector) IDF() *textproc.IDF { return d.signer.idf }

// Add indexes doc and returns its near-duplicates: the live documents that
// share one of its signatures. Add time is that of [Signer.Sign] plus
// O(K+1) hash-table probes and the size of the matched groups.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.docs.Check(doc); err != nil {
		return nil, err
	}
	s := d.signer
	s.analyze(doc.Text)
	if d.owned && len(s.terms) > 0 {
		// The table is ours and not frozen: AddDocument cannot fail.
		_ = s.idf.AddDocument(s.terms)
	}
	keys := s.appendKeys(nil)
	if d.exact || len(keys) == 0 {
		if k, ok := s.exactKey(); ok {
			keys = append(keys, k)
		}
	}
	idx, err := d.docs.Add(doc)
	if err != nil {
		return nil, err
	}
	ms := d.matches(idx, keys)
	for _, k := range keys {
		d.post[k] = append(d.post[k], idx)
	}
	if int(idx) >= len(d.keys) {
		d.keys = append(d.keys, make([][]Key, int(idx)+1-len(d.keys))...)
	}
	d.keys[idx] = slices.Clip(keys)
	return ms, nil
}

// lexiconKeys counts the keys that are not the exact-content key.
func lexiconKeys(keys []Key) int {
	n := len(keys)
	if n > 0 && keys[n-1].Lexicon == exactLexicon {
		n--
	}
	return n
}

// matches returns the live documents other than self sharing a key with
// keys, scored by the fraction of shared lexicon keys.
func (d *Detector) matches(self uint32, keys []Key) []detector.Match {
	var hits []uint32
	exactHit := map[uint32]bool{}
	for _, k := range keys {
		for _, o := range d.post[k] {
			if o == self {
				continue
			}
			if k.Lexicon == exactLexicon {
				exactHit[o] = true
				continue
			}
			hits = append(hits, o)
		}
	}
	for o := range exactHit {
		hits = append(hits, o)
	}
	if len(hits) == 0 {
		return nil
	}
	slices.Sort(hits)
	mine := lexiconKeys(keys)
	var out []detector.Match
	for i := 0; i < len(hits); {
		j := i
		for j < len(hits) && hits[j] == hits[i] {
			j++
		}
		o := hits[i]
		score := 1.0
		if !exactHit[o] {
			shared := j - i
			score = float64(shared) / float64(max(mine, lexiconKeys(d.keys[o])))
		}
		out = append(out, detector.Match{ID: d.docs.ID(o), Score: score})
		i = j
	}
	detector.SortMatches(out)
	return out
}

// Containers returns the near-duplicates of the live document id: every
// other live document sharing one of its signatures, including documents
// added after it.
func (d *Detector) Containers(id string) ([]detector.Match, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.docs.Lookup("Containers", id)
	if err != nil {
		return nil, err
	}
	return d.matches(idx, d.keys[idx]), nil
}

// Cluster returns the I-Match cluster of the live document id, sorted by ID
// and including id itself: the documents whose digest equals id's (Uyar 2009
// Fig. 2.4 step 7, "If there is a collision of digest values then the
// documents are similar"). With random sub-lexicons (and the exact-content
// key) a cluster is the connected component of digest collisions (Kołcz et
// al. 2004), so the relation is transitive. A document without signatures is
// alone in its cluster. Cluster time is O(size of the cluster · keys per
// document).
func (d *Detector) Cluster(id string) ([]string, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.docs.Lookup("Cluster", id)
	if err != nil {
		return nil, err
	}
	seen := map[uint32]bool{idx: true}
	queue := []uint32{idx}
	for len(queue) > 0 {
		cur := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, k := range d.keys[cur] {
			for _, o := range d.post[k] {
				if !seen[o] {
					seen[o] = true
					queue = append(queue, o)
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for o := range seen {
		out = append(out, d.docs.ID(o))
	}
	slices.Sort(out)
	return out, nil
}

// Signature returns the signatures of the live document id, as [Signer.Sign]
// computed them when it was added (without the exact-content key).
func (d *Detector) Signature(id string) ([]Key, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.docs.Lookup("Signature", id)
	if err != nil {
		return nil, err
	}
	ks := d.keys[idx]
	return slices.Clone(ks[:lexiconKeys(ks)]), nil
}

// Remove forgets the live document id. Its terms stay counted in an online
// IDF table the Detector owns.
func (d *Detector) Remove(id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Remove(id)
	if err != nil {
		return err
	}
	for _, k := range d.keys[idx] {
		postings.Delete(d.post, k, idx)
	}
	d.keys[idx] = nil
	return nil
}

// Len returns the number of live documents.
func (d *Detector) Len() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.docs.Len()
}

// Close releases the index. It is idempotent and returns nil; later calls
// return an error wrapping detector.ErrClosed.
func (d *Detector) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.docs.Close() {
		d.post, d.keys = nil, nil
	}
	return nil
}
