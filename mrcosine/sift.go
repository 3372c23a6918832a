package mrcosine

import (
	"math/bits"
	"sync"

	"github.com/seed-9ef9c1df/neardup/internal/copyheap"
)

// sketch is the sign sketch of one group, as the index stores it.
type sketch = [sketchWords]uint64

// hamming8 is the number of differing bits of two sketches.
func hamming8(a, b *sketch) int {
	return bits.OnesCount64(a[0]^b[0]) + bits.OnesCount64(a[1]^b[1]) +
		bits.OnesCount64(a[2]^b[2]) + bits.OnesCount64(a[3]^b[3]) +
		bits.OnesCount64(a[4]^b[4]) + bits.OnesCount64(a[5]^b[5]) +
		bits.OnesCount64(a[6]^b[6]) + bits.OnesCount64(a[7]^b[7])
}

// sift is the sketch test of one query: whether a live group may reach
// T2, so that its exact cosine is worth computing (keep, scan). Its far
// table is scratch of the query's probe.
type sift struct {
	q       *sketch
	max     int // most differing bits, when the bound is per detector
	perPair bool
	far     []float64 // per pair: (1 − hiCos[n])·‖x‖ by differing bits n
	slack   float64   // 1 − T2
}

// newSift returns the sketch test of the query sketch q, whose hashed
// vector has length rnorm; with fill unset it reuses the far table p holds
// for the same query.
func (d *Detector) newSift(p *probe, q []uint64, rnorm float32, fill bool) sift {
	s := sift{q: (*sketch)(q[:sketchWords]), max: d.sketchMax, perPair: d.sketchMax < 0, slack: 1 - d.cfg.T2}
	if s.perPair {
		if fill {
			rq := float64(rnorm)
			p.far = p.far[:0]
			for _, h := range hiCos() {
				p.far = append(p.far, (1-h)*rq)
			}
		}
		s.far = p.far
	}
	return s
}

// maxBits returns the most differing sketch bits with which a candidate is
// kept when the lowest hashed cosine a candidate can have is lo (the same
// for every pair): a pair is dropped when lo > hiCos[n], and hiCos does
// not increase with n, so the kept n are those up to the first dropped.
func maxBits(lo float64) int {
	for n, c := range hiCos() {
		if lo > c {
			return n - 1
		}
	}
	return sketchWords * 64
}

// keep reports whether a candidate whose sketch differs from the query's
// in n bits survives the test, its hashed vector of length ‖y‖ = rg: for
// plain signatures hashed from the center, plain cosine T2 needs centered
// cosine at least lo = 1 − (1 − T2)/(‖x‖·‖y‖), translation keeping
// distances: lo > h ⟺ (1 − h)·‖x‖·‖y‖ > 1 − T2.
func (s *sift) keep(n int, rg float32) bool {
	if s.perPair {
		return !(s.far[n]*float64(rg) > s.slack)
	}
	return n <= s.max
}

// scan appends to dst the live groups whose sketches survive the test, in
// one sequential pass over the sketches of groups base, base+1, …, and
// returns it with the number of groups dropped. The loop is the cost of an Add on a collection its bands
// barely divide: the popcounts are written out, and the bound is tested
// in one of two loops, as a bit count or per pair.
func (s *sift) scan(dst []uint32, base int, first []uint32, sketches []sketch, rnorm []float32) ([]uint32, int) {
	q0, q1, q2, q3 := s.q[0], s.q[1], s.q[2], s.q[3]
	q4, q5, q6, q7 := s.q[4], s.q[5], s.q[6], s.q[7]
	n0 := len(dst)
	rnorm = rnorm[:len(first)]
	sketches = sketches[:len(first)]
	live := 0
	if !s.perPair {
		limit := s.max
		for g, f := range first {
			if f == noDoc {
				continue
			}
			live++
			o := &sketches[g]
			n := bits.OnesCount64(q0^o[0]) + bits.OnesCount64(q1^o[1]) +
				bits.OnesCount64(q2^o[2]) + bits.OnesCount64(q3^o[3]) +
				bits.OnesCount64(q4^o[4]) + bits.OnesCount64(q5^o[5]) +
				bits.OnesCount64(q6^o[6]) + bits.OnesCount64(q7^o[7])
			if n <= limit {
				dst = append(dst, uint32(base+g))
			}
		}
		return dst, live - (len(dst) - n0)
	}
	far, slack := s.far[:sketchWords*64+1], s.slack
	for g, f := range first {
		if f == noDoc {
			continue
		}
		live++
		o := &sketches[g]
		n := bits.OnesCount64(q0^o[0]) + bits.OnesCount64(q1^o[1]) +
			bits.OnesCount64(q2^o[2]) + bits.OnesCount64(q3^o[3]) +
			bits.OnesCount64(q4^o[4]) + bits.OnesCount64(q5^o[5]) +
			bits.OnesCount64(q6^o[6]) + bits.OnesCount64(q7^o[7])
		if !(far[n]*float64(rnorm[g]) > slack) { // keep, per pair
			dst = append(dst, uint32(base+g))
		}
	}
	return dst, live - (len(dst) - n0)
}

// scanFactor is the cost of visiting a bucket entry (a stamp test, and a
// sketch test at a random place for each distinct group) over that of one
// step of the sequential pass over all sketches, measured on Reuters-21578
// (about 19 ns per distinct candidate, 1.75 entries each, against 3.3 ns
// per group scanned): the query scans when its buckets hold at least
// 1/scanFactor as many entries as there are live groups.
const scanFactor = 3

// probe is one query against the index and its scratch: what it found in
// the index at one moment (seq), kept so that an Add can bring it up to
// date under the exclusive lock (see catchUp) instead of searching there.
type probe struct {
	vec   []float32 // the query: compared vector (nil matches nothing),
	rnorm float32   // length of the hashed vector,
	sk    []uint64  // sketch,
	keys  []uint64  // and band keys

	cands   []copyheap.Candidate // the groups within T2 of vec
	ix      *index               // the index searched
	seq     uint64               // ix.seq when it was searched
	total   int                  // bucket entries under keys then
	scanned bool                 // whether the search took the sequential pass

	checked, rejected int // work done, for the test counters

	stamp []uint32 // by group: the epoch that visited it
	epoch uint32
	lists [][]uint32
	pass  []uint32  // groups the sketch test keeps
	far   []float64 // see sift
}

// check appends g to p's candidates when the exact cosine of the live group
// g with the query is at least T2.
func (d *Detector) check(ix *index, p *probe, g uint32) {
	p.checked++
	if s := dot(p.vec, ix.vec(g, d.parts)); s >= d.cfg.T2 {
		p.cands = append(p.cands, copyheap.Candidate{Group: g, Score: s})
	}
}

// scanChunk is the number of groups the sequential pass (and Exhaustive)
// reads under one hold of the shared lock in Add: between two chunks a
// waiting Add takes its exclusive turn, so it waits for a chunk (a few
// microseconds), not for a whole search. A variable for tests.
var scanChunk = 1024

// search finds in ix, as it stands, the live groups within T2 of p's
// query that the index offers, into p.cands. It only reads ix, so it runs
// under the shared lock; its scratch is p's. With yield set (Add), the
// sequential pass and Exhaustive call it between chunks of scanChunk
// groups to release the shared lock and take it again, and stop when it
// returns false (ix is no longer the detector's): the groups created,
// deleted or reused meanwhile are then caught up as for any change after
// the search began (see catchUp), p.seq being that of the beginning.
func (d *Detector) search(ix *index, p *probe, yield func() bool) {
	p.cands, p.ix, p.seq = p.cands[:0], ix, ix.seq
	p.checked, p.rejected, p.total, p.scanned = 0, 0, 0, false
	if p.vec == nil {
		return
	}
	n := len(ix.first) // the groups of seq; later ones are in the log
	if d.cfg.Exhaustive {
		for lo := 0; lo < n; lo += scanChunk {
			if lo > 0 && yield != nil && !yield() {
				return
			}
			for g := lo; g < min(lo+scanChunk, n); g++ {
				if ix.first[g] != noDoc {
					d.check(ix, p, uint32(g))
				}
			}
		}
		return
	}
	s := d.newSift(p, p.sk, p.rnorm, true)
	lists, total := p.lists[:0], 0
	for b, k := range p.keys {
		l := ix.buckets.get(uint32(b), k)
		lists = append(lists, l)
		total += len(l)
	}
	p.lists = lists[:0]
	p.total = total
	if scanFactor*total >= ix.groups {
		// The buckets hold at least a third as many entries as there are
		// distinct live signatures (close texts, a low threshold, or
		// newswire, where most stories share a band with many others): a
		// sequential pass over the sketches costs less than visiting
		// them, and misses nothing they hold.
		clear(lists) // drop the references to the bucket lists
		p.scanned = true
		for lo := 0; lo < n; lo += scanChunk {
			if lo > 0 && yield != nil && !yield() {
				return
			}
			hi := min(lo+scanChunk, n)
			keep, rejected := s.scan(p.pass[:0], lo, ix.first[lo:hi], ix.sketch[lo:hi], ix.rnorm[lo:hi])
			for _, g := range keep {
				d.check(ix, p, g)
			}
			p.pass = keep[:0]
			p.rejected += rejected
		}
		return
	}
	// The stamps are the probe's: no answer depends on them.
	if len(p.stamp) < n {
		p.stamp = append(p.stamp, make([]uint32, n-len(p.stamp))...)
	}
	p.epoch++
	if p.epoch == 0 { // wrapped: clear the stamps
		clear(p.stamp)
		p.epoch = 1
	}
	for _, l := range lists {
		for _, g := range l {
			if p.stamp[g] == p.epoch {
				continue
			}
			p.stamp[g] = p.epoch
			if s.keep(hamming8(s.q, &ix.sketch[g]), ix.rnorm[g]) {
				d.check(ix, p, g)
			} else {
				p.rejected++
			}
		}
	}
	clear(lists) // drop the references to the bucket lists
}

// catchUp brings p, searched in the index earlier, up to date with ix as
// it stands, under the exclusive lock: it drops the candidate groups
// deleted or created since p.seq, and tests the groups created since (the
// log's tail, which it returns) as the search would have. The result is
// the search's at this moment, bit for bit: a group's vector, sketch and
// keys never change while it lives, a live group born at or before p.seq
// has lived all along (a reused number is born again), so the search read
// it, whichever chunk it was in, and every other live group is in the log
// once. It returns false when it cannot: ix is not the index
// searched (ReadFrom or Close replaced it), the log no longer reaches
// back, or the changes since flip the choice between the sequential pass
// and the buckets; the caller then searches again.
func (d *Detector) catchUp(ix *index, p *probe) ([]created, bool) {
	if p.ix != ix {
		return nil, false
	}
	recent, ok := ix.since(p.seq)
	if !ok || p.seq == ix.seq {
		return recent, ok
	}
	n := 0
	for _, c := range p.cands {
		if g := c.Group; ix.first[g] != noDoc && ix.born[g] <= p.seq {
			p.cands[n] = c
			n++
		}
	}
	p.cands = p.cands[:n]
	if p.vec == nil {
		return recent, true
	}
	if d.cfg.Exhaustive {
		for _, e := range recent {
			if ix.bornAt(e) {
				d.check(ix, p, e.g)
			}
		}
		return recent, true
	}
	bands := len(p.keys)
	total := p.total
	if ix.removed > p.seq {
		total = 0
		for b, k := range p.keys {
			total += len(ix.buckets.get(uint32(b), k))
		}
	} else { // all of recent live: each adds an entry per key it shares
		for _, e := range recent {
			total += shared(p.keys, ix.keysOf(e.g, bands))
		}
	}
	if (scanFactor*total >= ix.groups) != p.scanned {
		return nil, false
	}
	p.total = total
	s := d.newSift(p, p.sk, p.rnorm, false)
	for _, e := range recent {
		g := e.g
		if !ix.bornAt(e) || !p.scanned && shared(p.keys, ix.keysOf(g, bands)) == 0 {
			continue
		}
		if s.keep(hamming8(s.q, &ix.sketch[g]), ix.rnorm[g]) {
			d.check(ix, p, g)
		} else {
			p.rejected++
		}
	}
	return recent, true
}

// shared is the number of bands in which two lists of band keys agree.
func shared(a, b []uint64) int {
	b = b[:len(a)]
	n := 0
	for i, k := range a {
		if b[i] == k {
			n++
		}
	}
	return n
}

// count adds p's work to the index's test counters.
func (ix *index) count(p *probe) {
	ix.checked.Add(int64(p.checked))
	ix.rejected.Add(int64(p.rejected))
}

// hiCos returns, for each number of differing sketch bits, the highest
// hashed cosine a pair can have (see maxHamming).
var hiCos = sync.OnceValue(func() []float64 {
	out := make([]float64, sketchWords*64+1)
	for h := range out {
		lo, hi := -1.0, 1.0 // maxHamming(lo) ≥ h; find the largest such lo
		if maxHamming(hi) >= h {
			out[h] = 2 // never reject
			continue
		}
		for range 60 {
			m := (lo + hi) / 2
			if maxHamming(m) >= h {
				lo = m
			} else {
				hi = m
			}
		}
		out[h] = lo
	}
	return out
})
