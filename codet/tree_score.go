package codet

// Scoring against the corpus tree and inserting into it (Varol 2012
// Alg. 2-3).

import (
	"cmp"
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/evidence"
)

// edge is one stored containment relation between groups, seen from one
// side: the other group and CS/SCS of the contained side.
type edge struct {
	g     uint32
	score float64
	// near marks a relation kept by a rule on the samples of
	// deactivated nodes ([Detector.decide]).
	near bool
}

// tally is the per-Add scratch of one group: its CS with the document
// being added on active nodes (acc) and on the samples of deactivated
// nodes (sat), valid when gen is the current generation, and a copy of
// the group's SCS and sequence count. One record of 32 bytes per group,
// so that an increment and the tests of [Detector.viable] and
// [Detector.resolve] touch one cache line.
type tally struct {
	acc, sat, scs float64
	gen           uint32
	seqs          uint32 // the group's sequences (resolve's cost estimate)
}

// hit is a visit of an existing node by the document being probed.
type hit struct {
	node uint32
	imp  float64
}

// probe is the scoring half of Alg. 1 step 4 with Alg. 2-3 for the
// document in d.buf: every sequence walks the tree without changing it,
// and every earlier visitor of an active node gains the node's impact,
// imp·min(n, m) in [ModeTree] and imp·n·m in [ModePairwise] (both
// symmetric, so CS(C, A) does not depend on which came first); a node
// this visit would deactivate scores nothing. It fills d.tally for the
// groups in d.touched (sorted), records the node of every visit in
// d.visits (0 past the existing nodes) and returns the document's SCS.
// [Detector.commit] then inserts the document; the result is Alg. 2's,
// since a document's own visits never score.
func (d *index) probe() float64 {
	d.touched = d.touched[:0]
	d.visits = d.visits[:0]
	d.cur = Stats{}
	b := d.buf
	selfTree := 0.0
	// First pass: walk, and list the visits of existing nodes with their
	// impact (a node has one term and one depth, so one impact), in the
	// order of the sequences.
	d.walk()
	d.hits = d.hits[:0]
	for k := range b.n() {
		ids, ws := b.seq(k)
		lo := int(b.off[k])
		for i := range ids {
			// Alg. 3: improvement ← word.idfValue × depth^DSP.
			imp := ws[i] * d.s.pow[i+1]
			selfTree += imp
			if c := d.visits[lo+i]; c != 0 {
				d.hits = append(d.hits, hit{c, imp})
			}
		}
	}
	// SCS with the scoring the tree applies: a copy of this document
	// visiting its nodes gains imp·min(n, n) = imp·n per node (ModeTree),
	// or imp·n² (ModePairwise: Eq. 3.3 truncated at DT).
	pairwise := d.s.Mode == ModePairwise
	scs := selfTree
	if pairwise || d.s.SCSPairs {
		scs = d.pairSelf()
	}
	// Second pass: score each distinct node once, with its visit count n,
	// but for the long lists deferToResolve sets aside.
	slices.SortFunc(d.hits, func(x, y hit) int { return cmp.Compare(x.node, y.node) })
	d.distinct = d.distinct[:0]
	for i := 0; i < len(d.hits); {
		c, imp := d.hits[i].node, d.hits[i].imp
		j := i + 1
		for j < len(d.hits) && d.hits[j].node == c {
			j++
		}
		nd := d.nodes.at(c)
		d.distinct = append(d.distinct, dnode{node: c, imp: imp, n: uint32(j - i),
			sample: !nd.active || d.visitors(nd) >= d.s.limit})
		i = j
	}
	d.work.probes++
	d.work.visits += len(d.visits)
	d.work.distinct += len(d.distinct)
	restActive, restSample := d.deferLong(scs)
	d.prefetchTally()
	for _, x := range d.distinct {
		if x.deferred {
			continue
		}
		imp, n := x.imp, x.n
		nd := d.nodes.at(x.node)
		d.work.scanned += len(nd.vis)
		if x.sample {
			d.work.samples += len(nd.vis)
		}
		// A deactivated node, or one this visit deactivates, scores its
		// sample into the sat of its visitors' tallies, which only the
		// rules on samples read ([Detector.judge]).
		sample := x.sample
		for _, v := range nd.vis {
			if d.ev != nil && d.ev.groups[v.g] {
				continue // evicted before this Add (Query)
			}
			// IncreaseSimilarity(d_i, d_j, word, depth): cs[i][j] += imp.
			// The symmetric cs[j][i] is the same number, kept once.
			var inc float64
			if pairwise {
				inc = imp * float64(n) * float64(v.n)
			} else {
				inc = imp * float64(min(n, v.n))
			}
			t := &d.tally[v.g]
			if t.gen != d.gen {
				t.gen, t.acc, t.sat = d.gen, 0, 0
				d.touched = append(d.touched, v.g)
			}
			if sample {
				t.sat += inc
			} else {
				t.acc += inc
			}
			d.cur.Increments++
		}
	}
	d.cur.Candidates = len(d.touched)
	d.aside = restActive
	if restActive+restSample > 0 {
		d.resolve(scs, restActive, restSample)
	}
	d.stats.Increments += d.cur.Increments
	d.stats.Candidates += d.cur.Candidates
	if d.rank {
		d.ranked = append(d.ranked[:0], d.touched...)
	}
	d.viable(scs)
	slices.Sort(d.touched) // deterministic edge order
	return scs
}

// walk sets d.visits to the existing node of every visit of the
// document in d.buf, in the order of its sequences, 0 past the existing
// nodes of a sequence ([descent.run]).
func (d *index) walk() {
	b := d.buf
	total := int(b.off[b.n()])
	d.visits = slices.Grow(d.visits[:0], total)[:total]
	clear(d.visits)
	var found int
	lookups, sink := d.descent.run(&d.children, b, func(p int32, c uint32) {
		found++
		d.visits[p] = c
	})
	d.work.lookups += lookups
	d.work.found += found
	d.sink += sink
}

// descent is the scratch of a walk down the tree along the sequences of
// a seqBuf: the node each sequence has reached, and the sequences still
// going down.
type descent struct {
	at   []uint32
	live []int32
}

// run walks the sequences of b down the tree as far as their nodes
// exist, calling found with the position in b.terms and the node of each
// node found; noTerm (a term the vocabulary lacks) ends a sequence. It
// goes one depth at a time over all sequences and reads the home slots of
// a depth first, in a pass of their own, so that their cache misses
// overlap (a table of millions of edges fits no cache). It returns the
// lookups and a sum of the slots read ahead, for the caller to keep.
func (w *descent) run(t *childTable, b *seqBuf, found func(p int32, c uint32)) (lookups int, sink uint32) {
	n := b.n()
	w.at = slices.Grow(w.at[:0], n)[:n]
	live := w.live[:0]
	for k := range n {
		w.at[k] = 0
		if b.off[k+1] > b.off[k] {
			live = append(live, int32(k))
		}
	}
	for depth := int32(0); len(live) > 0; depth++ {
		for _, k := range live {
			if id := b.terms[b.off[k]+depth]; id != noTerm {
				sink += t.touch(w.at[k], id)
			}
		}
		m := 0
		for _, k := range live {
			p := b.off[k] + depth
			if b.terms[p] == noTerm {
				continue
			}
			lookups++
			c, ok := t.get(w.at[k], b.terms[p])
			if !ok {
				continue // absent: so is every deeper node
			}
			found(p, c)
			w.at[k] = c
			if p+1 < b.off[k+1] {
				live[m] = k
				m++
			}
		}
		live = live[:m]
	}
	w.live = live
	return lookups, sink
}

// prefetchTally reads the tally record of every visitor of the lists the
// probe is about to scan: independent reads, whose cache misses overlap
// where the scan would wait for them one by one.
func (d *index) prefetchTally() {
	var sink uint32
	for _, x := range d.distinct {
		if x.deferred {
			continue
		}
		for _, v := range d.nodes.at(x.node).vis {
			sink += d.tally[v.g].gen
		}
	}
	d.sink += sink
}

// need returns the shared CS (active nodes and samples together) below
// which no rule relates a document of self-similarity scs to a content of
// self-similarity o ([Detector.viable]), lowered by a margin for
// rounding. It does not decrease when o grows.
func (d *index) need(scs, o float64) float64 {
	m := min(scs, o)
	need := (d.s.etl - 1e-9) * m
	if d.s.minScore > 0 && d.s.Collapse != CollapseNear {
		need = max(need, min(d.s.minScore, evidence.NearCopyShare*m))
	}
	return need*(1-1e-6) - 1e-9
}

// viable keeps in d.touched the groups that can be related to the
// document just probed, of self-similarity scs, before they are sorted
// and judged (most touched groups share one or two shallow nodes). The
// test, [Detector.need], is a necessary condition of every rule with a
// margin for rounding, so the answers are those of judging every touched
// group.
func (d *index) viable(scs float64) {
	if scs <= 0 {
		d.touched = d.touched[:0]
		return
	}
	k := 0
	for _, j := range d.touched {
		t := &d.tally[j]
		if t.scs <= 0 {
			continue // judge relates nothing to an empty content
		}
		if t.acc+t.sat >= d.need(scs, t.scs) {
			d.touched[k] = j
			k++
		}
	}
	d.touched = d.touched[:k]
}

// commit inserts the probed document as group g (Alg. 2 lines 1-22
// without the scoring): missing nodes are created and g joins the visitor
// list of every active node it visits. A node the probe did not find can
// only have been created by this commit, so it is looked up in a small
// table (Detector.created). The new nodes are numbered first, in the order
// a node-by-node walk creates them, so that the slots they will write are
// read ahead in one pass whose cache misses overlap; the result is that
// walk's.
func (d *index) commit(g uint32) {
	b := d.buf
	gr := &d.groups[g]
	gr.ends = gr.ends[:0]
	gr.sent = append(gr.sent[:0], b.sent...)
	low := lowCode(gr.scs)
	if d.refCommit != nil {
		d.refCommit(g)
		return
	}
	d.created.Reset(len(b.terms))
	d.fresh = d.fresh[:0]
	free := len(d.freeNodes)
	next := uint32(d.nodes.len())
	p := 0
	for k := range b.n() {
		ids, _ := b.seq(k)
		c := uint32(0)
		for _, id := range ids {
			if n := d.visits[p]; n != 0 {
				c = n
			} else {
				if slot, found := d.created.Ref(pairKey(c, id)); found {
					c = *slot
				} else {
					parent := c
					if free > 0 {
						free--
						c = d.freeNodes[free]
					} else {
						c = next
						next++
					}
					*slot = c
					d.fresh = append(d.fresh, freshNode{parent: parent, term: id, node: c})
				}
				d.visits[p] = c
			}
			p++
		}
		gr.ends = append(gr.ends, c)
	}
	var sink uint32
	for _, f := range d.fresh {
		sink += d.children.touch(f.parent, f.term)
		if f.node < uint32(d.nodes.len()) {
			sink += d.nodes.at(f.node).refs
		}
	}
	d.sink += sink
	for _, f := range d.fresh {
		d.newChild(f.parent, f.term)
		d.work.inserts++
	}
	for _, c := range d.visits[:p] {
		d.work.enters++
		d.enter(c, g)
		nd := d.nodes.at(c)
		nd.low = min(nd.low, low)
	}
}

// freshNode is a node commit creates: its parent, term and number.
type freshNode struct {
	parent, term, node uint32
}

// decide is Alg. 3 lines 6-15 for the new group g against every group the
// probe touched: both containment directions ([Detector.judge]). A
// relation found through the samples of deactivated nodes is marked, and
// [Detector.retract] leaves it alone.
func (d *index) decide(g uint32) {
	gr := &d.groups[g]
	for _, j := range d.touched {
		in, out, inOK, outOK := d.judge(gr.scs, j)
		other := &d.groups[j]
		// if cs[i][j] > ETL × scs[i]: Containers(d_i) ∪= {d_j}
		if inOK {
			gr.containers = append(gr.containers, in)
			other.contains = append(other.contains, g)
			d.stats.Edges++
		}
		// if cs[j][i] > ETL × scs[j]: Containers(d_j) ∪= {d_i}
		if outOK {
			out.g = g
			other.containers = append(other.containers, out)
			gr.contains = append(gr.contains, j)
			d.stats.Edges++
		}
	}
}

// judge decides the relations between the document just probed, of
// self-similarity scs, and the touched group j: in is j ⊇ the document,
// out the document ⊇ j (its g left to the caller). Each is kept by
// [settings.keep] on the CS of the active nodes, or else on the samples
// too, by [settings.readSamples] or, both ways, [settings.nearPair].
func (d *index) judge(scs float64, j uint32) (in, out edge, inOK, outOK bool) {
	t := &d.tally[j]
	cs, all, sat := t.acc, t.acc+t.sat, t.sat
	other := &d.groups[j]
	if scs <= 0 || other.scs <= 0 {
		return in, out, false, false
	}
	rg, ro := cs/scs, cs/other.scs
	// Too little shared evidence (Config.MinScore) on the active nodes.
	enough := evidence.Enough(cs, min(scs, other.scs), d.s.minScore)
	near := sat > 0 && d.s.nearPair(all, scs, other.scs)
	// The rule of the active nodes, on active nodes and samples together,
	// for pairs that each hold at least sampleShare of the other
	// ([settings.readSamples]).
	sampled := sat > 0 && d.s.readSamples() && evidence.Enough(all, min(scs, other.scs), d.s.minScore) &&
		min(snap(all/scs), snap(all/other.scs)) >= sampleShare
	switch {
	case enough && d.s.keep(rg, ro):
		in, inOK = edge{g: j, score: rg}, true
	case near || sampled && d.s.keep(all/scs, all/other.scs):
		in, inOK = edge{g: j, score: all / scs, near: true}, true
	}
	switch {
	case enough && d.s.keep(ro, rg):
		out, outOK = edge{score: ro}, true
	case near || sampled && d.s.keep(all/other.scs, all/scs):
		out, outOK = edge{score: all / other.scs, near: true}, true
	}
	return in, out, inOK, outOK
}

// sampleMin is the shortest sample of a deactivated node that the rule of
// the active nodes reads ([settings.readSamples]).
const sampleMin = 32

// sampleShare is the share of each other's SCS that two documents must
// hold for the rule of the active nodes to relate them through samples
// ([settings.readSamples]).
const sampleShare = 0.25

// readSamples reports whether the rule of the active nodes
// ([settings.keep] with the MinScore evidence) also reads the samples of
// deactivated nodes, for pairs that each hold at least sampleShare of the
// other: when samples keep at least sampleMin visitors. Then the copies
// of a story that arrive once its nodes are deactivated find the recent
// copies; a quarter is below what two copies with one word changed each
// share, and above what a site's boilerplate gives two pages. The share
// is a constant, not ETL, so that a run at a low ETL filtered by score is
// the run at a higher one. Shorter samples hold visitors the rule would
// relate in one arrival order and not another: there only the
// near-duplicate rule reads them.
func (s *settings) readSamples() bool { return s.limit >= sampleMin && s.limit < math.MaxInt }

// nearPair reports whether two contents with self-similarities a and b
// that share cs are near-duplicates: each holds at least 0.9
// (partThreshold) of the other, above ETL, with the evidence MinScore
// asks for.
func (s *settings) nearPair(cs, a, b float64) bool {
	ra, rb := snap(cs/a), snap(cs/b)
	return min(ra, rb) >= partThreshold && min(ra, rb) > s.etl &&
		evidence.Enough(cs, min(a, b), s.minScore)
}

// snap rounds a ratio to 9 decimals: a CS summed in another order
// (another arrival order) differs in its last bits, and a ratio that is
// exactly 0.9 or ETL (equal weights make such ratios) must decide the
// same way.
func snap(r float64) float64 { return math.Round(r*1e9) / 1e9 }

// partThreshold is the share of a document C found in A from which C
// counts as a part of A ([settings.keep]): DefaultCollapseThreshold, the
// mutual score of near-duplicates.
const partThreshold = DefaultCollapseThreshold

// keep decides C ⊇ A from rA = CS(C, A)/SCS(A), the share of A found in
// C, and rC = CS(C, A)/SCS(C), the share of C found in A, both rounded by
// snap: rA > ETL (Varol 2012 §3.2), and, unless Config.BothDirections is
// set, not rC ≥ 0.9 (partThreshold) while rA is below it, so that a part
// does not contain its whole while near-duplicates contain each other.
func (s *settings) keep(rA, rC float64) bool {
	rA, rC = snap(rA), snap(rC)
	if rA <= s.etl {
		return false
	}
	return s.BothDirections || rC < partThreshold || rA >= partThreshold
}

// pairSelf returns Σ_p v(p)²·imp(p) over the distinct prefixes p of the
// sequences in d.buf, v(p) being how many sequences start with p: the
// ModePairwise self-similarity (Eq. 3.3 truncated at DT). Sorted
// lexicographically, the sequences sharing a prefix are contiguous.
func (d *index) pairSelf() float64 {
	b := d.buf
	n := b.n()
	d.order = d.order[:0]
	for k := range n {
		d.order = append(d.order, k)
	}
	slices.SortFunc(d.order, func(x, y int) int {
		a, _ := b.seq(x)
		c, _ := b.seq(y)
		return slices.Compare(a, c)
	})
	s := 0.0
	for depth := 1; depth <= d.s.dt; depth++ {
		for i := 0; i < n; {
			ids, ws := b.seq(d.order[i])
			if len(ids) < depth {
				i++
				continue
			}
			j := i + 1
			for j < n {
				o, _ := b.seq(d.order[j])
				if len(o) < depth || !slices.Equal(o[:depth], ids[:depth]) {
					break
				}
				j++
			}
			v := float64(j - i)
			s += v * v * ws[depth-1] * d.s.pow[depth]
			i = j
		}
	}
	return s
}
