package imatch

import (
	"fmt"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/liveidf"
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
// A Detector is safe for concurrent use by multiple goroutines (the shell
// of package internal/engine). Add analyses and signs its text outside the
// Detector's lock. With its own online table the Adds take turns, on a
// lock the read-only calls never take, only to count their document; the
// selection and the digests run after the turn, in parallel, and the
// commits follow in turn order, so every result is that of the Adds run
// one by one in turn order. Remove, Query and ReadFrom take a turn too.
//
// Exact copies (documents of one analysed term sequence, the exact-content
// digest) that were given the same keys share one group: the index holds
// the group once, a further copy costs O(log c) for a group of c, and
// [Detector.Copies] lists them. Add, Containers and Query return at most
// Config.MaxResults matches, and read only the members of a group that can
// make that cut.
type Detector struct {
	cfg Config
	idf *textproc.IDF // the caller's table, or nil
	alg *algorithm
	e   *engine.Engine[features, Digest]
}

// testHookAnalysed, when set, runs in Add after the text is analysed and
// before the Detector's lock is taken.
var testHookAnalysed func()

// testHookInTurn, when set, runs in Add of a Detector with its own table
// while the Add holds its turn, after its document is counted.
var testHookInTurn func()

// New returns a Detector that keeps its own online IDF table over its live
// documents: every added document is counted before its signature is
// computed, so idf reflects the stream (the "recalculate IDF for each
// collection" option of Uyar 2009 §2.2.3), and a removed document is
// uncounted, so the table holds the terms of the live documents only. It
// returns an error wrapping detector.ErrInvalidConfig for an invalid Config,
// and nil otherwise.
func New(cfg Config) (*Detector, error) {
	return newDetector(cfg, nil, true)
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

func newDetector(cfg Config, idf *textproc.IDF, own bool) (*Detector, error) {
	rc, tc, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	a := &algorithm{cfg: rc, own: own, exact: own || !idf.Frozen()}
	// With its own table the pool's Signers read no table: a turn gives
	// them the document frequencies of one document at a time, and each
	// keeps a cache of the table's cells by term ID. A new Signer cannot
	// fail once the first is built: the same Config builds it.
	a.pool.New = func() (*Signer, error) { return newSigner(rc, tc, idf) }
	a.pool.Tidy = (*Signer).tidy
	s, err := a.pool.Get()
	if err != nil {
		return nil, err
	}
	a.pool.Put(s)
	spec := engine.Spec{
		Name:         "imatch",
		Version:      snapshotVersion,
		Config:       rc,
		NoGroup:      "empty",
		MaxTextBytes: rc.MaxTextBytes,
		MaxResults:   rc.MaxResults,
	}
	if idf != nil {
		// Named by the table's state when the Detector was built, which
		// decided whether every document carries the exact-content key.
		name := "idf"
		if a.exact {
			name = "idf-unfrozen"
		}
		spec.Tables = map[string]uint64{name: idf.Fingerprint()}
	}
	return &Detector{cfg: rc, idf: idf, alg: a, e: engine.New[features, Digest](spec, a)}, nil
}

// features is what the engine keeps of a document: its keys (lexicon keys
// by lexicon, then the exact-content key when indexed), the digest of its
// analysed term sequence, and with the Detector's own table its distinct
// terms packed as the table keeps them. Between Features and Release it
// also holds the Signer that computes them.
type features struct {
	keys    []Key
	content Digest
	packed  string
	s       *Signer
}

// algorithm is I-Match as the engine sees it.
type algorithm struct {
	cfg   Config
	pool  engine.Pool[*Signer]
	own   bool // the Detector keeps its own table
	exact bool // index the exact-content key of every document
}

// Features analyses text. With the caller's table it signs it too; with
// the Detector's own table the Signer is kept for the Counter's steps
// (index.go) until Release.
func (a *algorithm) Features(text string) features {
	s, err := a.pool.Get()
	if err != nil {
		// Cannot happen: newDetector built a Signer of the same Config.
		return features{}
	}
	s.analyze(text)
	if testHookAnalysed != nil {
		testHookAnalysed()
	}
	content, hasContent := s.content()
	f := features{content: content}
	if a.own {
		f.s = s
		return f
	}
	f.keys = a.withExact(s.appendKeys(nil), content, hasContent)
	a.pool.Put(s)
	return f
}

// Release returns the Signer of f to the pool, first taking out of its
// table the terms Resolve entered for a document that was then refused.
func (a *algorithm) Release(f *features) {
	s := f.s
	if s == nil {
		return
	}
	if t := s.resolvedIn; t != nil {
		t.Forget(s.ownTerms(t))
		s.resolvedIn = nil
	}
	f.s = nil
	a.pool.Put(s)
}

// CopyKey is the exact-content digest; the group of a document is that
// of its content and key list, which the index finds (index.Find).
func (a *algorithm) CopyKey(f *features) (Digest, bool) { return f.content, len(f.keys) > 0 }

func (a *algorithm) NewIndex() engine.Index[features] {
	ix := &index{post: make(map[Key][]uint32)}
	if a.own {
		return &ownIndex{index: ix, alg: a, table: liveidf.New(false)}
	}
	return ix
}

// withExact appends the exact-content key to a document's lexicon keys:
// for every document when the table can change (always the case with our
// own table), and for documents without signatures otherwise.
func (a *algorithm) withExact(keys []Key, content Digest, hasContent bool) []Key {
	if hasContent && (a.exact || len(keys) == 0) {
		keys = append(keys, Key{Lexicon: exactLexicon, Digest: content})
	}
	return slices.Clip(keys)
}

// Config returns the Detector's configuration with every default filled in.
func (d *Detector) Config() Config { return d.cfg }

// IDF returns the table the Detector selects terms with, e.g. to persist
// it. For a Detector from [New] it is a frozen copy of the Detector's own
// online table as it is at the call (the live documents' frequencies),
// which later Adds and Removes do not change: call IDF again for a later
// state; after Close it is empty. The copy is made on the first call
// after a change, in O(distinct terms), and shared by the calls until the
// next change.
func (d *Detector) IDF() *textproc.IDF {
	if !d.alg.own {
		return d.idf
	}
	t := liveidf.New(false)
	d.e.Inspect(func(ix engine.Index[features], _ int) {
		if o, ok := ix.(*ownIndex); ok {
			t = o.table
		}
	})
	return t.IDF()
}

// Add indexes doc and returns its near-duplicates: the live documents that
// share one of its signatures, at most Config.MaxResults of them. Add time
// is that of [Signer.Sign] plus O(K+1) hash-table probes, the number of
// groups sharing a key, and O(r log r) for r results; an exact copy of a
// live document joins its group in O(log c) for c copies.
//
// The checks that need no analysis (closed, empty ID, size, duplicate ID)
// come first; the text is then analysed without the lock, and the checks
// are repeated under it: of several Adds of one new ID at once, exactly one
// succeeds and the others return detector.ErrDuplicateID.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) { return d.e.Add(doc) }

// Query returns what Add(doc) would return at this moment, without
// indexing doc or changing anything a later call observes: with its own
// table the Detector weighs doc as that table would after counting it,
// without counting it. doc.ID may be empty; a live document of that ID is
// not reported. Query runs in parallel with other Queries and with Adds
// (with its own table it selects its terms in a turn, as Add does). It
// returns an error wrapping detector.ErrTooLarge or detector.ErrClosed.
func (d *Detector) Query(doc detector.Doc) ([]detector.Match, error) { return d.e.Query(doc) }

// Nearest returns the live documents sharing an I-Match key with text,
// best first, the min(k, Config.MaxResults) best, storing nothing
// (detector.Ranker): a digest detector sees exact copies (score 1) and,
// with several lexicons, documents sharing some of their keys (the
// fraction shared), the documents Query finds and no others, at the cost
// of a Query.
func (d *Detector) Nearest(text string, k int) ([]detector.Match, error) { return d.e.Nearest(text, k) }

// Containers returns the near-duplicates of the live document id: every
// other live document sharing one of its signatures, including documents
// added after it, at most Config.MaxResults of them.
func (d *Detector) Containers(id string) ([]detector.Match, error) { return d.e.Containers(id) }

// Copies returns the other live documents whose analysed term sequence
// (after case folding, stopword removal and stemming: the exact-content
// digest) is that of the live document id, in ascending ID order. They
// match id with score 1 and are reported by Add and Containers only up to
// the cap; Copies lists them all, in O(c log c) for c copies. A document
// without terms has no copies (it matches nothing). It returns an error
// wrapping detector.ErrUnknownID or detector.ErrClosed.
func (d *Detector) Copies(id string) ([]string, error) {
	ids, err := d.e.Union("Copies", id, func(g uint32, f *features, ix engine.Index[features]) []uint32 {
		return baseOf(ix).sameContent(nil, g, f)
	})
	if err != nil {
		return nil, err
	}
	i, _ := slices.BinarySearch(ids, id)
	return slices.Delete(ids, i, i+1), nil
}

// Cluster returns the I-Match cluster of the live document id, sorted by ID
// and including id itself: the documents whose digest equals id's (Uyar 2009
// Fig. 2.4 step 7, "If there is a collision of digest values then the
// documents are similar"). With random sub-lexicons (and the exact-content
// key) a cluster is the connected component of digest collisions (Kołcz et
// al. 2004), so the relation is transitive. A document without signatures is
// alone in its cluster. Cluster time is O(size of the cluster · keys per
// document). The cluster is not capped.
func (d *Detector) Cluster(id string) ([]string, error) {
	return d.e.UnionGroups("Cluster", id, func(g uint32, groups *engine.Groups[features], ix engine.Index[features]) []uint32 {
		post := baseOf(ix).post
		seen := map[uint32]bool{g: true}
		out := []uint32{g}
		for i := 0; i < len(out); i++ {
			for _, k := range groups.Features(out[i]).keys {
				for _, o := range post[k] {
					if !seen[o] {
						seen[o] = true
						out = append(out, o)
					}
				}
			}
		}
		return out
	})
}

// Signature returns the signatures of the live document id, as [Signer.Sign]
// computed them when it was added (without the exact-content key).
func (d *Detector) Signature(id string) ([]Key, error) {
	var out []Key
	_, err := d.e.Union("Signature", id, func(_ uint32, f *features, _ engine.Index[features]) []uint32 {
		out = slices.Clone(f.keys[:lexiconKeys(f.keys)])
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Remove forgets the live document id, and uncounts it from the online IDF
// table the Detector owns.
func (d *Detector) Remove(id string) error { return d.e.Remove(id) }

// Len returns the number of live documents.
func (d *Detector) Len() int { return d.e.Len() }

// Close releases the index. It is idempotent and returns nil; later calls
// return an error wrapping detector.ErrClosed.
func (d *Detector) Close() error {
	err := d.e.Close()
	d.alg.pool.Close()
	return err
}
