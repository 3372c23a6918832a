package codet

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/internal/idftab"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Stats describes the index. Counters accumulate over the detector's life;
// sizes are current.
type Stats struct {
	// Docs is the number of live documents; Groups the number of distinct
	// contents among them (documents in the tree).
	Docs, Groups int
	// Nodes is the number of live tree nodes (root excluded); Visitors the
	// number of visitor entries in them, the samples deactivated nodes keep
	// included.
	Nodes, Visitors int
	// Deactivated counts node deactivations (Alg. 2).
	Deactivated int
	// Added counts documents added; Collapsed those represented by a live
	// content instead of being inserted, NearCollapsed those of them
	// represented by a near-duplicate ([CollapseNear]).
	Added, Collapsed, NearCollapsed int
	// Near is the number of live near-duplicate contents represented by a
	// group instead of being in the tree ([CollapseNear]).
	Near int
	// Increments counts IncreaseSimilarity calls (Alg. 3), one per
	// distinct node and earlier visitor scored (for a list left unscanned,
	// per visitor that could be related); Candidates the distinct earlier
	// groups each new document was scored against, summed ("calculated
	// similarity values", Varol 2012 §5.2.3).
	Increments, Candidates int
	// Edges is the number of stored containment relations between groups.
	Edges int
	// Terms is the size of the detector's vocabulary, terms of removed
	// documents not yet compacted away included.
	Terms int
}

// Detector is a CoDet corpus tree over a stream of documents. It is safe
// for concurrent use: concurrent Adds answer as sequential Adds in the
// order they took the lock (see Concurrency in the package doc).
type Detector struct {
	mu   sync.RWMutex
	s    settings
	docs *engine.Set
	pool *workers

	// The detector's term IDs (the tree's labels): a vocabulary shared by
	// every worker's analyzer.
	vocab vocabTable
	terms []string
	// epoch counts vocabulary compactions: a worker whose epoch differs
	// drops its cache of term IDs. termsAt is the vocabulary size from
	// which the next removal compacts ([Detector.maybeCompact]).
	epoch     uint64
	termsAt   int
	termsKept int // vocabulary size after the last compaction

	// idf: a frozen table (a caller's or the reference table of the
	// language), a caller's table that is not frozen, or (nil) an online
	// one kept in df/nDocs.
	idf    *textproc.IDF
	frozen bool
	// callerIDF is the table given to NewWithIDF (nil for New), for the
	// snapshot header; tableFP caches the fingerprint of a frozen table.
	callerIDF *textproc.IDF
	tableFP   atomic.Uint64
	df        []int64 // online document frequencies by term ID
	nDocs     int64
	seen      []uint32 // per term ID: stamp of the last document counting it

	nodes     nodeStore
	freeNodes []uint32
	children  childTable

	groups     []group
	freeGroups []uint32
	bySig      map[[2]uint64]uint32

	nears     []nearContent
	freeNears []uint32
	nearBySig map[[2]uint64]uint32

	docGroup []uint32   // per dense index: its group, or noGroup
	docNear  []uint32   // per dense index: its near content, or noGroup
	docSpans [][]uint32 // per dense index: sentence offsets (start, end pairs)
	docOrd   []uint64   // per dense index: position of its Add
	// per dense index: its position in its member heap, and with
	// CollapseNear in its group's nearDocs heap (members.go)
	docPos, docPos2 []uint32

	// Arrival order for the time window: queue[head:] holds the positions
	// of documents added, oldest first (entries of documents removed since
	// are skipped when reached).
	queue   []queued
	head    int
	stale   int // entries of queue[head:] whose document was removed
	nextOrd uint64

	// onAnalyze, when set (by tests), is called by every analysis;
	// onInsert, under the lock, by every Add whose ID was accepted.
	onAnalyze func()
	onInsert  func(id string)
	// scanAll, when set (by tests), makes probe scan every visitor list
	// (prune.go).
	scanAll bool
	// rank, during a Nearest, makes probe keep in ranked every group it
	// touched, before viable drops those no rule can relate; aside is the
	// bound of the CS the active lists the last probe set aside can add to
	// a pair (0: none set aside); rankRes is Nearest's scratch
	// (nearest.go).
	rank    bool
	ranked  []uint32
	aside   float64
	rankRes []int

	// ev, during a Query with a full window, is what Add would evict
	// first (query.go).
	ev *eviction

	// per-Add scratch, under the lock
	buf *seqBuf // the sequences of the document being added
	// vis are the adding worker's spare visitor entries, of which
	// newChild used the first visUsed
	vis     []visitor
	visUsed int
	tally   []tally // per group, indexed by group
	gen     uint32
	touched []uint32
	visits  []uint32 // node of each visit of the last probe, 0 if absent
	// walk's scratch, and the sum of the slots it read ahead (kept so
	// the reads stay)
	descent descent
	sink    uint32
	hits    []hit // visits of existing nodes by the last probe
	// distinct nodes of the last probe, with those set aside (prune.go)
	distinct []dnode
	counts   []uint32
	marks    []uint64    // a bit per group (prune.go), zero between uses
	created  hashtab.Map // nodes created by the current commit, by pairKey
	fresh    []freshNode // the nodes commit creates, in order
	// refCommit, when set (by tests), replaces the body of commit: the
	// reference walk that creates and enters one node after the other.
	refCommit func(g uint32)
	order     []int
	cur       Stats
	stats     Stats
	work      workCounters
}

// New returns a detector for cfg, weighing terms as Config.IDF says: by
// the frozen reference table of the language where the library has one
// for the text pipeline, otherwise online, log(1 + N/df) (the smoothed
// form of Varol 2012 Eq. 2.1) with each document counted once, when
// added. New returns an error wrapping [detector.ErrInvalidConfig] if cfg
// is invalid.
func New(cfg Config) (*Detector, error) {
	return newDetector(cfg, nil)
}

// NewWithIDF returns a detector for cfg that weighs terms with idf, a
// caller's reference table (Varol 2012 §5.1.3), whatever Config.IDF says;
// a table that is not frozen is read as it is at each Add. It returns an
// error wrapping [detector.ErrInvalidConfig] if cfg is invalid or idf is
// nil.
func NewWithIDF(cfg Config, idf *textproc.IDF) (*Detector, error) {
	if idf == nil {
		return nil, fmt.Errorf("codet: NewWithIDF: nil IDF table: %w", detector.ErrInvalidConfig)
	}
	return newDetector(cfg, idf)
}

func newDetector(cfg Config, idf *textproc.IDF) (*Detector, error) {
	caller := idf
	s, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	tc := s.tc
	if _, err := textproc.NewAnalyzer(tc); err != nil {
		return nil, fmt.Errorf("codet: %v: %w", err, detector.ErrInvalidConfig)
	}
	if idf == nil && s.IDF == IDFReference && idftab.Matches(tc) {
		idf, _ = idftab.For(tc.Language)
	}
	d := &Detector{
		s:         s,
		docs:      engine.NewSet("codet", s.MaxTextBytes),
		pool:      newWorkers(tc),
		vocab:     makeVocabTable(0),
		termsAt:   compactSlack,
		idf:       idf,
		callerIDF: caller,
		frozen:    idf != nil && idf.Frozen(),
		nodes:     makeNodeStore(1), // the virtual root
		children:  makeChildTable(0),
		bySig:     make(map[[2]uint64]uint32),
		nearBySig: make(map[[2]uint64]uint32),
	}
	return d, nil
}

// Config returns the effective configuration: the one the detector was
// built with, every zero field that has a default set to it (so that
// New(d.Config()) builds a detector that behaves the same).
func (d *Detector) Config() Config { return d.s.Config }

// Weights reports how the detector weighs terms: "reference" (a frozen
// table: the language's reference table or a caller's), "table" (a
// caller's table that is not frozen) or "online".
func (d *Detector) Weights() string {
	switch {
	case d.idf == nil:
		return "online"
	case d.frozen:
		return "reference"
	}
	return "table"
}

// Add analyses doc, scores it against the tree and inserts it (Varol 2012
// Alg. 1-3), and returns the live documents that contain it, strongest
// first, with Score = CS(C, doc)/SCS(doc) > ETL; the earlier documents doc
// contains see it in their Containers. Of several Adds of one new ID at
// once exactly one succeeds; the others return an error wrapping
// [detector.ErrDuplicateID]. Add costs O(L + s·PSC·DT·NodeLimit) for a
// text of L bytes with s sentences, and a copy of a live content
// ([CollapseExact]) O(L + log N) for N copies, plus the output.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	// The cheap checks (closed, empty ID, size, duplicate ID) come first,
	// so a text that will be refused is never analysed; they are made
	// again under the lock, where another Add may have won the ID.
	d.mu.RLock()
	err := d.docs.Check(doc)
	d.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	w, err := d.pool.get()
	if err != nil {
		return nil, fmt.Errorf("codet: Add(%q): %v: %w", doc.ID, err, detector.ErrInvalidConfig)
	}
	defer d.pool.put(w)
	ad := d.prepare(w, doc)
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.addLocked(w, ad, doc)
}

// prepare is the part of Add outside the exclusive lock: the analysis
// and, with frozen weights, the sequences with their known terms
// labelled, and spare nodes and visitor entries.
func (d *Detector) prepare(w *worker, doc detector.Doc) *textproc.Document {
	ad := d.analyze(w, doc)
	if d.frozen {
		w.spareVisitors()
		d.mu.RLock()
		if !d.docs.Closed() {
			d.resolveTerms(w)
			if w.chunk == nil && d.nodes.needsChunk(len(w.buf.terms)) {
				w.chunk = newChunk()
			}
		}
		d.mu.RUnlock()
	}
	return ad
}

// analyze is the part of Add outside the lock: the text analysis, and
// with frozen weights the sequences, into the worker.
func (d *Detector) analyze(w *worker, doc detector.Doc) *textproc.Document {
	if d.onAnalyze != nil {
		d.onAnalyze()
	}
	w.resolved = false
	ad := w.an.Analyze(doc.Text)
	if d.frozen {
		d.s.build(&w.buf, ad, w.frozen(d.idf))
	}
	return ad
}

// addLocked is the part of Add under the lock.
func (d *Detector) addLocked(w *worker, ad *textproc.Document, doc detector.Doc) ([]detector.Match, error) {
	if err := d.docs.Check(doc); err != nil {
		return nil, err
	}
	// Window: the oldest documents leave before the new one is scored.
	for d.s.Window > 0 && d.docs.Len() >= d.s.Window && d.head < len(d.queue) {
		d.evictOldest()
	}
	d.nextGen()
	if w.epoch != d.epoch { // the vocabulary was compacted
		clear(w.gid)
		w.epoch = d.epoch
		if w.resolved { // by the IDs of before: start again from the local ones
			d.work.stale++
			w.resolved = false
			copy(w.buf.terms, w.local)
		}
	}
	if !d.frozen {
		if d.idf == nil {
			d.countOnline(w, ad)
		}
		d.s.build(&w.buf, ad, w.locked(d))
	}
	d.globalize(w)
	if w.chunk != nil && d.nodes.spare == nil {
		d.nodes.spare, w.chunk = w.chunk, nil
	}
	d.buf = &w.buf
	d.vis, d.visUsed = w.vis, 0
	defer d.endAdd(w)
	return d.insert(doc)
}

// scratchCap is the capacity above which per-Add scratch is dropped after
// use, so that one outlier document does not keep its size for good.
const scratchCap = 1 << 16

// endAdd drops the document's sequences and outsized scratch, and takes
// the visitor entries newChild used from w's spares.
func (d *Detector) endAdd(w *worker) {
	d.buf = nil
	w.vis = w.vis[d.visUsed:]
	d.vis, d.visUsed = nil, 0
	d.pool.vocab.Store(int64(len(d.terms)))
	if cap(d.visits) > scratchCap || cap(d.hits) > scratchCap || d.created.Slots() > 2*scratchCap {
		d.visits, d.hits, d.created = nil, nil, hashtab.Map{}
	}
	if cap(d.touched) > scratchCap || cap(d.order) > scratchCap {
		d.touched, d.order = nil, nil
	}
	if cap(d.distinct) > scratchCap || cap(d.counts) > scratchCap {
		d.distinct, d.counts = nil, nil
	}
	if cap(d.descent.at) > scratchCap || cap(d.descent.live) > scratchCap || cap(d.fresh) > scratchCap {
		d.descent, d.fresh = descent{}, nil
	}
}

// nextGen starts a new scratch generation for the document being added.
func (d *Detector) nextGen() {
	d.gen++
	if d.gen == 0 { // wrapped: reset every stamp
		for i := range d.tally {
			d.tally[i].gen = 0
		}
		clear(d.seen)
		d.gen = 1
	}
}

// insert is Add under the lock for the document whose sequences are in
// d.buf, with detector term IDs.
func (d *Detector) insert(doc detector.Doc) ([]detector.Match, error) {
	idx, err := d.docs.Add(doc)
	if err != nil {
		return nil, err
	}
	if d.onInsert != nil {
		d.onInsert(doc.ID)
	}
	d.stats.Added++
	if int(idx) >= len(d.docGroup) {
		d.docGroup = grow(d.docGroup, int(idx)+1)
		d.docSpans = grow(d.docSpans, int(idx)+1)
		d.docOrd = grow(d.docOrd, int(idx)+1)
		d.docNear = grow(d.docNear, int(idx)+1)
		d.docPos = grow(d.docPos, int(idx)+1)
		if d.s.Collapse == CollapseNear {
			d.docPos2 = grow(d.docPos2, int(idx)+1)
		}
	}
	d.docOrd[idx] = d.nextOrd
	d.queue = append(d.queue, queued{ord: d.nextOrd, idx: idx})
	d.nextOrd++
	d.docGroup[idx] = noGroup
	d.docNear[idx] = noGroup
	d.docSpans[idx] = append(d.docSpans[idx][:0], d.buf.spans...)
	if d.buf.n() == 0 {
		return []detector.Match{}, nil // no indexable terms: matches nothing
	}
	sig := d.buf.sig
	if d.s.Collapse != CollapseOff {
		if g, ok := d.bySig[sig]; ok {
			d.stats.Collapsed++
			d.join(g, idx)
			return d.matches(idx), nil
		}
		if nr, ok := d.nearBySig[sig]; ok {
			d.stats.Collapsed++
			d.stats.NearCollapsed++
			d.joinNear(nr, idx)
			return d.matches(idx), nil
		}
	}
	scs := d.probe()
	if d.s.Collapse == CollapseNear {
		if r, fwd, rev, ok := d.nearest(scs); ok {
			d.stats.Collapsed++
			d.stats.NearCollapsed++
			nr := d.newNear(r, sig, fwd, rev)
			d.joinNear(nr, idx)
			return d.matches(idx), nil
		}
	}
	g := d.newGroup()
	gr := &d.groups[g]
	gr.sig = sig
	gr.scs = scs
	d.tally[g].scs = scs
	d.tally[g].seqs = uint32(d.buf.n())
	d.join(g, idx)
	d.commit(g)
	d.decide(g)
	if d.s.Collapse != CollapseOff {
		if _, taken := d.bySig[sig]; !taken {
			d.bySig[sig] = g
		}
	}
	return d.matches(idx), nil
}

// Stats returns the index's counters and sizes. It is O(nodes). After
// Close the sizes are zero and the counters are kept.
func (d *Detector) Stats() Stats {
	d.mu.RLock()
	defer d.mu.RUnlock()
	st := d.stats
	if d.docs.Closed() {
		st.Edges = 0
		return st // a closed detector holds nothing
	}
	st.Docs = d.docs.Len()
	st.Groups = len(d.groups) - len(d.freeGroups)
	st.Near = len(d.nears) - len(d.freeNears)
	st.Nodes = d.nodes.len() - 1 - len(d.freeNodes)
	st.Terms = len(d.terms)
	for i := 1; i < d.nodes.len(); i++ {
		st.Visitors += len(d.nodes.at(uint32(i)).vis)
	}
	return st
}

// Close releases the index. It is idempotent and returns nil; every later
// call but Len, Stats and Close returns an error wrapping
// [detector.ErrClosed].
func (d *Detector) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.docs.Close() {
		d.nodes, d.freeNodes, d.children = nodeStore{}, nil, childTable{}
		d.groups, d.freeGroups, d.bySig = nil, nil, nil
		d.nears, d.freeNears, d.nearBySig, d.docNear = nil, nil, nil, nil
		d.docGroup, d.docSpans, d.docOrd, d.queue = nil, nil, nil, nil
		d.docPos, d.docPos2 = nil, nil
		d.tally, d.touched, d.created, d.marks = nil, nil, hashtab.Map{}, nil
		d.vocab, d.terms, d.df, d.seen = vocabTable{}, nil, nil, nil
		d.pool.drop()
	}
	return nil
}

// Len returns the number of live documents, 0 after Close.
func (d *Detector) Len() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.docs.Len()
}
