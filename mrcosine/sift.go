package mrcosine

import (
	"math/bits"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
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
// table is scratch of the index, used under the detector's lock.
type sift struct {
	q       *sketch
	max     int // most differing bits, when the bound is per detector
	perPair bool
	far     []float64 // per pair: (1 − hiCos[n])·‖x‖ by differing bits n
	slack   float64   // 1 − T2
}

func (d *Detector) newSift(q []uint64, rnorm float32) sift {
	s := sift{q: (*sketch)(q[:sketchWords]), max: d.sketchMax, perPair: d.sketchMax < 0, slack: 1 - d.cfg.T2}
	if s.perPair {
		rq := float64(rnorm)
		s.far = d.ix.far[:0]
		for _, h := range hiCos() {
			s.far = append(s.far, (1-h)*rq)
		}
		d.ix.far = s.far
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
// one sequential pass over the sketches, and returns it with the number of
// groups dropped. The loop is the cost of an Add on a collection its bands
// barely divide: the popcounts are written out, and the bound is tested
// in one of two loops, as a bit count or per pair.
func (s *sift) scan(dst []uint32, first []uint32, sketches []sketch, rnorm []float32) ([]uint32, int) {
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
				dst = append(dst, uint32(g))
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
			dst = append(dst, uint32(g))
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

// query returns the live documents other than skip within T2 of vec, the
// Config.MaxResults strongest. count records the work in the test
// counters (Query does not, so that it changes nothing).
func (d *Detector) query(vec []float32, rnorm float32, sk, keys []uint64, skip uint32, count bool) []detector.Match {
	if vec == nil {
		return []detector.Match{}
	}
	ix := d.ix
	var cands []copyheap.Candidate
	P := d.parts
	t2 := d.cfg.T2
	checked := 0
	check := func(g uint32) {
		checked++
		if s := dot(vec, ix.vecs[int(g)*P:int(g+1)*P]); s >= t2 {
			cands = append(cands, copyheap.Candidate{Group: g, Score: s})
		}
	}
	if d.cfg.Exhaustive {
		for g, f := range ix.first {
			if f != noDoc {
				check(uint32(g))
			}
		}
		if count {
			ix.checked += checked
		}
		return ix.collect(cands, skip, d.cfg.MaxResults)
	}
	s := d.newSift(sk, rnorm)
	lists, total := ix.lists[:0], 0
	for b, k := range keys {
		l := ix.buckets.get(uint32(b), k)
		lists = append(lists, l)
		total += len(l)
	}
	ix.lists = lists[:0]
	rejected := 0
	if scanFactor*total >= ix.groups {
		// The buckets hold at least a third as many entries as there are
		// distinct live signatures (close texts, a low threshold, or
		// newswire, where most stories share a band with many others): a
		// sequential pass over the sketches costs less than visiting
		// them, and misses nothing they hold.
		var keep []uint32
		keep, rejected = s.scan(ix.pass[:0], ix.first, ix.sketch, ix.rnorm)
		for _, g := range keep {
			check(g)
		}
		ix.pass = keep[:0]
	} else {
		// The stamps are scratch under the lock: no answer depends on them.
		ix.epoch++
		if ix.epoch == 0 { // wrapped: clear the stamps
			clear(ix.stamp)
			ix.epoch = 1
		}
		for _, l := range lists {
			for _, g := range l {
				if ix.stamp[g] == ix.epoch {
					continue
				}
				ix.stamp[g] = ix.epoch
				if s.keep(hamming8(s.q, &ix.sketch[g]), ix.rnorm[g]) {
					check(g)
				} else {
					rejected++
				}
			}
		}
	}
	if count {
		ix.checked += checked
		ix.rejected += rejected
	}
	return ix.collect(cands, skip, d.cfg.MaxResults)
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
