package codet

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// Snapshot layout, version 1 (docs/snapshot.md in the repository has the
// framing). The header's Config is the effective Config; its Tables hold
// the fingerprint of the idf table the detector weighs terms with, when
// it has one: "idf" for a caller's table (NewWithIDF), "reference idf"
// for the embedded reference table of the language (New); online weights
// have none. Five sections follow, u = uvarint:
//
//	"state":  nextPosition:u  termsKept:u  deactivated:u  added:u
//	          collapsed:u  nearCollapsed:u  increments:u  candidates:u
//	"terms":  count, then the vocabulary in term-ID order, str each (terms
//	          no live node holds any more included, until compaction drops
//	          them); with online weights then N:u and df:u per term
//	"docs":   count, then per live document in arrival order:
//	            id:str  position:u (strictly increasing)
//	            spans: count (even), u each (sentence start, end offsets)
//	"nodes":  the free list (count, index:u each, in its order), the
//	          count of live nodes (the array holds the root, the free and
//	          the live nodes), then per live node in index order:
//	            parent:u  term:u  active:bool
//	            visitors: count, group:u each, in arrival order
//	"groups": the free list (count, index:u each, in its order), the count
//	          of live groups, then per live group in index order:
//	            members: count, document:u each (its index in "docs"),
//	                     ascending by ID (in memory a heap by ID)
//	            scs:f64  signature:u64 u64
//	            sequences: count, then per sequence end node:u  sentence:u
//	            containers: count, then group:u  score:f64  near:bool each,
//	                        in decision order
//	            near contents ([CollapseNear]): count, then each:
//	              members (as above)  fwd:f64  rev:f64  signature:u64 u64
//	              sequences: count, then per sequence sentence:u and its
//	                         terms (count, term:u each)
//
// Every later answer depends on the arrival order (the time window, the
// order of visitor lists and the samples of deactivated nodes), on the
// online statistics, and through the order of floating-point sums on the
// numbering of nodes, groups and terms, so these are stored as they are:
// the node and group arrays with their free lists, the vocabulary in ID
// order. What is rebuilt on read: the children map (from the nodes'
// parents and terms), node depths, reference counts and visitor counts
// (from the groups' sequence ends), the reverse relation lists, the
// near-duplicate lists of each group, the signature maps, and the arrival
// queue. The trailer counts the live documents.
//
// The tree is stored as it is rather than rebuilt by inserting the
// documents again: re-insertion would not reproduce the deactivations and
// relations decided while documents now removed were live, nor the scores
// of online weights at each insertion. Per live document a snapshot holds
// its ID, position and sentence offsets, plus its share of the tree and
// relations: 346 bytes per document on 2,000 Reuters articles
// (TestSnapshotSize; docs/codet.md).
const (
	snapshotKind    = "codet"
	snapshotVersion = 1
)

// header returns the snapshot header of d: its effective Config and the
// fingerprint of its idf table.
func (d *Detector) header() snapshot.Header {
	h := snapshot.Header{Kind: snapshotKind, KindVersion: snapshotVersion, Config: d.s.Config}
	if d.idf == nil {
		return h
	}
	name := "reference idf"
	if d.callerIDF != nil {
		name = "idf"
	}
	fp := d.tableFP.Load()
	if fp == 0 || !d.frozen {
		fp = d.idf.Fingerprint() | 1 // 0 marks "not computed"
		if d.frozen {
			d.tableFP.Store(fp)
		}
	}
	h.Tables = map[string]uint64{name: fp}
	return h
}

// sectionNames are the sections of a snapshot, in order.
var sectionNames = [...]string{"state", "terms", "docs", "nodes", "groups"}

// WriteTo writes a snapshot of the live documents to w and returns the
// bytes written: their IDs, arrival positions and sentence offsets, the
// corpus tree, the content groups with their relations, the vocabulary
// and the online document frequencies, not their texts (see the layout
// above; per document, its ID, a few bytes of position and membership
// and its sentence offsets, plus its share of the tree). The sections
// are encoded under a read lock, so the snapshot is consistent and
// concurrent Adds and Removes are either wholly in it or wholly not; w is
// written after the lock is released. It returns an error wrapping
// detector.ErrClosed after Close, or the error of w.
func (d *Detector) WriteTo(w io.Writer) (int64, error) {
	d.mu.RLock()
	if d.docs.Closed() {
		d.mu.RUnlock()
		return 0, fmt.Errorf("codet: WriteTo: %w", detector.ErrClosed)
	}
	secs, n := d.encodeLocked()
	h := d.header()
	d.mu.RUnlock()
	sw := snapshot.NewWriter(w, h)
	for i, name := range sectionNames {
		sw.Section(name, secs[i])
	}
	return sw.Finish(uint64(n))
}

// encodeLocked returns the payloads of the sections and the number of
// live documents. The caller holds the lock.
func (d *Detector) encodeLocked() (secs [len(sectionNames)][]byte, n int) {
	var e snapshot.Enc
	st := d.stats
	for _, x := range []uint64{d.nextOrd, uint64(d.termsKept), uint64(st.Deactivated), uint64(st.Added),
		uint64(st.Collapsed), uint64(st.NearCollapsed), uint64(st.Increments), uint64(st.Candidates)} {
		e.Uvarint(x)
	}
	secs[0], e = e.B, snapshot.Enc{}

	e.Int(len(d.terms))
	for _, t := range d.terms {
		e.String(t)
	}
	if d.idf == nil {
		e.Uvarint(uint64(d.nDocs))
		for t := range d.terms {
			var df int64
			if t < len(d.df) {
				df = d.df[t]
			}
			e.Uvarint(uint64(df))
		}
	}
	secs[1], e = e.B, snapshot.Enc{}

	// Live documents in arrival order; pos maps a dense index to its
	// place in that order.
	pos := make([]uint32, d.docs.Cap())
	e.Int(d.docs.Len())
	k := uint32(0)
	for _, q := range d.queue[d.head:] {
		if !d.docs.Live(q.idx) || d.docOrd[q.idx] != q.ord {
			continue
		}
		pos[q.idx] = k
		k++
		e.String(d.docs.ID(q.idx))
		e.Uvarint(q.ord)
		sp := d.docSpans[q.idx]
		e.Int(len(sp))
		for _, x := range sp {
			e.Uvarint(uint64(x))
		}
	}
	secs[2], e = e.B, snapshot.Enc{}

	encList(&e, d.freeNodes)
	e.Int(len(d.nodes) - 1 - len(d.freeNodes))
	for i := 1; i < len(d.nodes); i++ {
		nd := &d.nodes[i]
		if nd.refs == 0 {
			continue // free
		}
		e.Uvarint(uint64(nd.parent))
		e.Uvarint(uint64(nd.term))
		e.Bool(nd.active)
		e.Int(len(nd.vis))
		for _, v := range nd.vis {
			e.Uvarint(uint64(v.g))
		}
	}
	secs[3], e = e.B, snapshot.Enc{}

	members := func(ms []uint32) {
		e.Int(len(ms))
		for _, m := range d.byID(ms) {
			e.Uvarint(uint64(pos[m]))
		}
	}
	encList(&e, d.freeGroups)
	e.Int(len(d.groups) - len(d.freeGroups))
	for g := range d.groups {
		gr := &d.groups[g]
		if len(gr.ends) == 0 {
			continue // free
		}
		members(gr.members)
		e.F64(gr.scs)
		e.U64(gr.sig[0])
		e.U64(gr.sig[1])
		e.Int(len(gr.ends))
		for k, end := range gr.ends {
			e.Uvarint(uint64(end))
			e.Uvarint(uint64(gr.sent[k]))
		}
		e.Int(len(gr.containers))
		for _, c := range gr.containers {
			e.Uvarint(uint64(c.g))
			e.F64(c.score)
			e.Bool(c.near)
		}
		e.Int(len(gr.near))
		for _, nr := range gr.near {
			x := &d.nears[nr]
			members(x.members)
			e.F64(x.fwd)
			e.F64(x.rev)
			e.U64(x.sig[0])
			e.U64(x.sig[1])
			e.Int(len(x.sent))
			for k, s := range x.sent {
				e.Uvarint(uint64(s))
				encList(&e, x.terms[x.off[k]:x.off[k+1]])
			}
		}
	}
	secs[4] = e.B
	return secs, d.docs.Len()
}

// encList writes a count and the values.
func encList(e *snapshot.Enc, xs []uint32) {
	e.Int(len(xs))
	for _, x := range xs {
		e.Uvarint(uint64(x))
	}
}

// ReadFrom loads a snapshot written by WriteTo into d, which must be empty
// and made by the same constructor with the same Config and the same idf
// table (the snapshot identifies it by fingerprint), and returns the
// bytes read. It reads and checks the whole snapshot and builds a fresh
// index before it installs it, so on any error d stays as it was.
// Loading costs the bytes read plus the rebuilding of the children map,
// the reference and visitor counts (one walk up the tree per stored
// sequence) and the reverse relations; no text is analysed. The loaded
// detector answers every later call as the saved one would, including
// its online weights, its time window and Stats' counters.
//
// It returns an error wrapping detector.ErrClosed after Close, and one
// wrapping detector.ErrSnapshot for a d that is not empty and for input it
// cannot load: not a CoDet snapshot of this layout, a Config or idf table
// differing from d's (the error names the field or the table), a damaged
// or truncated stream.
func (d *Detector) ReadFrom(r io.Reader) (int64, error) {
	if err := d.readable(); err != nil {
		return 0, err
	}
	d.mu.RLock()
	h := d.header()
	d.mu.RUnlock()
	fail := func(err error) (int64, error) { return 0, fmt.Errorf("codet: ReadFrom: %w", err) }
	sr, err := snapshot.NewReader(r, h)
	if err != nil {
		return fail(err)
	}
	var secs [len(sectionNames)][]byte
	for i, name := range sectionNames {
		if secs[i], err = sr.Section(name); err != nil {
			return fail(err)
		}
	}
	docs, n, err := sr.Finish()
	if err != nil {
		return fail(err)
	}
	fresh, err := newDetector(d.s.Config, d.callerIDF)
	if err != nil {
		return fail(err)
	}
	if err := fresh.load(secs, docs); err != nil {
		return fail(err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.emptyLocked(); err != nil {
		return 0, err
	}
	d.install(fresh)
	return n, nil
}

// readable returns the error ReadFrom gives a closed or non-empty d.
func (d *Detector) readable() error {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.emptyLocked()
}

func (d *Detector) emptyLocked() error {
	switch {
	case d.docs.Closed():
		return fmt.Errorf("codet: ReadFrom: %w", detector.ErrClosed)
	case d.docs.Len() > 0:
		return fmt.Errorf("codet: ReadFrom into a detector with %d documents: %w", d.docs.Len(), detector.ErrSnapshot)
	}
	return nil
}

// install moves the index of f, freshly loaded, into d. The caller holds
// d's lock; f is not used again.
func (d *Detector) install(f *Detector) {
	d.docs = f.docs
	d.vocab, d.terms = f.vocab, f.terms
	d.epoch++ // the workers' caches of term IDs are for the old vocabulary
	d.termsAt, d.termsKept = f.termsAt, f.termsKept
	d.df, d.nDocs, d.seen = f.df, f.nDocs, f.seen
	d.nodes, d.freeNodes, d.children = f.nodes, f.freeNodes, f.children
	d.groups, d.freeGroups, d.bySig = f.groups, f.freeGroups, f.bySig
	d.nears, d.freeNears, d.nearBySig = f.nears, f.freeNears, f.nearBySig
	d.docGroup, d.docNear, d.docSpans, d.docOrd = f.docGroup, f.docNear, f.docSpans, f.docOrd
	d.docPos, d.docPos2 = f.docPos, f.docPos2
	d.queue, d.head, d.stale, d.nextOrd = f.queue, f.head, f.stale, f.nextOrd
	d.acc, d.sat, d.stamp, d.gen = f.acc, f.sat, f.stamp, f.gen
	d.stats = f.stats
	d.pool.vocab.Store(int64(len(d.terms)))
}

// load fills f, a fresh detector, from the payloads of the sections and
// the trailer's document count, checking that they are canonical (what
// it accepts, encodeLocked writes back byte for byte) and consistent (no
// later call can fail or panic on what it built).
func (f *Detector) load(secs [len(sectionNames)][]byte, docs uint64) error {
	l := loader{f: f}
	steps := []func(*snapshot.Dec){l.state, l.terms, l.docs, l.nodes, l.groups}
	for i, step := range steps {
		dec := snapshot.NewDec(secs[i])
		step(dec)
		if err := dec.Done(); err != nil {
			return fmt.Errorf("section %q: %w", sectionNames[i], err)
		}
	}
	if err := l.link(); err != nil {
		return err
	}
	if uint64(f.docs.Len()) != docs {
		return fmt.Errorf("snapshot: trailer counts %d documents, the sections hold %d: %w", docs, f.docs.Len(), detector.ErrSnapshot)
	}
	return nil
}

// loader is the state of one load.
type loader struct {
	f *Detector
	// nodeLive marks the nodes read (the root and the live ones).
	nodeLive []bool
	// taken marks the documents that are members of a content.
	taken []bool
}

func (l *loader) state(dec *snapshot.Dec) {
	f := l.f
	f.nextOrd = dec.Uvarint()
	f.termsKept = dec.Int(0)
	f.termsAt = f.termsKept + max(f.termsKept/2, compactSlack)
	st := &f.stats
	for _, p := range []*int{&st.Deactivated, &st.Added, &st.Collapsed, &st.NearCollapsed, &st.Increments, &st.Candidates} {
		x := dec.Uvarint()
		if x > math.MaxInt64 {
			dec.Fail("counter %d", x)
		}
		*p = int(x)
	}
}

func (l *loader) terms(dec *snapshot.Dec) {
	f := l.f
	n := dec.Len(1, 0)
	if dec.Err() == nil && n < f.termsKept {
		dec.Fail("%d terms, fewer than the %d kept at the last compaction", n, f.termsKept)
	}
	f.terms = make([]string, 0, n)
	f.vocab = make(map[string]uint32, n)
	for range n {
		t := dec.String()
		if dec.Err() != nil {
			return
		}
		if _, dup := f.vocab[t]; dup {
			dec.Fail("term %q twice", t)
			return
		}
		f.vocab[t] = uint32(len(f.terms))
		f.terms = append(f.terms, t)
	}
	if f.idf != nil {
		return
	}
	f.nDocs = int64(dec.Int(0))
	f.df = make([]int64, n)
	f.seen = make([]uint32, n)
	for t := range f.df {
		x := dec.Uvarint()
		if x > uint64(f.nDocs) {
			dec.Fail("document frequency %d over the %d documents counted", x, f.nDocs)
			return
		}
		f.df[t] = int64(x)
	}
}

func (l *loader) docs(dec *snapshot.Dec) {
	f := l.f
	n := dec.Len(3, 0) // an ID, a position and a count
	if dec.Err() == nil && f.s.Window > 0 && n > f.s.Window {
		dec.Fail("%d documents in a window of %d", n, f.s.Window)
	}
	f.docGroup = make([]uint32, 0, n)
	f.docNear = make([]uint32, 0, n)
	f.docSpans = make([][]uint32, 0, n)
	f.docOrd = make([]uint64, 0, n)
	f.docPos = make([]uint32, n)
	if f.s.Collapse == CollapseNear {
		f.docPos2 = make([]uint32, n)
	}
	f.queue = make([]queued, 0, n)
	for k := range n {
		id := dec.String()
		ord := dec.Uvarint()
		ns := dec.Len(1, 0)
		if dec.Err() != nil {
			return
		}
		if ns%2 != 0 || ord >= f.nextOrd || k > 0 && ord <= f.docOrd[k-1] {
			dec.Fail("document %q: %d sentence offsets, position %d", id, ns, ord)
			return
		}
		var spans []uint32
		if ns > 0 {
			spans = make([]uint32, ns)
		}
		for i := range spans {
			x := dec.Uvarint()
			if x > math.MaxUint32 || i%2 == 1 && uint32(x) < spans[i-1] {
				dec.Fail("document %q: sentence offsets out of order", id)
				return
			}
			spans[i] = uint32(x)
		}
		idx, err := f.docs.Add(detector.Doc{ID: id})
		if err != nil || idx != uint32(k) {
			dec.Fail("document %q: %v", id, err)
			return
		}
		f.docGroup = append(f.docGroup, noGroup)
		f.docNear = append(f.docNear, noGroup)
		f.docSpans = append(f.docSpans, spans)
		f.docOrd = append(f.docOrd, ord)
		f.queue = append(f.queue, queued{ord: ord, idx: idx})
	}
	l.taken = make([]bool, n)
}

// freeList reads a free list: distinct indexes, checked against the
// array's length by [checkFree] once that is known.
func freeList(dec *snapshot.Dec) []uint32 {
	k := dec.Len(1, 0)
	if dec.Err() != nil || k == 0 {
		return nil
	}
	list := make([]uint32, 0, k)
	for range k {
		x := dec.Uvarint()
		if x >= math.MaxInt32 {
			dec.Fail("free list entry %d", x)
		}
		if dec.Err() != nil {
			return nil
		}
		list = append(list, uint32(x))
	}
	return list
}

// checkFree returns the marks of the free entries of an array of n, for
// a free list read by freeList; entry 0 may not be free when root is set.
func checkFree(dec *snapshot.Dec, list []uint32, n int, root bool) []bool {
	free := make([]bool, n)
	for _, x := range list {
		if int(x) >= n || root && x == 0 || free[x] {
			dec.Fail("free list entry %d of %d", x, n)
			return nil
		}
		free[x] = true
	}
	return free
}

func (l *loader) nodes(dec *snapshot.Dec) {
	f := l.f
	free := freeList(dec)
	live := dec.Len(4, 0) // parent, term, active, count
	if dec.Err() != nil {
		return
	}
	n := 1 + len(free) + live
	isFree := checkFree(dec, free, n, true)
	if dec.Err() != nil {
		return
	}
	f.nodes = make([]node, n)
	f.freeNodes = free
	l.nodeLive = make([]bool, n)
	l.nodeLive[0] = true
	f.children = make(map[uint64]uint32, live)
	for i := 1; i < n; i++ {
		if isFree[i] {
			continue
		}
		p, t := dec.Uvarint(), dec.Uvarint()
		active := dec.Bool()
		nv := dec.Len(1, 0)
		if dec.Err() != nil {
			return
		}
		if p >= uint64(n) || isFree[p] || p == uint64(i) || t >= uint64(len(f.terms)) || nv > f.s.limit {
			dec.Fail("node %d: parent %d, term %d, %d visitors", i, p, t, nv)
			return
		}
		nd := &f.nodes[i]
		nd.parent, nd.term, nd.active = uint32(p), uint32(t), active
		if nv > 0 {
			nd.vis = make([]visitor, nv)
		}
		for k := range nd.vis {
			x := dec.Uvarint()
			if x >= math.MaxInt32 {
				dec.Fail("node %d: visitor %d", i, x)
				return
			}
			nd.vis[k].g = uint32(x)
		}
		key := childKey(nd.parent, nd.term)
		if _, dup := f.children[key]; dup {
			dec.Fail("node %d: two children of node %d with term %d", i, p, t)
			return
		}
		f.children[key] = uint32(i)
		l.nodeLive[i] = true
	}
	// Depths, from the parents; a cycle or a path deeper than DT is
	// refused.
	for i := 1; i < n; i++ {
		if l.nodeLive[i] && l.depth(uint32(i)) < 0 {
			dec.Fail("node %d: a cycle or a path deeper than %d", i, f.s.dt)
			return
		}
	}
}

// depth sets and returns the depth of live node c, or -1 for a cycle or a
// path deeper than DT.
func (l *loader) depth(c uint32) int {
	f := l.f
	var path []uint32
	for c != 0 && f.nodes[c].depth == 0 {
		if len(path) >= f.s.dt {
			return -1
		}
		path = append(path, c)
		c = f.nodes[c].parent
	}
	base := int(f.nodes[c].depth)
	for k := len(path) - 1; k >= 0; k-- {
		base++
		if base > f.s.dt {
			return -1
		}
		f.nodes[path[k]].depth = uint16(base)
	}
	return base
}

// members reads a member list: distinct documents of "docs", ascending by
// ID, each in no other content.
func (l *loader) members(dec *snapshot.Dec, what string) []uint32 {
	f := l.f
	k := dec.Len(1, 0)
	if dec.Err() != nil {
		return nil
	}
	var out []uint32
	if k > 0 {
		out = make([]uint32, 0, k)
	}
	for range k {
		x := dec.Uvarint()
		if dec.Err() != nil {
			return nil
		}
		if x >= uint64(len(l.taken)) || l.taken[x] ||
			len(out) > 0 && f.docs.ID(uint32(x)) <= f.docs.ID(out[len(out)-1]) {
			dec.Fail("%s: member %d taken or out of order", what, x)
			return nil
		}
		l.taken[x] = true
		f.docPos[x] = uint32(len(out)) // ascending by ID: a valid heap
		out = append(out, uint32(x))
	}
	return out
}

// sentences checks that the sentence ordinals of a content's sequences
// exist in the sentence offsets of each member.
func (l *loader) sentences(dec *snapshot.Dec, what string, members, sent []uint32) {
	f := l.f
	top := uint32(0)
	for _, s := range sent {
		top = max(top, s+1)
	}
	for _, m := range members {
		if uint32(len(f.docSpans[m])/2) < top {
			dec.Fail("%s: sentence %d of document %q has no offsets", what, top-1, f.docs.ID(m))
			return
		}
	}
}

func (l *loader) groups(dec *snapshot.Dec) {
	f := l.f
	free := freeList(dec)
	// members, scs, signature, sequences, containers, near contents
	live := dec.Len(1+8+16+1+1+1, 0)
	if dec.Err() != nil {
		return
	}
	n := len(free) + live
	isFree := checkFree(dec, free, n, false)
	if dec.Err() != nil {
		return
	}
	f.groups = make([]group, n)
	f.freeGroups = free
	f.acc, f.sat, f.stamp = make([]float64, n), make([]float64, n), make([]uint32, n)
	for g := range n {
		if isFree[g] {
			continue
		}
		what := fmt.Sprintf("group %d", g)
		gr := &f.groups[g]
		gr.members = l.members(dec, what)
		gr.scs = dec.F64()
		gr.sig = [2]uint64{dec.U64(), dec.U64()}
		ns := dec.Len(2, 0)
		if dec.Err() == nil && (ns == 0 || gr.scs < 0) {
			dec.Fail("%s: %d sequences, SCS %v", what, ns, gr.scs)
		}
		if dec.Err() != nil {
			return
		}
		gr.ends, gr.sent = make([]uint32, ns), make([]uint32, ns)
		for k := range ns {
			e, s := dec.Uvarint(), dec.Uvarint()
			if dec.Err() == nil && (e == 0 || e >= uint64(len(f.nodes)) || !l.nodeLive[e] || s >= math.MaxInt32) {
				dec.Fail("%s: sequence end %d, sentence %d", what, e, s)
			}
			gr.ends[k], gr.sent[k] = uint32(e), uint32(s)
		}
		l.sentences(dec, what, gr.members, gr.sent)
		nc := dec.Len(10, 0)
		if dec.Err() != nil {
			return
		}
		if nc > 0 {
			gr.containers = make([]edge, nc)
		}
		for k := range gr.containers {
			c := dec.Uvarint()
			score := dec.F64()
			near := dec.Bool()
			if dec.Err() == nil && (c >= uint64(n) || isFree[c] || c == uint64(g) ||
				slices.ContainsFunc(gr.containers[:k], func(e edge) bool { return e.g == uint32(c) })) {
				dec.Fail("%s: container %d", what, c)
			}
			gr.containers[k] = edge{g: uint32(c), score: score, near: near}
		}
		nn := dec.Len(1+16+16+1, 0)
		if dec.Err() == nil && nn > 0 && f.s.Collapse != CollapseNear {
			dec.Fail("%s: near contents with Collapse %d", what, f.s.Collapse)
		}
		if dec.Err() == nil && nn == 0 && len(gr.members) == 0 {
			dec.Fail("%s: no member and no near content", what)
		}
		for range nn {
			if dec.Err() != nil {
				return
			}
			l.near(dec, uint32(g))
		}
		if dec.Err() != nil {
			return
		}
		for _, m := range gr.members {
			f.docGroup[m] = uint32(g)
		}
	}
}

// near reads a near content of group g.
func (l *loader) near(dec *snapshot.Dec, g uint32) {
	f := l.f
	nr := uint32(len(f.nears))
	what := fmt.Sprintf("group %d: near content %d", g, nr)
	x := nearContent{g: g}
	x.members = l.members(dec, what)
	x.fwd, x.rev = dec.F64(), dec.F64()
	x.sig = [2]uint64{dec.U64(), dec.U64()}
	ns := dec.Len(2, 0)
	if dec.Err() == nil && (ns == 0 || len(x.members) == 0) {
		dec.Fail("%s: %d members, %d sequences", what, len(x.members), ns)
	}
	if dec.Err() != nil {
		return
	}
	x.sent = make([]uint32, ns)
	x.off = make([]int32, 1, ns+1)
	for k := range ns {
		s := dec.Uvarint()
		nt := dec.Len(1, f.s.dt)
		if dec.Err() == nil && (s >= math.MaxInt32 || nt == 0) {
			dec.Fail("%s: sequence of %d terms, sentence %d", what, nt, s)
		}
		x.sent[k] = uint32(s)
		for range nt {
			t := dec.Uvarint()
			if dec.Err() == nil && t >= uint64(len(f.terms)) {
				dec.Fail("%s: term %d", what, t)
			}
			x.terms = append(x.terms, uint32(t))
		}
		if dec.Err() != nil {
			return
		}
		x.off = append(x.off, int32(len(x.terms)))
	}
	l.sentences(dec, what, x.members, x.sent)
	if dec.Err() != nil {
		return
	}
	for _, m := range x.members {
		f.docGroup[m] = g
		f.docNear[m] = nr
	}
	f.nears = append(f.nears, x)
	gr := &f.groups[g]
	gr.near = append(gr.near, nr)
}

// link rebuilds what the snapshot does not store and checks the
// structure as a whole: the reference and visitor counts of the nodes
// (one walk up the tree per sequence), the reverse relations, the
// near-duplicate lists, the signature maps, and that every document has
// offsets exactly when it has a content.
func (l *loader) link() error {
	f := l.f
	bad := func(format string, args ...any) error {
		return fmt.Errorf("snapshot: section \"groups\": "+format+": %w", append(args, detector.ErrSnapshot)...)
	}
	for m, taken := range l.taken {
		if taken != (len(f.docSpans[m]) > 0) {
			return bad("document %q: %d sentence offsets, in a content: %v", f.docs.ID(uint32(m)), len(f.docSpans[m]), taken)
		}
	}
	// Visits: per node, the groups passing it and how often.
	type visit struct{ node, g uint32 }
	count := make(map[visit]uint32)
	for g := range f.groups {
		for _, e := range f.groups[g].ends {
			for c := e; c != 0; c = f.nodes[c].parent {
				f.nodes[c].refs++
				count[visit{c, uint32(g)}]++
			}
		}
	}
	distinct := make([]uint32, len(f.nodes))
	for v := range count {
		distinct[v.node]++
	}
	for i := 1; i < len(f.nodes); i++ {
		nd := &f.nodes[i]
		if !l.nodeLive[i] {
			continue
		}
		if nd.refs == 0 {
			return bad("node %d is visited by no group", i)
		}
		// An active node lists every group that visits it; a deactivated
		// one a sample of them.
		if nd.active && uint32(len(nd.vis)) != distinct[i] || len(nd.vis) > f.s.limit {
			return bad("node %d: %d visitors listed, %d visit it", i, len(nd.vis), distinct[i])
		}
		for k := range nd.vis {
			v := &nd.vis[k]
			n := count[visit{uint32(i), v.g}]
			if n == 0 || slices.ContainsFunc(nd.vis[:k], func(o visitor) bool { return o.g == v.g }) {
				return bad("node %d: visitor %d", i, v.g)
			}
			v.n = n
		}
	}
	for g := range f.groups {
		gr := &f.groups[g]
		for _, e := range gr.containers {
			o := &f.groups[e.g]
			o.contains = append(o.contains, uint32(g))
			f.stats.Edges++
		}
		for _, nr := range gr.near {
			gr.nearDocs = append(gr.nearDocs, f.nears[nr].members...)
		}
		slices.SortFunc(gr.nearDocs, func(a, b uint32) int { return cmp.Compare(f.docs.ID(a), f.docs.ID(b)) })
		for k, m := range gr.nearDocs { // ascending by ID: a valid heap
			f.docPos2[m] = uint32(k)
		}
	}
	if f.s.Collapse == CollapseOff {
		return nil
	}
	for g := range f.groups {
		gr := &f.groups[g]
		if len(gr.ends) == 0 {
			continue
		}
		if _, dup := f.bySig[gr.sig]; dup {
			return bad("group %d: signature of another group", g)
		}
		f.bySig[gr.sig] = uint32(g)
	}
	for nr := range f.nears {
		x := &f.nears[nr]
		_, dup := f.nearBySig[x.sig]
		if _, taken := f.bySig[x.sig]; dup || taken {
			return bad("near content %d: signature of another content", nr)
		}
		f.nearBySig[x.sig] = uint32(nr)
	}
	return nil
}
