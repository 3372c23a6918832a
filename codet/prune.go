package codet

// Setting long visitor lists aside. Most entries an Add scans in a large
// collection are in a few long lists of shallow nodes whose groups share
// only that node with the document, and those lists grow with the
// collection until NodeLimit. When the CS such lists can add to any pair
// cannot reach the least CS a relation needs ([Detector.need], or
// [Detector.needNear] for samples that feed only the near-duplicate
// rules), probe leaves them unscanned, and the groups met elsewhere that
// could be related get their share added ([Detector.resolve],
// [Detector.resolveSat]), summed again in the scan's order, so the
// answers are those of scanning every list, to the last bit.

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
// unscanned, and returns the most CS they can add to any pair (with a
// margin for rounding), on active nodes and on samples apart, 0 when none
// is set aside. Lists of more than deferMin visitors are considered, the
// most entries per unit of bound first. A node is set aside while the
// bound of the nodes set aside, itself included, stays below what the
// rules that read it need with any of their visitors (whose SCS is at
// least the node's low bound; need does not decrease with SCS), and below
// [Detector.needNear] with any content. Only with frozen weights in
// ModeTree (where a node adds imp·min(n, m) ≤ imp·n) outside a Query's
// eviction.
func (d *index) deferLong(scs float64) (active, sample float64) {
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

// resolve completes ([Detector.complete]) the CS on active nodes of the
// touched groups that could be related once the share of the nodes set
// aside is counted (active and sample bound it); [Detector.resolveSat]
// then does the same for the CS on samples. The other groups keep a CS
// too low for any relation, which [Detector.viable] drops.
func (d *index) resolve(scs, active, sample float64) {
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
func (d *index) complete(res []int, steps int) {
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

// resolveScan is complete by scanning the active lists again for the
// groups of res, marked in a bitmap that stays in the caches where their
// tally records do not (most entries scanned are of other groups).
func (d *index) resolveScan(res []int) {
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
func (d *index) rescanMarked(sample bool) {
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
func (d *index) growMarks() {
	if n := (len(d.tally) + 63) >> 6; len(d.marks) < n {
		d.marks = append(d.marks, make([]uint64, n-len(d.marks))...)
	}
}

// needNear returns the CS (active nodes and samples together) below which
// neither the near-duplicate rule of [Detector.judge] nor
// [Detector.nearest] relates a document of self-similarity scs to a
// content of self-similarity o, lowered by a margin for rounding: both
// need a share of the larger SCS.
func (d *index) needNear(scs, o float64) float64 {
	r := max(partThreshold, d.s.etl)
	if d.s.Collapse == CollapseNear {
		r = min(r, max(d.s.etl, d.s.near))
	}
	return (r-1e-9)*max(scs, o)*(1-1e-6) - 1e-9
}

// resolveSat completes, by scanning the samples again in node order, the
// CS on samples (sat) of the touched groups the rules reading samples
// could relate once the share of the samples set aside (rest) is counted.
func (d *index) resolveSat(scs, rest float64) {
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
