package codet

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/internal/idftab"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
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
// order they took the lock (see Concurrency in the package doc). Its shell
// (IDs, locking, groups of exact copies, capped results, the snapshot
// framing) is the shared detector engine; the tree is its index.
type Detector struct {
	s   settings
	alg *algorithm
	eng *engine.Engine[features, [2]uint64]
}

// index is the corpus tree with everything it keeps of the documents: the
// engine's Index over codet's contents. One engine group is one content:
// the exact members of a tree group, or one near content ([CollapseNear]),
// or under [CollapseOff] one document. The engine calls its methods under
// its lock.
type index struct {
	s    settings
	alg  *algorithm
	v    engine.View[features]
	docs *engine.Set // v's
	// closed is set by Close: only the counters stay.
	closed bool
	// adding is set while Added evicts: the engine has registered the
	// document being added, which the index does not hold yet (live).
	adding bool

	// The detector's term IDs (the tree's labels): a vocabulary shared by
	// every worker's analyzer.
	vocab map[string]uint32 // term → its ID
	terms []string
	// epoch names the vocabulary (unique among the indexes of one
	// detector, renewed by every compaction): a worker whose epoch differs
	// drops its cache of term IDs. termsAt is the vocabulary size from
	// which the next removal compacts ([index.maybeCompact]).
	epoch     uint64
	termsAt   int
	termsKept int // vocabulary size after the last compaction

	// idf: a frozen table (a caller's or the reference table of the
	// language), a caller's table that is not frozen, or (nil) an online
	// one kept in df/nDocs.
	idf    *textproc.IDF
	frozen bool
	df     []int64 // online document frequencies by term ID
	nDocs  int64
	seen   []uint32 // per term ID: stamp of the last document counting it

	nodes     nodeStore
	freeNodes []uint32
	children  childTable

	groups     []group
	freeGroups []uint32
	bySig      map[[2]uint64]uint32

	nears     []nearContent
	freeNears []uint32
	nearBySig map[[2]uint64]uint32

	docSpans [][]uint32 // per dense index: sentence offsets (start, end pairs)
	docOrd   []uint64   // per dense index: position of its Add

	// Arrival order for the time window: queue[head:] holds the positions
	// of documents added, oldest first (entries of documents removed since
	// are skipped when reached).
	queue   []queued
	head    int
	stale   int // entries of queue[head:] whose document was removed
	nextOrd uint64

	// scanAll, when set (by tests), makes probe scan every visitor list
	// (prune.go).
	scanAll bool
	// copyLookups, when set (by tests), makes every lookup answer from a
	// private copy, as a full window's lookup does when its eviction
	// would compact the index (query.go).
	copyLookups bool
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
	return newDetector(cfg, nil, 0)
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
	return newDetector(cfg, idf, 0)
}

// newDetector builds a detector; extra raises its results' cap (for a
// private copy that answers one more than asked).
func newDetector(cfg Config, idf *textproc.IDF, extra int) (*Detector, error) {
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
	a := &algorithm{
		s:         s,
		pool:      newWorkers(tc),
		idf:       idf,
		callerIDF: caller,
		frozen:    idf != nil && idf.Frozen(),
	}
	maxRes := s.MaxResults
	if extra > 0 && maxRes < math.MaxInt {
		maxRes++
	}
	d := &Detector{s: s, alg: a}
	d.eng = engine.New[features, [2]uint64](engine.Spec{
		Name:         snapshotKind,
		Version:      snapshotVersion,
		Config:       s.Config,
		MaxTextBytes: s.MaxTextBytes,
		MaxResults:   maxRes,
		TablesNow:    a.tables,
	}, a)
	return d, nil
}

// algorithm is how codet reads a text for the engine: the analysis
// outside every lock, by a pooled worker (released after the commit or
// the lookup), and a fresh corpus tree for every index.
type algorithm struct {
	s    settings
	pool *workers
	idf  *textproc.IDF
	// callerIDF is the table given to NewWithIDF (nil for New), for the
	// snapshot header; tableFP caches the fingerprint of a frozen table.
	callerIDF *textproc.IDF
	tableFP   atomic.Uint64
	frozen    bool
	// epochs numbers the vocabularies of the detector's indexes.
	epochs atomic.Uint64
	// onAnalyze, when set (by tests), is called by every analysis.
	onAnalyze func()
}

// features is what the engine keeps of a document: during an Add or a
// lookup the worker holding its analysis and sequences, and the content it
// belongs to once known; a group's copy holds the content only.
type features struct {
	w    *worker
	ad   *textproc.Document
	text string // a lookup's, for a private copy (query.go)
	sig  [2]uint64
	// has: the text has a sequence (a sentence with a term).
	has bool
	// g, nr: the content, a tree group and (noGroup unless) its near
	// content.
	g, nr uint32
	// ev, during a lookup on a full window, is what Add would evict
	// first.
	ev *eviction
}

// Features analyses text on a pooled worker and, with frozen weights,
// builds its sequences there.
func (a *algorithm) Features(text string) features {
	w, err := a.pool.get()
	if err != nil { // New built an analyzer with the same Config
		panic(fmt.Sprintf("codet: no analyzer: %v", err))
	}
	if a.onAnalyze != nil {
		a.onAnalyze()
	}
	w.resolved = false
	ad := w.an.Analyze(text)
	f := features{w: w, ad: ad, text: text, g: noGroup, nr: noGroup}
	for _, sen := range ad.Sentences {
		if len(sen.Tokens) > 0 {
			f.has = true
			break
		}
	}
	if a.frozen {
		a.s.build(&w.buf, ad, w.frozen(a.idf))
		f.sig = w.buf.sig
	}
	return f
}

// CopyKey is the content signature: with online weights it is known only
// after [index.Added].
func (a *algorithm) CopyKey(f *features) ([2]uint64, bool) { return f.sig, f.has }

// Release puts the worker back in the pool.
func (a *algorithm) Release(f *features) {
	if f.w != nil {
		a.pool.put(f.w)
		f.w, f.ad, f.text = nil, nil, ""
	}
}

// Sections names the snapshot's sections (the index writes them).
func (a *algorithm) Sections() []string { return sectionNames[:] }

// EncodeGroup is unused: the index writes the whole snapshot.
func (a *algorithm) EncodeGroup(*snapshot.Enc, *features) {}

// DecodeGroup is unused: the index reads the whole snapshot.
func (a *algorithm) DecodeGroup(d *snapshot.Dec) features {
	d.Fail("codet: groups are read by the index")
	return features{}
}

// NewIndex returns an empty corpus tree.
func (a *algorithm) NewIndex() engine.Index[features] {
	return &index{
		s:         a.s,
		alg:       a,
		epoch:     a.epochs.Add(1),
		vocab:     map[string]uint32{},
		termsAt:   compactSlack,
		idf:       a.idf,
		frozen:    a.frozen,
		nodes:     makeNodeStore(1), // the virtual root
		children:  makeChildTable(0),
		bySig:     make(map[[2]uint64]uint32),
		nearBySig: make(map[[2]uint64]uint32),
	}
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
	case d.alg.idf == nil:
		return "online"
	case d.alg.frozen:
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
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) { return d.eng.Add(doc) }

// locked calls fn with the index under the engine's exclusive lock (nil
// after Close is never passed: fn is not called then, and locked reports
// false).
func (d *Detector) locked(fn func(x *index)) bool {
	ran := false
	d.eng.Locked(func(ix engine.Index[features]) {
		if x, ok := ix.(*index); ok && !x.closed {
			fn(x)
			ran = true
		}
	})
	return ran
}

// inspect calls fn with the index under the engine's read lock (after
// Close, with the closed index, which keeps its counters).
func (d *Detector) inspect(fn func(x *index)) {
	d.eng.Inspect(func(ix engine.Index[features], _ int) {
		if x, ok := ix.(*index); ok {
			fn(x)
		}
	})
}

// Prepare is the part of an Add outside the exclusive lock that reads the
// tree, under the shared lock, with frozen weights: the sequences' known
// terms labelled, and spare nodes and visitor entries.
func (d *index) Prepare(f *features) {
	if !d.frozen || f.w == nil || f.w.resolved { // resolved: prepared before
		return
	}
	w := f.w
	w.spareVisitors()
	d.resolveTerms(w)
	if w.chunk == nil && d.nodes.needsChunk(len(w.buf.terms)) {
		w.chunk = newChunk()
	}
}

// Attach records the engine's view of the documents.
func (d *index) Attach(v engine.View[features]) {
	d.v, d.docs = v, v.Set()
}

// Added is the part of Add under the lock up to the group lookup, for
// the document idx: the window's evictions, the sequences with the
// detector's term IDs in d.buf, the arrival position and sentence
// offsets, and the content an exact copy joins (f.g, f.nr). A document
// that will not reach Insert (no sequence, or a copy of a content with
// live members) ends its Add here.
func (d *index) Added(idx uint32, f *features) {
	w := f.w
	d.stats.Added++
	if int(idx) >= len(d.docOrd) {
		d.docSpans = grow(d.docSpans, int(idx)+1)
		d.docOrd = grow(d.docOrd, int(idx)+1)
	}
	d.docOrd[idx] = d.nextOrd // before evicting: the queue's entries of idx are stale
	// Window: the oldest documents leave before the new one is scored.
	d.adding = true
	for d.s.Window > 0 && d.live() >= d.s.Window && d.head < len(d.queue) {
		d.evictOldest()
	}
	d.adding = false
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
			d.countOnline(w, f.ad)
		}
		d.s.build(&w.buf, f.ad, w.locked(d))
	}
	d.globalize(w)
	if w.chunk != nil && d.nodes.spare == nil {
		d.nodes.spare, w.chunk = w.chunk, nil
	}
	d.buf = &w.buf
	d.vis, d.visUsed = w.vis, 0
	d.queue = append(d.queue, queued{ord: d.nextOrd, idx: idx})
	d.nextOrd++
	d.docSpans[idx] = append(d.docSpans[idx][:0], d.buf.spans...)
	f.sig, f.g, f.nr = d.buf.sig, noGroup, noGroup
	if d.buf.n() == 0 {
		d.endAdd(w) // no indexable terms: matches nothing
		return
	}
	if d.s.Collapse != CollapseOff {
		if g, ok := d.bySig[f.sig]; ok {
			d.stats.Collapsed++
			f.g = g
			if d.groups[g].eg != noGroup {
				d.endAdd(w)
			}
			return
		}
		if nr, ok := d.nearBySig[f.sig]; ok {
			d.stats.Collapsed++
			d.stats.NearCollapsed++
			f.g, f.nr = d.nears[nr].g, nr
			d.endAdd(w)
			return
		}
	}
}

// live returns the number of live documents the index holds: the
// engine's, less one being added.
func (d *index) live() int {
	if d.adding {
		return d.docs.Len() - 1
	}
	return d.docs.Len()
}

// Removed drops what the index keeps of the removed document idx.
func (d *index) Removed(idx uint32) {
	d.docSpans[idx] = nil
	d.stale++
	d.compactQueue()
}

// Find returns the engine group of the content f joins.
func (d *index) Find(f *features, _ *engine.Groups[features]) (uint32, bool) {
	eg := uint32(noGroup)
	switch {
	case f.nr != noGroup:
		eg = d.nears[f.nr].eg
	case f.g != noGroup:
		eg = d.groups[f.g].eg
	}
	return eg, eg != noGroup
}

// Insert is a content's first live member, the engine group eg of
// features f: a snapshot's or an exact copy's content is known; a new one
// is probed, and becomes a near content or a group of the tree.
func (d *index) Insert(eg uint32, f *features) {
	w := f.w
	f.w, f.ad, f.text = nil, nil, ""
	if w != nil {
		defer d.endAdd(w)
	}
	switch {
	case f.nr != noGroup:
		d.nears[f.nr].eg = eg
		return
	case f.g != noGroup:
		d.groups[f.g].eg = eg
		return
	}
	sig := d.buf.sig
	scs := d.probe()
	if d.s.Collapse == CollapseNear {
		if r, fwd, rev, ok := d.nearest(scs); ok {
			d.stats.Collapsed++
			d.stats.NearCollapsed++
			f.g, f.nr = r, d.newNear(r, sig, fwd, rev)
			d.nears[f.nr].eg = eg
			return
		}
	}
	g := d.newGroup()
	gr := &d.groups[g]
	gr.sig = sig
	gr.scs = scs
	gr.eg = eg
	f.g = g
	d.tally[g].scs = scs
	d.tally[g].seqs = uint32(d.buf.n())
	d.commit(g)
	d.decide(g)
	if d.s.Collapse != CollapseOff {
		if _, taken := d.bySig[sig]; !taken {
			d.bySig[sig] = g
		}
	}
}

// Delete is the last member of a content leaving: a near content goes,
// and a tree group with neither members nor near contents left leaves
// the tree.
func (d *index) Delete(_ uint32, f *features) {
	g := f.g
	if nr := f.nr; nr != noGroup {
		x := &d.nears[nr]
		gr := &d.groups[g]
		gr.near = deleteFirst(gr.near, nr)
		if s, ok := d.nearBySig[x.sig]; ok && s == nr {
			delete(d.nearBySig, x.sig)
		}
		d.nears[nr] = nearContent{}
		d.freeNears = append(d.freeNears, nr)
	} else {
		d.groups[g].eg = noGroup
	}
	d.forget(g)
}

// Close drops the tree, keeping the counters (Stats).
func (d *index) Close() {
	stats := d.stats
	*d = index{s: d.s, alg: d.alg, v: d.v, docs: d.docs, closed: true, stats: stats}
	d.alg.pool.drop()
}

// scratchCap is the capacity above which per-Add scratch is dropped after
// use, so that one outlier document does not keep its size for good.
const scratchCap = 1 << 16

// endAdd drops the document's sequences and outsized scratch, and takes
// the visitor entries newChild used from w's spares.
func (d *index) endAdd(w *worker) {
	d.buf = nil
	w.vis = w.vis[d.visUsed:]
	d.vis, d.visUsed = nil, 0
	d.alg.pool.vocab.Store(int64(len(d.terms)))
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
func (d *index) nextGen() {
	d.gen++
	if d.gen == 0 { // wrapped: reset every stamp
		for i := range d.tally {
			d.tally[i].gen = 0
		}
		clear(d.seen)
		d.gen = 1
	}
}

// Stats returns the index's counters and sizes. It is O(nodes). After
// Close the sizes are zero and the counters are kept.
func (d *Detector) Stats() Stats {
	var st Stats
	d.inspect(func(x *index) {
		st = x.stats
		if x.closed {
			st.Edges = 0
			return // a closed detector holds nothing
		}
		st.Docs = x.docs.Len()
		st.Groups = len(x.groups) - len(x.freeGroups)
		st.Near = len(x.nears) - len(x.freeNears)
		st.Nodes = x.nodes.len() - 1 - len(x.freeNodes)
		st.Terms = len(x.terms)
		for i := 1; i < x.nodes.len(); i++ {
			st.Visitors += len(x.nodes.at(uint32(i)).vis)
		}
	})
	return st
}

// Close releases the index. It is idempotent and returns nil; every later
// call but Len, Stats and Close returns an error wrapping
// [detector.ErrClosed].
func (d *Detector) Close() error { return d.eng.Close() }

// Len returns the number of live documents, 0 after Close.
func (d *Detector) Len() int { return d.eng.Len() }
