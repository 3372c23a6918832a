package minhash

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// A Detector in Weighted mode with online statistics commits its Adds in
// the order they were counted, so a goroutine whose document is signed
// and searched waits for the commit of the one counted before it, however
// long that one's sampling takes: at 2 goroutines on Reuters 40-45 ms per
// 5,000 documents went to that wait (docs/minhash.md). While it waits, it
// can throw darts for the document in front of it. The packed slots of a
// round are minima over the darts of its elements, so slots filled from
// disjoint groups of elements and merged by minimum are the slots one
// goroutine fills alone: the signature does not change with who helped.

// shareChunk is the number of elements a goroutine claims at a time from a
// round on offer (a Reuters document has about 135).
const shareChunk = 16

// sharing connects the samplers of a Detector's Sketchers: waiting counts
// the goroutines waiting for their commit turn, and offered is the round a
// sampler has put up for them to help with.
type sharing struct {
	waiting atomic.Int32
	offered atomic.Pointer[sharedRound]
}

// sharedRound is the first round of one document's packed sampling,
// offered once its sampler saw a goroutine waiting: the elements from
// chunk next on go to whichever goroutine claims them. Its fields other
// than next, active, merged and helped are set before it is offered and
// never change; a goroutine that finds it after its last chunk was claimed
// reads only next and elems' length, so the sampler may reuse its scratch
// for its next document once active is back to 0.
type sharedRound struct {
	elems  []dartElem // the sampler's: each is thrown by the one goroutine that claimed its chunk
	thr    []uint64
	aMax   float64
	seed   uint64
	maxTop int

	next   atomic.Int32 // the next chunk to claim
	active atomic.Int32 // helpers inside help

	mu     sync.Mutex
	merged []uint64 // the helpers' slots, by minimum; the sampler's scratch
	helped bool
}

// throwElems offers the darts of elems below θ in the round whose largest
// column top holds aMax expected darts below θ (thresholds thr, largest
// top maxTop, darts below from·a thrown before) to the packed slots.
func throwElems(best []uint64, elems []dartElem, aMax, from float64, seed uint64, thr []uint64, maxTop int) {
	for i := range elems {
		e := &elems[i]
		if d := maxTop - e.top; d < len(thr)-1 {
			throwPacked(best, e, math.Ldexp(aMax, -d), from, seed, thr[d:])
		}
	}
}

// throwFirstRound is [throwElems] of every element for the first round
// (from = 0), chunk by chunk; when a goroutine waits for its commit turn
// and at least two chunks are left, it offers the rest of the round to
// it, and merges what the helpers threw before it returns.
func (ds *dartScratch) throwFirstRound(best []uint64, aMax float64, seed uint64, thr []uint64, maxTop int) {
	n := len(ds.elems)
	var r *sharedRound
	for c := 0; ; c++ {
		if r == nil && ds.share.waiting.Load() > 0 && (c+1)*shareChunk < n {
			r = ds.offer(len(best), aMax, seed, thr, maxTop, c)
		}
		if r != nil {
			c = int(r.next.Add(1)) - 1
		}
		lo := c * shareChunk
		if lo >= n {
			break
		}
		throwElems(best, ds.elems[lo:min(lo+shareChunk, n)], aMax, 0, seed, thr, maxTop)
	}
	if r == nil {
		return
	}
	ds.share.offered.CompareAndSwap(r, nil)
	for r.active.Load() != 0 {
		runtime.Gosched() // a helper is finishing a chunk
	}
	if r.helped {
		for i, m := range r.merged {
			best[i] = min(best[i], m)
		}
	}
}

// offer puts up the first round from chunk c on.
func (ds *dartScratch) offer(k int, aMax float64, seed uint64, thr []uint64, maxTop, c int) *sharedRound {
	ds.merged = emptySlots(ds.merged, k)
	r := &sharedRound{elems: ds.elems, thr: thr, aMax: aMax, seed: seed, maxTop: maxTop, merged: ds.merged}
	r.next.Store(int32(c))
	ds.share.offered.Store(r)
	return r
}

// help throws chunks of r into slots of ds's and merges them into r's,
// until no chunk is left. It reports whether it threw any.
func (r *sharedRound) help(ds *dartScratch) bool {
	r.active.Add(1)
	defer r.active.Add(-1)
	var best []uint64
	for {
		lo := (int(r.next.Add(1)) - 1) * shareChunk
		if lo >= len(r.elems) {
			break
		}
		if best == nil {
			ds.packed = emptySlots(ds.packed, len(r.merged))
			best = ds.packed
		}
		throwElems(best, r.elems[lo:min(lo+shareChunk, len(r.elems))], r.aMax, 0, r.seed, r.thr, r.maxTop)
	}
	if best == nil {
		return false
	}
	r.mu.Lock()
	for i, b := range best {
		r.merged[i] = min(r.merged[i], b)
	}
	r.helped = true
	r.mu.Unlock()
	return true
}

// emptySlots returns buf resized to k slots, all empty (growing it if
// needed).
func emptySlots(buf []uint64, k int) []uint64 {
	if cap(buf) < k {
		buf = make([]uint64, k)
	}
	buf = buf[:k]
	for i := range buf {
		buf[i] = packEmpty
	}
	return buf
}
