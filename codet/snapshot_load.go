package codet

import (
	"fmt"
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// Reading a snapshot: each section is decoded into a fresh Detector and
// checked to be canonical and consistent before ReadFrom installs it (the
// layout is at the top of snapshot.go).

// DecodeSections fills f, a fresh index, from the payloads of the
// sections, registering the documents and their contents with the engine
// through el, checking that they are canonical (what it accepts,
// EncodeSections writes back byte for byte) and consistent (no later call
// can fail or panic on what it built).
func (f *index) DecodeSections(secs [][]byte, el engine.Loader[features]) error {
	l := loader{f: f, el: el}
	steps := []func(*snapshot.Dec){l.state, l.terms, l.docs, l.nodes, l.groups}
	for i, step := range steps {
		dec := snapshot.NewDec(secs[i])
		step(dec)
		if err := dec.Done(); err != nil {
			return fmt.Errorf("section %q: %w", sectionNames[i], err)
		}
	}
	return l.link()
}

// loader is the state of one load.
type loader struct {
	f  *index
	el engine.Loader[features]
	// own and near are the members of each group and near content.
	own, nearMembers [][]uint32
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
	// Not sized by n: a map costs about 53 bytes per entry it is sized
	// for, and n is the snapshot's claim, checked only against the bytes
	// left (one per term).
	f.vocab = map[string]uint32{}
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
	f.docSpans = make([][]uint32, 0, n)
	f.docOrd = make([]uint64, 0, n)
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
		spans := make([]uint32, ns)
		for i := range spans {
			x := dec.Uvarint()
			if x > math.MaxUint32 || i%2 == 1 && uint32(x) < spans[i-1] {
				dec.Fail("document %q: sentence offsets out of order", id)
				return
			}
			spans[i] = uint32(x)
		}
		idx, err := l.el.Add(id)
		if err != nil || idx != uint32(k) {
			dec.Fail("document %q: %v", id, err)
			return
		}
		f.docSpans = append(f.docSpans, spans)
		f.docOrd = append(f.docOrd, ord)
		f.queue = append(f.queue, queued{ord: ord, idx: idx})
	}
	l.taken = make([]bool, n)
}

// freeList reads a free list (distinct indexes, in its order) and the
// count of live entries after it, each at least minBytes long. It returns
// the list, the marks of the free entries of the array they make up (with
// root, entry 0 first, which may not be free) and the array's length.
func freeList(dec *snapshot.Dec, minBytes int, root bool) (list []uint32, free []bool, n int) {
	k := dec.Len(1, 0)
	for range k {
		x := dec.Uvarint()
		if x >= math.MaxInt32 {
			dec.Fail("free list entry %d", x)
		}
		if dec.Err() != nil {
			return nil, nil, 0
		}
		list = append(list, uint32(x))
	}
	live := dec.Len(minBytes, 0)
	if dec.Err() != nil {
		return nil, nil, 0
	}
	n = len(list) + live
	if root {
		n++
	}
	free = make([]bool, n)
	for _, x := range list {
		if int(x) >= n || root && x == 0 || free[x] {
			dec.Fail("free list entry %d of %d", x, n)
			return nil, nil, 0
		}
		free[x] = true
	}
	return list, free, n
}

func (l *loader) nodes(dec *snapshot.Dec) {
	f := l.f
	free, isFree, n := freeList(dec, 4, true) // parent, term, active, count
	if dec.Err() != nil {
		return
	}
	f.nodes = makeNodeStore(n)
	f.freeNodes = free
	l.nodeLive = make([]bool, n)
	l.nodeLive[0] = true
	f.children = makeChildTable(n - 1 - len(free))
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
		nd := f.nodes.at(uint32(i))
		nd.parent, nd.term, nd.active = uint32(p), uint32(t), active
		nd.vis = make([]visitor, nv)
		for k := range nd.vis {
			x := dec.Uvarint()
			if x >= math.MaxInt32 {
				dec.Fail("node %d: visitor %d", i, x)
				return
			}
			nd.vis[k].g = uint32(x)
		}
		if _, dup := f.children.get(nd.parent, nd.term); dup {
			dec.Fail("node %d: two children of node %d with term %d", i, p, t)
			return
		}
		f.children.put(nd.parent, nd.term, uint32(i))
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
	for c != 0 && f.nodes.at(c).depth == 0 {
		if len(path) >= f.s.dt {
			return -1
		}
		path = append(path, c)
		c = f.nodes.at(c).parent
	}
	base := int(f.nodes.at(c).depth)
	for k := len(path) - 1; k >= 0; k-- {
		base++
		if base > f.s.dt {
			return -1
		}
		f.nodes.at(path[k]).depth = uint16(base)
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
	out := make([]uint32, 0, k)
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
	// members, scs, signature, sequences, containers, near contents
	free, isFree, n := freeList(dec, 1+8+16+1+1+1, false)
	if dec.Err() != nil {
		return
	}
	f.groups = make([]group, n)
	for g := range f.groups {
		f.groups[g].eg = noGroup
	}
	l.own = make([][]uint32, n)
	f.freeGroups = free
	f.tally = make([]tally, n)
	for g := range n {
		if isFree[g] {
			continue
		}
		what := fmt.Sprintf("group %d", g)
		gr := &f.groups[g]
		l.own[g] = l.members(dec, what)
		gr.scs = dec.F64()
		f.tally[g].scs = gr.scs
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
			if dec.Err() == nil && (e == 0 || e >= uint64(f.nodes.len()) || !l.nodeLive[e] || s >= math.MaxInt32) {
				dec.Fail("%s: sequence end %d, sentence %d", what, e, s)
			}
			gr.ends[k], gr.sent[k] = uint32(e), uint32(s)
		}
		l.sentences(dec, what, l.own[g], gr.sent)
		nc := dec.Len(10, 0)
		if dec.Err() != nil {
			return
		}
		gr.containers = make([]edge, nc)
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
		if dec.Err() == nil && nn == 0 && len(l.own[g]) == 0 {
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
	}
}

// near reads a near content of group g.
func (l *loader) near(dec *snapshot.Dec, g uint32) {
	f := l.f
	nr := uint32(len(f.nears))
	what := fmt.Sprintf("group %d: near content %d", g, nr)
	x := nearContent{eg: noGroup, g: g}
	members := l.members(dec, what)
	x.fwd, x.rev = dec.F64(), dec.F64()
	x.sig = [2]uint64{dec.U64(), dec.U64()}
	ns := dec.Len(2, 0)
	if dec.Err() == nil && (ns == 0 || len(members) == 0) {
		dec.Fail("%s: %d members, %d sequences", what, len(members), ns)
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
	l.sentences(dec, what, members, x.sent)
	if dec.Err() != nil {
		return
	}
	l.nearMembers = append(l.nearMembers, members)
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
		f.tally[g].seqs = uint32(len(f.groups[g].ends))
		for _, e := range f.groups[g].ends {
			for c := e; c != 0; c = f.nodes.at(c).parent {
				f.nodes.at(c).refs++
				count[visit{c, uint32(g)}]++
			}
		}
	}
	distinct := make([]uint32, f.nodes.len())
	for v := range count {
		distinct[v.node]++
	}
	for i := 1; i < f.nodes.len(); i++ {
		nd := f.nodes.at(uint32(i))
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
		nd.low = lowNone
		for k := range nd.vis {
			v := &nd.vis[k]
			// A visitor that visits no node here (a group number past the
			// groups among them) is refused before its group is read.
			n := count[visit{uint32(i), v.g}]
			if n == 0 || slices.ContainsFunc(nd.vis[:k], func(o visitor) bool { return o.g == v.g }) {
				return bad("node %d: visitor %d", i, v.g)
			}
			v.n = n
			nd.low = min(nd.low, lowCode(f.groups[v.g].scs))
		}
	}
	for g := range f.groups {
		gr := &f.groups[g]
		for _, e := range gr.containers {
			o := &f.groups[e.g]
			o.contains = append(o.contains, uint32(g))
			f.stats.Edges++
		}
	}
	if f.s.Collapse == CollapseOff {
		l.join()
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
	l.join()
	return nil
}

// join puts the documents in their contents, with the engine: a content
// is one engine group.
func (l *loader) join() {
	f := l.f
	for g, ms := range l.own {
		gr := &f.groups[g]
		for _, m := range ms {
			l.el.Join(m, &features{sig: gr.sig, has: true, g: uint32(g), nr: noGroup})
		}
	}
	for nr, ms := range l.nearMembers {
		x := &f.nears[nr]
		for _, m := range ms {
			l.el.Join(m, &features{sig: x.sig, has: true, g: x.g, nr: uint32(nr)})
		}
	}
	f.alg.pool.vocab.Store(int64(len(f.terms)))
}
