package shingle

import (
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// The Add of full fingerprinting and DSC: the search before the exclusive
// turn, the turn that catches up with what changed since, and the
// publication after the postings are in.

// addContain is Add for full fingerprinting and DSC. The answer is the
// containers at the moment the Add takes its exclusive turn (registers its
// ID), as for one goroutine adding in that order, but most of it is
// searched before, under the read lock: the search records the
// publication stamp it saw, and in the exclusive turn (containTurn) its
// hits are kept if their groups are still live and the same, and the
// groups published since, or still pending, are compared with the text
// directly. The postings then go in under the shards' locks only, and a
// second short exclusive turn publishes the group.
//
// ix, x and seen are the index, its containIndex and its publication
// stamp when the Add checked its ID, before the analysis. The posting lengths of the text's
// features, the cache-missing half of the search, are looked up after
// that without the Detector's lock (the shards' locks suffice): every
// group published before seen is on them in full.
func (d *Detector) addContain(doc detector.Doc, a *analysis, ix *index, x *containIndex, seen uint64) ([]detector.Match, error) {
	q := d.containQuery()
	defer d.cq.Put(q)
	hits := q.hits[:0]
	if x != nil && a.key != 0 {
		x.lengths(a.set, q)
		d.mu.RLock()
		if d.ix == ix && ix.con == x {
			hits = x.containers(a.set, a.super, a.size, noGroup, ix.gs.cap(), hits, q, true)
		}
		d.mu.RUnlock()
	}

	d.mu.Lock()
	t, err := d.containTurn(doc, a, ix, hits, seen, q)
	d.mu.Unlock()
	if err != nil || t.done == nil {
		if t.wait != nil {
			<-t.wait // the group's first document is being inserted
		}
		return t.ms, err
	}
	t.x.insertPostings(t.g, a.set)
	d.mu.Lock()
	closed := t.ix.publish(t.x, t.g, t.done)
	d.mu.Unlock()
	if closed {
		return nil, fmt.Errorf("shingle: Add(%q): %w", doc.ID, detector.ErrClosed)
	}
	return t.ms, nil
}

// containResult is what the exclusive turn of a full-fingerprinting or
// DSC Add leaves to do after it.
type containResult struct {
	ms   []detector.Match
	ix   *index
	x    *containIndex // ix.con when the turn ran (Close clears ix.con)
	g    uint32        // the new group, if done is set
	done chan struct{} // set: insert g's postings, then publish it
	wait chan struct{} // set: g's first document is being inserted
}

// containTurn is the exclusive turn of a full-fingerprinting or DSC Add
// whose search under the read lock, of index ix, found hits among the
// publications before stamp seen: register, catch up, answer, and join a
// group or open one, pending.
func (d *Detector) containTurn(doc detector.Doc, a *analysis, ix *index, hits []hit, seen uint64, q *containQuery) (containResult, error) {
	defer func() { q.keep(hits) }()
	if d.ix != ix || ix.con == nil {
		// Loaded from a snapshot or closed since the search: search
		// again (or fail below).
		ix, hits = d.ix, hits[:0]
		if x := ix.con; x != nil && a.key != 0 {
			seen = x.pubs
			hits = x.containers(a.set, a.super, a.size, noGroup, ix.gs.cap(), hits, q, false)
		}
	}
	idx, err := ix.docs.Add(doc) // closed or a duplicate ID since the check
	if err != nil {
		return containResult{}, err
	}
	if d.turn != nil {
		d.turn(false, doc.ID)
	}
	if a.key == 0 {
		ix.gs.bare(idx) // no words: no feature, no match, no copy
		return containResult{ms: []detector.Match{}}, nil
	}
	hits = ix.catchUp(a, hits, seen, q)
	if g, ok := ix.find(a); ok {
		ix.gs.join(g, idx)
		return containResult{ms: ix.gs.collect(hits, idx, d.cfg.MaxResults), wait: ix.ready[g]}, nil
	}
	g := ix.open(idx, a)
	r := containResult{ms: ix.gs.collect(hits, idx, d.cfg.MaxResults), ix: ix, x: ix.con, g: g, done: make(chan struct{})}
	// The postings go in under their shards' locks only; until publish,
	// the group is pending: registered (its ID taken) but not on the
	// postings, and searches compare it directly.
	ix.con.reserve(g, a.set, a.size, a.super)
	ix.ready[g] = r.done
	return r, nil
}

// publish is the second exclusive turn of an Add that opened the group g:
// its postings are in, it is no longer pending. It reports whether the
// detector was closed meanwhile.
func (ix *index) publish(x *containIndex, g uint32, done chan struct{}) (closed bool) {
	x.publish(g)
	delete(ix.ready, g)
	close(done)
	return ix.docs.Closed()
}

// catchUp turns the hits of a search that saw the publications before
// stamp seen into the containers of a at this moment (under the exclusive
// lock): hits whose group was removed since (or its number reused) go, and
// the groups published since and those still pending are compared with a
// directly. If more than pubLogSize were published since, it searches
// again.
func (ix *index) catchUp(a *analysis, hits []hit, seen uint64, q *containQuery) []hit {
	x := ix.con
	if x.pubs-seen > pubLogSize {
		seen = x.pubs
		hits = x.containers(a.set, a.super, a.size, noGroup, ix.gs.cap(), hits[:0], q, false)
	}
	k := 0
	for _, h := range hits {
		if x.pub[h.Group] < seen {
			hits[k] = h
			k++
		}
	}
	hits = hits[:k]
	cs := q.cands[:0]
	for s := seen; s < x.pubs; s++ {
		if g := x.log[s%pubLogSize]; x.pub[g] == s {
			cs = append(cs, g)
		}
	}
	cs = ix.pending(cs)
	q.cands = cs
	return x.delta(a.set, a.super, a.size, cs, hits)
}

// pending appends the FullFingerprint and DSC groups whose postings are
// being inserted to dst: registered, so searches must see them, but not
// yet on the postings, so searches compare them directly.
func (ix *index) pending(dst []uint32) []uint32 {
	for g := range ix.ready {
		dst = append(dst, g)
	}
	return dst
}
