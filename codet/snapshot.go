package codet

import (
	"io"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
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
// Later answers depend on the arrival order, the online statistics and,
// through the order of floating-point sums, the numbering of nodes,
// groups and terms, so the tree is stored as it is (inserting the
// documents again would not reproduce what was decided while documents
// now removed were live). The children table, node depths, reference and
// visitor counts, reverse relations, each group's near list, the
// signature maps and the arrival queue are rebuilt on read. The trailer
// counts the live documents.
const (
	snapshotKind    = "codet"
	snapshotVersion = 1
)

// tables returns the fingerprint of the idf table the detector weighs
// terms with, for the snapshot header (nil with online weights).
func (a *algorithm) tables() map[string]uint64 {
	if a.idf == nil {
		return nil
	}
	name := "reference idf"
	if a.callerIDF != nil {
		name = "idf"
	}
	fp := a.tableFP.Load()
	if fp == 0 || !a.frozen {
		fp = a.idf.Fingerprint() | 1 // 0 marks "not computed"
		if a.frozen {
			a.tableFP.Store(fp)
		}
	}
	return map[string]uint64{name: fp}
}

// sectionNames are the sections of a snapshot, in order.
var sectionNames = [...]string{"state", "terms", "docs", "nodes", "groups"}

// WriteTo writes a snapshot of the live index to w, no texts, and returns
// the bytes written; its size is linear in the live documents. It
// encodes under the read lock, so concurrent Adds and Removes are wholly
// in it or not, and writes w after. It returns an error wrapping
// detector.ErrClosed after Close, or the error of w.
func (d *Detector) WriteTo(w io.Writer) (int64, error) { return d.eng.WriteTo(w) }

// EncodeSections returns the payloads of the sections. The caller holds
// the lock.
func (d *index) EncodeSections() [][]byte {
	secs := make([][]byte, len(sectionNames))
	var e snapshot.Enc
	st := d.stats
	for _, x := range []uint64{d.nextOrd, uint64(d.termsKept), uint64(st.Deactivated), uint64(st.Added),
		uint64(st.Collapsed), uint64(st.NearCollapsed), uint64(st.Increments), uint64(st.Candidates)} {
		e.Uvarint(x)
	}
	secs[0], e = e.B, snapshot.Enc{}

	e.Strings(d.terms)
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
		encList(&e, d.docSpans[q.idx])
	}
	secs[2], e = e.B, snapshot.Enc{}

	encList(&e, d.freeNodes)
	e.Int(d.nodes.len() - 1 - len(d.freeNodes))
	for i := 1; i < d.nodes.len(); i++ {
		nd := d.nodes.at(uint32(i))
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

	var ms []uint32
	members := func(eg uint32) {
		ms = ms[:0]
		if eg != noGroup {
			ms = d.v.AppendMembers(ms, eg)
		}
		e.Int(len(ms))
		for _, m := range engine.Sorted(d.docs, ms) {
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
		members(gr.eg)
		e.F64(gr.scs)
		encSig(&e, gr.sig)
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
			members(x.eg)
			e.F64(x.fwd)
			e.F64(x.rev)
			encSig(&e, x.sig)
			e.Int(len(x.sent))
			for k, s := range x.sent {
				e.Uvarint(uint64(s))
				encList(&e, x.terms[x.off[k]:x.off[k+1]])
			}
		}
	}
	secs[4] = e.B
	return secs
}

// encSig writes a 128-bit content signature, as two u64.
func encSig(e *snapshot.Enc, sig [2]uint64) {
	e.U64(sig[0])
	e.U64(sig[1])
}

// encList writes a count and the values.
func encList(e *snapshot.Enc, xs []uint32) {
	e.Int(len(xs))
	for _, x := range xs {
		e.Uvarint(uint64(x))
	}
}

// ReadFrom loads a snapshot written by WriteTo into d, which must be
// empty and built with the same Config and idf table, and returns the
// bytes read; d then answers every later call as the saved one would. It
// checks the whole snapshot before installing it, so on error d is
// unchanged, and costs the bytes read plus one walk up the tree per
// stored sequence; no text is analysed. It returns an error wrapping
// detector.ErrClosed after Close, or detector.ErrSnapshot for a d that
// is not empty or input it cannot load (another layout, Config or idf
// table, or a damaged stream).
func (d *Detector) ReadFrom(r io.Reader) (int64, error) { return d.eng.ReadFrom(r) }
