package codet

// Node deactivation made independent of arrival order: a node's
// contribution is taken back from every relation it fed when it is
// deactivated.

import "slices"

// retract is called when node c is deactivated with the visitor list vis
// (before the group that deactivated it): it takes what c gave each pair
// of vis back from their stored relations and re-decides them, so the
// relations are those of a tree where c never scored, whatever the
// arrival order. Only with frozen weights (the increments' weight must be
// known). A relation the part-of-whole rule refused may become due; its
// reverse is stored then, and it is added when that one is re-decided.
// Time O(Σ relations of the visitors), once per node.
func (d *index) retract(c uint32, vis []visitor) {
	if !d.frozen || len(vis) < 2 {
		return
	}
	nd := d.nodes.at(c)
	imp := d.idf.Weight(d.terms[nd.term]) * d.s.pow[nd.depth]
	if imp == 0 {
		return
	}
	count := make(map[uint32]uint32, len(vis))
	for _, v := range vis {
		count[v.g] = v.n
	}
	pairwise := d.s.Mode == ModePairwise
	var added []edgeKey // relations added here, already at their new score
	for _, v := range vis {
		a := v.g
		ga := &d.groups[a]
		for k := 0; k < len(ga.containers); k++ {
			e := ga.containers[k]
			m, ok := count[e.g]
			if !ok || e.near || slices.Contains(added, edgeKey{e.g, a}) {
				continue
			}
			dec := imp * float64(min(v.n, m))
			if pairwise {
				dec = imp * float64(v.n) * float64(m)
			}
			oldCS := e.score * ga.scs
			cs := oldCS - dec
			scsC := d.groups[e.g].scs
			ra, rc := cs/ga.scs, cs/scsC
			if d.s.keep(ra, rc) {
				ga.containers[k].score = ra
			} else {
				ga.containers = slices.Delete(ga.containers, k, k+1)
				o := &d.groups[e.g]
				o.contains = deleteFirst(o.contains, a)
				d.stats.Edges--
				k--
			}
			// a ⊇ e.g, refused before by the part-of-whole rule, may be due
			// now.
			if oldRC := oldCS / scsC; d.s.keep(rc, ra) && !d.s.keep(oldRC, e.score) {
				if d.addEdge(a, e.g, rc) {
					added = append(added, edgeKey{a, e.g})
				}
			}
			ga = &d.groups[a]
		}
	}
}

// edgeKey is a relation container ⊇ contained.
type edgeKey struct{ container, contained uint32 }

// addEdge stores container ⊇ contained with score unless it is stored,
// and reports whether it added it.
func (d *index) addEdge(container, contained uint32, score float64) bool {
	o := &d.groups[contained]
	if slices.ContainsFunc(o.containers, func(e edge) bool { return e.g == container }) {
		return false
	}
	o.containers = append(o.containers, edge{g: container, score: score})
	g := &d.groups[container]
	g.contains = append(g.contains, contained)
	d.stats.Edges++
	return true
}
