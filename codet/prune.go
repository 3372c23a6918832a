package codet

// Setting long visitor lists aside. In a large collection most of the
// visitor entries an Add scans are in a few long lists of shallow nodes
// (a sentence's rarest word, shared by thousands of unrelated sentences),
// and most of the groups they touch share only that node with the new
// document: no rule can relate them. The lists are long because the
// collection is: their length, hence the cost per Add, grows with it
// until NodeLimit. probe therefore scans the long lists of active nodes
// only when it must: when the CS those nodes can add to any pair cannot
// on its own reach the least CS a relation needs ([Detector.need]), no
// group that shares nothing else with the document can be related, and
// the groups met elsewhere get the share of those nodes added when they
// could be related ([Detector.resolve]). The samples that deactivated
// nodes keep (NodeLimit entries each, read by every Add that reaches the
// node) feed the rule of the active nodes too ([settings.readSamples]):
// they are then left unscanned under the same bound as the active lists,
// and the groups that could be related get their share
// ([Detector.resolveSat]). With a NodeLimit below sampleMin they feed only
// the near-duplicate rules, which need 0.9 of the larger SCS, and are left
// unscanned under that much looser bound ([Detector.needNear]). The
// answers are those of scanning
// every list, to the last bit: a completed CS is summed again in the
// scan's order.

import (
	"cmp"
	"math"
	"slices"
)

// dnode is a distinct existing node visited by the document being probed:
// the node, its impact, the document's visits, and whether its visitor
// list is set aside.
type dnode struct {
	node     uint32
	n        uint32
	imp      float64
	deferred bool
	// sample: the node is deactivated, or this visit deactivates it; it
	// scores its sample into sat.
	sample bool
}

// deferMin is the visitor-list length above which a node may be set
// aside: shorter lists cost little more to scan than to reason about.
const deferMin = 16

// A node keeps, in low, a lower bound of the SCS of its visitors, encoded
// in a byte: code k means 2^(k/16) − 1 (steps of 4.4%), lowNone no
// visitor. Removal recomputes it when the removed group held the least
// ([Detector.purge]); it is otherwise only lowered, so it is a lower
// bound always.
const lowNone = 255

var lowSCS = func() (t [256]float64) {
	for k := range lowNone {
		t[k] = math.Exp2(float64(k)/16) - 1
	}
	t[lowNone] = math.Inf(1)
	return t
}()

// lowCode returns the largest code whose bound is below scs, less one
// step against the rounding of Log2.
func lowCode(scs float64) uint8 {
	if !(scs > 0) {
		return 0
	}
	k := math.Floor(16*math.Log2(1+scs)) - 1
	if k < 0 {
		return 0
	}
	return uint8(min(k, lowNone-1))
}

// deferLong marks the distinct nodes whose visitor lists probe leaves
// unscanned, and returns the most CS those nodes can add to any pair
// (with a margin for rounding), on active nodes and on samples apart, 0
// when none is set aside. A node is considered when it has more than
// deferMin visitors, the lists with the most entries per unit of bound
// first (fewer entries scanned than longest-first: docs/notes/codet.md).
// An active node is set aside
// when the bound of the active nodes set aside, itself included, stays
// below the least CS an ordinary relation needs with any visitor of any
// of them (their SCS is at least the node's low bound, and need does not
// decrease with SCS). A sample (a deactivated node, or one this visit
// deactivates) that the rule of the active nodes reads
// ([settings.readSamples]) is set aside as an active node is, the bound
// of the samples set aside counted with that of the active ones. With a
// NodeLimit below sampleMin it feeds only the near-duplicate rules, which
// need a share of the larger SCS ([Detector.needNear]): it is set aside
// when the bound of all the nodes set aside, itself included, stays below
// what those rules need with any content. An active node must keep that
// bound too. Only
// with frozen weights in ModeTree (where a node adds imp·min(n, m) ≤
// imp·n to a pair) and outside a Query's eviction.
func (d *Detector) deferLong(scs float64) (active, sample float64) {
	if !d.frozen || d.s.Mode != ModeTree || d.ev != nil || !(scs > 0) || d.scanAll {
		return 0, 0
	}
	d.order = d.order[:0]
	for i, x := range d.distinct {
		nd := d.nodes.at(x.node)
		if len(nd.vis) > deferMin {
			d.order = append(d.order, i)
		}
	}
	if len(d.order) == 0 {
		return 0, 0
	}
	d.work.checks += len(d.order)
	slices.SortFunc(d.order, func(a, b int) int {
		xa, xb := &d.distinct[a], &d.distinct[b]
		la := float64(len(d.nodes.at(xa.node).vis)) * xb.imp * float64(xb.n)
		lb := float64(len(d.nodes.at(xb.node).vis)) * xa.imp * float64(xa.n)
		return cmp.Or(cmp.Compare(lb, la), cmp.Compare(a, b))
	})
	floor, near := math.Inf(1), d.needNear(scs, 0)
	read := d.s.readSamples()
	for _, i := range d.order {
		x := &d.distinct[i]
		b := x.imp * float64(x.n)
		if (active+sample+b)*(1+1e-6)+1e-9 >= near {
			continue
		}
		switch {
		case x.sample && !read:
			sample += b
		case x.sample:
			// Read by the rule of the active nodes too: bounded as an
			// active node is, with the active nodes set aside.
			f := min(floor, d.need(scs, lowSCS[d.nodes.at(x.node).low]))
			if (active+sample+b)*(1+1e-6)+1e-9 >= f {
				continue
			}
			sample += b
			floor = f
		default:
			f := min(floor, d.need(scs, lowSCS[d.nodes.at(x.node).low]))
			bound := active + b
			if read {
				bound += sample
			}
			if bound*(1+1e-6)+1e-9 >= f {
				continue
			}
			active += b
			floor = f
		}
		x.deferred = true
		if x.sample {
			d.work.asideSamp++
		}
		d.work.asideNodes++
		d.work.aside += len(d.nodes.at(x.node).vis)
	}
	if active > 0 {
		active = active*(1+1e-6) + 1e-9
	}
	if sample > 0 {
		sample = sample*(1+1e-6) + 1e-9
	}
	return active, sample
}

// resolve completes the CS of the touched groups that could be related
// once the share of the nodes set aside by deferLong is counted, active
// the bound of that share on active nodes and sample on samples: the CS
// on active nodes of a group whose CS so far plus active reaches
// [Detector.need], or whose CS so far plus both reaches
// [Detector.needNear] ([Detector.resolveSat] completes the CS on samples
// of the latter); the others keep a CS too low for any relation, which
// [Detector.viable] drops. The CS on active nodes of such a group is
// summed again from zero over the document's distinct nodes in node
// order, as the scan does, so that it is the same number to the last bit
// as if no list had been set aside. Each group's sequences are walked up
// the tree to find the document's nodes it visits (an active node lists
// every live group that visits it, with that visit count), or, when that
// is dearer, the active lists are scanned again for those groups.
func (d *Detector) resolve(scs, active, sample float64) {
	defer d.resolveSat(scs, active+sample)
	if active == 0 {
		return // no active list set aside: the CS on active nodes is whole
	}
	res := d.order[:0] // the groups to resolve
	steps := 0
	ordinary := active // what the rule of the active nodes can still gain
	if d.s.readSamples() {
		ordinary += sample
	}
	for _, j := range d.touched {
		t := &d.tally[j]
		if t.scs > 0 && (t.acc+t.sat+ordinary >= d.need(scs, t.scs) ||
			t.acc+t.sat+active+sample >= d.needNear(scs, t.scs)) {
			res = append(res, int(j))
			steps += int(t.seqs) * d.s.dt
		}
	}
	d.order = res
	d.work.resolved += len(res)
	if len(res) == 0 {
		return
	}
	d.complete(res, steps)
}

// complete sets the CS on active nodes of the groups of res, whose
// sequences are steps tree nodes, summed from zero over the document's
// distinct nodes in node order (the scan's sum, to the last bit): by
// walking each group's sequences up the tree, or, when that is dearer,
// by scanning the active lists again for those groups.
func (d *Detector) complete(res []int, steps int) {
	scan := 0
	for _, x := range d.distinct {
		if !x.sample {
			scan += len(d.nodes.at(x.node).vis)
		}
	}
	if scan <= 4*steps {
		d.resolveScan(res)
		return
	}
	d.counts = slices.Grow(d.counts[:0], len(d.distinct))[:len(d.distinct)]
	for _, j := range res {
		clear(d.counts)
		for _, e := range d.groups[j].ends {
			for c := e; c != 0; c = d.nodes.at(c).parent {
				d.work.walked++
				if k, ok := slices.BinarySearchFunc(d.distinct, c, cmpNode); ok {
					d.counts[k]++
				}
			}
		}
		t := &d.tally[j]
		t.acc = 0
		for k, m := range d.counts {
			if x := &d.distinct[k]; m > 0 && !x.sample {
				t.acc += x.imp * float64(min(x.n, m))
				if x.deferred {
					d.cur.Increments++
				}
			}
		}
	}
}

func cmpNode(x dnode, c uint32) int { return cmp.Compare(x.node, c) }

// resolveScan is resolve by scanning the active lists again, for the
// groups of res only.
// The groups of res are marked in a bitmap of all groups, which stays in
// the processor's caches where their tally records (32 bytes each, 5 MB
// at 160,000 groups) do not: most entries scanned are of other groups.
func (d *Detector) resolveScan(res []int) {
	d.growMarks()
	for _, j := range res {
		d.tally[j].acc = 0
		d.marks[j>>6] |= 1 << (j & 63)
	}
	d.rescanMarked(false)
	for _, j := range res {
		d.marks[j>>6] = 0
	}
}

// rescanMarked adds, in node order, what every active node (sample
// false) or every sample (sample true) the document meets gives the
// groups marked in d.marks to their acc or sat.
func (d *Detector) rescanMarked(sample bool) {
	for _, x := range d.distinct {
		if x.sample != sample {
			continue
		}
		vis := d.nodes.at(x.node).vis
		d.work.rescanned += len(vis)
		for _, v := range vis {
			if d.marks[v.g>>6]&(1<<(v.g&63)) == 0 {
				continue
			}
			if add := x.imp * float64(min(x.n, v.n)); sample {
				d.tally[v.g].sat += add
			} else {
				d.tally[v.g].acc += add
			}
			if x.deferred {
				d.cur.Increments++
			}
		}
	}
}

// growMarks makes d.marks, the bitmap of resolveScan and resolveSat (all
// zero between their calls), hold a bit per group.
func (d *Detector) growMarks() {
	if n := (len(d.tally) + 63) >> 6; len(d.marks) < n {
		d.marks = append(d.marks, make([]uint64, n-len(d.marks))...)
	}
}

// needNear returns the CS (active nodes and samples together) below which
// neither the near-duplicate rule of [Detector.judge] nor
// [Detector.nearest] relates a document of self-similarity scs to a
// content of self-similarity o, lowered by a margin for rounding: both
// need a share of the larger SCS.
func (d *Detector) needNear(scs, o float64) float64 {
	r := max(partThreshold, d.s.etl)
	if d.s.Collapse == CollapseNear {
		r = min(r, max(d.s.etl, d.s.near))
	}
	return (r-1e-9)*max(scs, o)*(1-1e-6) - 1e-9
}

// resolveSat completes the CS on samples (sat) of the touched groups the
// near-duplicate rules (and, when it reads samples, the rule of the active
// nodes) could relate once the share of the samples set aside is counted,
// by scanning every sample the document meets again for those groups,
// from zero and in node order (so the sum is the scan's to the last bit).
// The others keep a sat too low for those rules; the other rules read acc
// alone.
func (d *Detector) resolveSat(scs, rest float64) {
	aside := false
	for _, x := range d.distinct {
		aside = aside || x.deferred && x.sample
	}
	if !aside {
		return
	}
	d.growMarks()
	n := 0
	read := d.s.readSamples()
	for _, j := range d.touched {
		t := &d.tally[j]
		need := d.needNear(scs, t.scs)
		if read {
			need = min(need, d.need(scs, t.scs))
		}
		if t.scs > 0 && t.acc+t.sat+rest >= need {
			t.sat = 0
			d.marks[j>>6] |= 1 << (j & 63)
			n++
		}
	}
	if n == 0 {
		return
	}
	d.rescanMarked(true)
	for _, j := range d.touched {
		d.marks[j>>6] = 0
	}
}
