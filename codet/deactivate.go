package codet

// Node deactivation made independent of arrival order: a node's
// contribution is taken back from every relation it fed when it is
// deactivated.

import "slices"

// retract is called when node c is deactivated with the visitor list vis
// (its entries before the group that deactivated it, which scored nothing
// there): every pair of groups of vis received imp·min(n, m) (ModeTree)
// or imp·n·m (ModePairwise) from c when the later of the two was added.
// retract takes that back from every stored relation between two of
// them, and re-decides both directions of the pair with the lower CS, so
// that the relations are those of a tree where c never scored: which
// nodes end up deactivated (more than NodeLimit distinct contents) does
// not depend on the order the contents arrived in, so neither do the
// relations. It needs the weight the increments used, which only a frozen
// table guarantees; with online weights it does nothing (and the
// relations keep what c gave while it was active).
//
// A pair with no stored relation needs nothing: its CS only decreases,
// and a pair whose one direction was refused by the part-of-whole rule
// has the other direction stored (see [settings.keep]). Time
// O(Σ relations of the visitors), once per node.
func (d *Detector) retract(c uint32, vis []visitor) {
	if !d.frozen || len(vis) < 2 {
		return
	}
	nd := &d.nodes[c]
	imp := d.idf.Weight(d.terms[nd.term]) * d.s.pow[nd.depth]
	if imp == 0 {
		return
	}
	count := make(map[uint32]uint32, len(vis))
	for _, v := range vis {
		count[v.g] = v.n
	}
	pairwise := d.s.Mode == ModePairwise
	type pair struct{ a, b uint32 }
	done := make(map[pair]bool)
	for _, v := range vis {
		a := v.g
		// Every relation with a on the contained side whose container also
		// visited c; a's relations as a container are met from the other
		// side (or were, when that side's pair was re-decided).
		for k := 0; k < len(d.groups[a].containers); k++ {
			e := d.groups[a].containers[k]
			m, ok := count[e.g]
			if !ok {
				continue
			}
			p := pair{min(a, e.g), max(a, e.g)}
			if done[p] {
				continue
			}
			done[p] = true
			dec := imp * float64(min(v.n, m))
			if pairwise {
				dec = imp * float64(v.n) * float64(m)
			}
			cs := e.score*d.groups[a].scs - dec
			if d.redecide(a, e.g, cs) {
				k-- // a's edge k was removed
			}
		}
	}
}

// redecide sets both containment directions between groups a and b from
// their CS, adding, updating or removing the stored relations. It reports
// whether the relation b ⊇ a was removed.
func (d *Detector) redecide(a, b uint32, cs float64) (removedBA bool) {
	ra, rb := cs/d.groups[a].scs, cs/d.groups[b].scs
	removedBA = d.setEdge(b, a, ra, d.s.keep(ra, rb)) // b ⊇ a
	d.setEdge(a, b, rb, d.s.keep(rb, ra))             // a ⊇ b
	return removedBA
}

// setEdge makes the relation container ⊇ contained present with score,
// or absent, and reports whether it removed it.
func (d *Detector) setEdge(container, contained uint32, score float64, present bool) (removed bool) {
	a := &d.groups[contained]
	k := slices.IndexFunc(a.containers, func(e edge) bool { return e.g == container })
	switch {
	case present && k >= 0:
		a.containers[k].score = score
	case present:
		a.containers = append(a.containers, edge{container, score})
		o := &d.groups[container]
		o.contains = append(o.contains, contained)
		d.stats.Edges++
	case k >= 0:
		a.containers = slices.Delete(a.containers, k, k+1)
		o := &d.groups[container]
		o.contains = deleteFirst(o.contains, contained)
		d.stats.Edges--
		return true
	}
	return false
}
