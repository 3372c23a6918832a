package codet

// The corpus tree of Varol 2012 §3.2: a prefix tree over idf-sorted word
// sequences. Node 0 is the virtual root ("children only"); every other node
// has a label word, a depth, an active flag and a visitor list.

import "slices"

const noGroup = ^uint32(0)

// visitor is one entry of a node's visitor list: a document group and how
// many times its sequences passed the node (used by ModePairwise; ModeTree
// treats every entry as a set member).
type visitor struct {
	g, n uint32
}

type node struct {
	parent uint32
	term   uint32
	depth  uint16
	// active is false once the visitor list passed NodeLimit; vis then
	// holds a sample ([Detector.enter]).
	active bool
	// low is a lower bound of the SCS of the visitors, encoded (prune.go).
	low uint8
	// refs counts the visits of live groups: the node is freed at zero.
	refs uint32
	vis  []visitor
}

// newChild creates the child of p labelled term, which must be absent
// (Alg. 2 lines 20-22).
func (d *index) newChild(p, term uint32) uint32 {
	var c uint32
	nd := node{parent: p, term: term, depth: d.nodes.at(p).depth + 1, active: true, low: lowNone}
	if n := len(d.freeNodes); n > 0 {
		c = d.freeNodes[n-1]
		d.freeNodes = d.freeNodes[:n-1]
		nd.vis = d.nodes.at(c).vis[:0]
		*d.nodes.at(c) = nd
	} else {
		if k := d.visUsed; k < len(d.vis) {
			// The first visitor's entry, allocated outside the lock.
			nd.vis = d.vis[k : k : k+1]
			d.visUsed++
		}
		c = d.nodes.push(nd)
	}
	d.children.put(p, term, c)
	return c
}

// enter is Alg. 2 lines 1-8 for group g arriving at node c: g joins the
// visitor list (a count per group, for ModePairwise), and a list passing
// NodeLimit deactivates the node, whose contributions are taken back
// ([Detector.retract]). A deactivated node keeps as a sample its NodeLimit
// most recent visitors, where the pseudo-code frees the list: otherwise
// a story becomes invisible once NodeLimit near-copies of it arrived,
// since a new copy meets only silent nodes.
func (d *index) enter(c, g uint32) {
	nd := d.nodes.at(c)
	nd.refs++
	// node.visitorDocuments ← node.visitorDocuments ∪ i. The current
	// group's entry, if any, is the last: entries are appended in arrival
	// order and nothing is removed during an insertion.
	if k := len(nd.vis); k > 0 && nd.vis[k-1].g == g {
		nd.vis[k-1].n++
		return
	}
	nd.vis = append(nd.vis, visitor{g: g, n: 1})
	if len(nd.vis) <= d.s.limit {
		return
	}
	if nd.active {
		nd.active = false
		d.stats.Deactivated++
		d.retract(c, nd.vis[:len(nd.vis)-1]) // g scored nothing here
		nd = d.nodes.at(c)
	}
	// The sample: the oldest visitor leaves.
	copy(nd.vis, nd.vis[1:])
	nd.vis = nd.vis[:len(nd.vis)-1]
}

// purge removes group g from the tree: its visitor entries, and every node
// no live group visits any more. ends are the deepest nodes of g's
// sequences; walking up from each one visits exactly g's visits.
func (d *index) purge(g uint32, ends []uint32) {
	code := lowCode(d.groups[g].scs)
	for _, e := range ends {
		for c := e; c != 0; {
			d.work.purged++
			nd := d.nodes.at(c)
			p := nd.parent
			// The list stays in arrival order (a sample drops its oldest
			// entry first).
			if k := slices.IndexFunc(nd.vis, func(v visitor) bool { return v.g == g }); k >= 0 {
				nd.vis = slices.Delete(nd.vis, k, k+1)
				if nd.low == code {
					d.relow(nd)
				}
			}
			nd.refs--
			if nd.refs == 0 {
				d.children.del(p, nd.term)
				nd.vis = nd.vis[:0]
				if cap(nd.vis) > 4 {
					nd.vis = nil
				}
				nd.active = false
				d.freeNodes = append(d.freeNodes, c)
			}
			c = p
		}
	}
}

// relow recomputes the lower bound of the SCS of nd's visitors.
func (d *index) relow(nd *node) {
	nd.low = lowNone
	for _, v := range nd.vis {
		nd.low = min(nd.low, lowCode(d.groups[v.g].scs))
	}
}
