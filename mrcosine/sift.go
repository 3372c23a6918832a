package mrcosine

import (
	"math/bits"
	"slices"
	"sync"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
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

// newSift returns the sketch test of p's query, filling p's far table
// when the bound is per pair.
func (d *Detector) newSift(p *probe) sift {
	s := sift{q: (*sketch)(p.sk[:sketchWords]), max: d.sketchMax, perPair: d.sketchMax < 0, slack: 1 - d.cfg.T2}
	if s.perPair {
		rq := float64(p.rnorm)
		p.far = p.far[:0]
		for _, h := range hiCos() {
			p.far = append(p.far, (1-h)*rq)
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
func (s *sift) scan(dst []uint32, base int, live []bool, sketches []sketch, rnorm []float32) ([]uint32, int) {
	q0, q1, q2, q3 := s.q[0], s.q[1], s.q[2], s.q[3]
	q4, q5, q6, q7 := s.q[4], s.q[5], s.q[6], s.q[7]
	n0 := len(dst)
	rnorm = rnorm[:len(live)]
	sketches = sketches[:len(live)]
	nlive := 0
	if !s.perPair {
		limit := s.max
		for g, ok := range live {
			if !ok {
				continue
			}
			nlive++
			o := &sketches[g]
			n := bits.OnesCount64(q0^o[0]) + bits.OnesCount64(q1^o[1]) +
				bits.OnesCount64(q2^o[2]) + bits.OnesCount64(q3^o[3]) +
				bits.OnesCount64(q4^o[4]) + bits.OnesCount64(q5^o[5]) +
				bits.OnesCount64(q6^o[6]) + bits.OnesCount64(q7^o[7])
			if n <= limit {
				dst = append(dst, uint32(base+g))
			}
		}
		return dst, nlive - (len(dst) - n0)
	}
	far, slack := s.far[:sketchWords*64+1], s.slack
	for g, ok := range live {
		if !ok {
			continue
		}
		nlive++
		o := &sketches[g]
		n := bits.OnesCount64(q0^o[0]) + bits.OnesCount64(q1^o[1]) +
			bits.OnesCount64(q2^o[2]) + bits.OnesCount64(q3^o[3]) +
			bits.OnesCount64(q4^o[4]) + bits.OnesCount64(q5^o[5]) +
			bits.OnesCount64(q6^o[6]) + bits.OnesCount64(q7^o[7])
		if !(far[n]*float64(rnorm[g]) > slack) { // keep, per pair
			dst = append(dst, uint32(base+g))
		}
	}
	return dst, nlive - (len(dst) - n0)
}

// scanFactor is the cost of visiting a bucket entry (a stamp test, and a
// sketch test at a random place for each distinct group) over that of one
// step of the sequential pass over all sketches, measured on Reuters-21578
// (docs/notes/mrcosine.md in the repository): the query scans when its
// buckets hold at least 1/scanFactor as many entries as there are live
// groups.
const scanFactor = 3

// probe is one search of the index and its scratch.
type probe struct {
	vec   []float32 // the query: compared vector,
	rnorm float32   // length of the hashed vector,
	sk    []uint64  // sketch,
	keys  []uint64  // and band keys

	cands []engine.Candidate // the groups within T2 of vec

	checked, rejected int // work done, for the test counters
	rank              int // Rank's k: keep the groups of a positive cosine met in the buckets
	near              []rankCand

	stamp []uint32 // by group: the epoch that visited it
	epoch uint32
	lists [][]uint32
	ones  [][1]uint32 // the lists of one group, by band (engine.Postings.Get)
	pass  []uint32    // groups the sketch test keeps
	far   []float64   // see sift
}

// check appends g to p's candidates when the exact cosine of the live group
// g with the query is at least T2.
func (ix *index) check(p *probe, g uint32) {
	p.checked++
	if s := cosine(p.vec, ix.vec(g)); s >= ix.d.cfg.T2 || p.rank > 0 && s > 0 {
		p.cands = append(p.cands, engine.Candidate{Group: g, Score: s})
	}
}

// Search appends to dst the live groups related to f, each with the
// cosine its members get: for a text, its text group (score 1); for a
// vector, the groups within T2 of it that the index offers, of which only
// the MaxResults+1 strongest (and those tied with the last) can make the
// cut. The search of an Add or Query runs in its scratch, and with dst
// nil returns a slice of it, read before the engine releases the scratch.
func (ix *index) Search(dst []engine.Candidate, f *sig, _ *engine.Groups[sig]) []engine.Candidate {
	return ix.find(dst, f, 0)
}

// Rank appends to dst what Search does and the other groups sharing a
// band bucket with f whose cosine with it is positive, scored by that
// cosine as Search scores it, below T2 too: the candidates of Nearest. It
// visits the buckets where Search would pass over every sketch and gives
// an exact cosine to the max(rankChecked·k, rankFloor) groups nearest by
// sketch distance.
func (ix *index) Rank(dst []engine.Candidate, f *sig, _ *engine.Groups[sig], k int) []engine.Candidate {
	return ix.find(dst, f, max(k, 1))
}

// rankCand is a group met by Rank and the sketch distance of its
// signature from the query's.
type rankCand struct {
	g uint32
	h int
}

// rankChecked is how many of the groups Rank meets, per result wanted,
// get an exact cosine: those nearest by sketch distance, and at least
// rankFloor of them.
const (
	rankChecked = 4
	rankFloor   = 64
)

// find is Search, or with rank > 0 Rank for the rank best.
func (ix *index) find(dst []engine.Candidate, f *sig, rank int) []engine.Candidate {
	if f.text {
		if g, ok := ix.text[f.dig]; ok {
			dst = append(dst, engine.Candidate{Group: g, Score: 1})
		}
		return dst
	}
	if f.vec == nil {
		return dst
	}
	s := f.s
	var p *probe
	if s != nil { // an Add's or Query's features: the query is s
		p = &s.p
		p.vec, p.rnorm, p.sk, p.keys = s.vec, s.rnorm, s.pool, s.keys
	} else { // a group's own features (Containers): scratch of the pool
		s, _ = ix.d.scratch.Get() // New never fails
		defer ix.d.release(s)
		p = &s.p
		p.vec, p.rnorm = f.vec, ix.rnorm[f.g]
		p.sk, p.keys = nil, nil
		if ix.d.bands() > 0 {
			p.sk, p.keys = ix.sketch[f.g][:], ix.keysOf(f.g)
		}
	}
	p.rank = rank
	ix.search(p)
	p.rank = 0
	ix.checked.Add(int64(p.checked))
	ix.rejected.Add(int64(p.rejected))
	// Only the limit+1 strongest groups can make the cut (each gives at
	// least one member, but the skipped document's group perhaps none): a
	// text most of the collection is close to sorts those, not every
	// candidate. (At limit = MaxInt, limit+1 wraps below 0: Best keeps
	// everything.)
	cands := engine.Best(p.cands, ix.d.cfg.MaxResults+1, func(c engine.Candidate) float64 { return c.Score })
	if dst == nil && f.s != nil {
		return cands
	}
	return append(dst, cands...)
}

// search finds the live groups within T2 of p's query that the index
// offers, into p.cands. It only reads ix, so it runs under the shared
// lock; its scratch is p's.
func (ix *index) search(p *probe) {
	p.cands = p.cands[:0]
	p.checked, p.rejected = 0, 0
	d := ix.d
	n := len(ix.live)
	if d.cfg.Exhaustive {
		for g := range n {
			if ix.live[g] {
				ix.check(p, uint32(g))
			}
		}
		return
	}
	s := d.newSift(p)
	lists, total := p.lists[:0], 0
	p.ones = slices.Grow(p.ones[:0], len(p.keys))[:len(p.keys)]
	for b, k := range p.keys {
		l := ix.buckets[b].Get(k, &p.ones[b])
		lists = append(lists, l)
		total += len(l)
	}
	p.lists = lists[:0]
	if scanFactor*total >= ix.groups && p.rank == 0 {
		// The buckets hold at least a third as many entries as there are
		// distinct live signatures (close texts, a low threshold, or
		// newswire, where most stories share a band with many others): a
		// sequential pass over the sketches costs less than visiting
		// them, and misses nothing they hold.
		clear(lists) // drop the references to the bucket lists
		keep, rejected := s.scan(p.pass[:0], 0, ix.live, ix.sketch, ix.rnorm)
		for _, g := range keep {
			ix.check(p, g)
		}
		p.pass = keep[:0]
		p.rejected += rejected
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
	if p.rank > 0 {
		ix.rankLists(p, s, lists)
		clear(lists)
		return
	}
	for _, l := range lists {
		for _, g := range l {
			if p.stamp[g] == p.epoch {
				continue
			}
			p.stamp[g] = p.epoch
			if s.keep(hamming8(s.q, &ix.sketch[g]), ix.rnorm[g]) {
				ix.check(p, g)
			} else {
				p.rejected++
			}
		}
	}
	clear(lists) // drop the references to the bucket lists
}

// rankLists checks, for Rank, the groups of the bucket lists nearest to
// the query by sketch distance (the 512 sign bits estimate the angle):
// rankChecked per result wanted, at least rankFloor, and every group tied
// with the last of them.
func (ix *index) rankLists(p *probe, s sift, lists [][]uint32) {
	p.near = p.near[:0]
	for _, l := range lists {
		for _, g := range l {
			if p.stamp[g] != p.epoch {
				p.stamp[g] = p.epoch
				p.near = append(p.near, rankCand{g, hamming8(s.q, &ix.sketch[g])})
			}
		}
	}
	near := p.near
	if m := max(rankChecked*p.rank, rankFloor); len(near) > m {
		near = nearestSketches(near, m)
	}
	for _, c := range near {
		ix.check(p, c.g)
	}
}

// nearestSketches keeps, in place and in the order met, the m candidates
// of the smallest sketch distance and the ties of the m-th: counting each
// distance finds the m-th without sorting.
func nearestSketches(near []rankCand, m int) []rankCand {
	var count [sketchWords*64 + 1]int32
	for _, c := range near {
		count[c.h]++
	}
	last, n := 0, 0
	for last = range count {
		if n += int(count[last]); n >= m {
			break
		}
	}
	kept := near[:0]
	for _, c := range near {
		if c.h <= last {
			kept = append(kept, c)
		}
	}
	return kept
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
