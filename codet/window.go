package codet

// Removal and the time window (Varol et al. 2011 §3.3).

import (
	"fmt"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
)

type queued struct {
	ord uint64
	idx uint32
}

// Remove forgets the document id (the time window of Varol et al. 2011
// §3.3). The last document of a content frees its visitor entries, its
// stored relations, and every tree node no live document visits any more,
// so memory follows the live set. Remove time is O(s·PSC·DT·NodeLimit +
// relations) for s sentences. It returns an error wrapping
// [detector.ErrUnknownID] or [detector.ErrClosed].
func (d *Detector) Remove(id string) error { return d.eng.Remove(id) }

// compactQueue drops the queue entries of removed documents once they
// are more than half of the queue; amortised O(1) per Remove.
func (d *index) compactQueue() {
	if d.stale < 1024 || 2*d.stale < len(d.queue)-d.head {
		return
	}
	q := d.queue[:0]
	for _, e := range d.queue[d.head:] {
		if d.docs.Live(e.idx) && d.docOrd[e.idx] == e.ord {
			q = append(q, e)
		}
	}
	clear(d.queue[len(q):])
	d.queue, d.head, d.stale = q, 0, 0
	if cap(d.queue) > 4*len(d.queue)+1024 {
		d.queue = append([]queued(nil), d.queue...)
	}
}

// Expire removes every live document added before position pos, the
// n-th successful Add (from 0) having position n: a time window (Varol et
// al. 2011 §3.3). It returns the number removed, or an error wrapping
// [detector.ErrClosed]; it costs a Remove per document removed.
func (d *Detector) Expire(pos uint64) (int, error) {
	n := 0
	if !d.locked(func(x *index) {
		for x.head < len(x.queue) && x.queue[x.head].ord < pos {
			if x.evictOldest() {
				n++
			}
		}
	}) {
		return 0, fmt.Errorf("codet: Expire(%d): %w", pos, detector.ErrClosed)
	}
	return n, nil
}

// Position returns the position the next successful Add will have (the
// number of documents added so far), for [Detector.Expire].
func (d *Detector) Position() uint64 {
	var pos uint64
	d.inspect(func(x *index) { pos = x.nextOrd })
	return pos
}

// evictOldest pops the oldest queue entry and removes its document if it
// is still the live document of that entry. It reports whether it removed
// one.
func (d *index) evictOldest() bool {
	q := d.queue[d.head]
	d.head++
	if d.head > 1024 && d.head*2 > len(d.queue) {
		d.queue = append(d.queue[:0], d.queue[d.head:]...)
		d.head = 0
	}
	if !d.docs.Live(q.idx) || d.docOrd[q.idx] != q.ord {
		d.stale = max(d.stale-1, 0)
		return false // removed by the caller since
	}
	d.v.Evict(q.idx)
	d.docSpans[q.idx] = nil
	return true
}

// forget drops group g from the tree when it has neither live documents
// nor near contents left.
func (d *index) forget(g uint32) {
	gr := &d.groups[g]
	if gr.eg != noGroup || len(gr.near) > 0 {
		return // the content stays, for its members or near contents
	}
	d.purge(g, gr.ends)
	for _, e := range gr.containers {
		o := &d.groups[e.g]
		o.contains = deleteFirst(o.contains, g)
	}
	for _, a := range gr.contains {
		o := &d.groups[a]
		o.containers = slices.DeleteFunc(o.containers, func(e edge) bool { return e.g == g })
	}
	d.stats.Edges -= len(gr.containers) + len(gr.contains)
	if s, ok := d.bySig[gr.sig]; ok && s == g {
		delete(d.bySig, gr.sig)
	}
	d.groups[g] = group{eg: noGroup}
	d.freeGroups = append(d.freeGroups, g)
	d.maybeCompact()
}

// deleteFirst removes the first v from s, keeping the order of the rest
// (relation lists are in decision order; engine.DeletePosting works on
// the values of a map, not on these fields).
func deleteFirst(s []uint32, v uint32) []uint32 {
	if k := slices.Index(s, v); k >= 0 {
		return slices.Delete(s, k, k+1)
	}
	return s
}
