package shingle

import (
	"slices"
	"sync"

	"github.com/seed-9ef9c1df/neardup/internal/evidence"
)

// containIndex is the index of full fingerprinting and DSC: each live
// document's sorted feature set (all shingles, or DSC's sample) and an
// inverted index from feature to documents.
//
// The feature postings, the bulk of an Add's index work, are split into
// shards by the feature's top bits, each with its own mutex, so that an Add
// inserts its postings without the Detector's lock (insertPostings) and
// concurrent Adds insert in parallel. Everything else (the sets, the
// DSC-SS postings, the queries, removal) runs under the Detector's lock;
// queries and removal lock a shard around each access. A document whose
// postings are being inserted is pending: queries skip it, and it becomes
// visible when publish stores its set.
type containIndex struct {
	cfg     Config
	sets    [][]uint64 // by dense index: sorted features
	size    []int      // by dense index: distinct shingles the set was drawn from
	super   [][]uint64 // by dense index: DSC-SS super-shingles
	pending []bool     // by dense index: postings being inserted, not yet published
	post    [nShards]shard
	sup     postings
}

// containQuery is the scratch of one query. Queries only read the index
// (the shards under their locks), so several may run at once under the
// Detector's read lock, each with its own containQuery.
type containQuery struct {
	mark  marks
	order []int    // feature order
	lens  []int    // posting lengths of the features
	cands []uint32 // candidates
	hits  []hit
}

// nShards is the number of posting shards (a power of two).
const nShards = 64

// shard is one lock-guarded part of the feature postings.
type shard struct {
	mu sync.Mutex
	p  postings
	_  [40]byte // keep two shards' mutexes off one cache line
}

// shardOf returns the shard of feature f.
func (x *containIndex) shardOf(f uint64) *shard { return &x.post[f>>58] }

func (x *containIndex) grow(idx uint32) {
	for int(idx) >= len(x.sets) {
		x.sets = append(x.sets, nil)
		x.size = append(x.size, 0)
		x.super = append(x.super, nil)
		x.pending = append(x.pending, false)
	}
}

// reserve stores the features of the new group idx and marks it pending
// (under the Detector's lock): searches skip it until publish. The index
// keeps set and super.
func (x *containIndex) reserve(idx uint32, set []uint64, size int, super []uint64) {
	x.grow(idx)
	x.sets[idx] = set
	x.size[idx] = size
	x.super[idx] = super
	x.pending[idx] = true
}

// insertPostings adds document idx under each of its features; it takes
// only the shards' locks, so the Detector's lock need not be held.
func (x *containIndex) insertPostings(idx uint32, set []uint64) {
	if len(set) >= nShards*minRebuild {
		// A large document: size each shard's map once.
		for i := range x.post {
			s := &x.post[i]
			s.mu.Lock()
			s.p.reserve(len(set) / nShards)
			s.mu.Unlock()
		}
	}
	for _, f := range set {
		s := x.shardOf(f)
		s.mu.Lock()
		s.p.add(f, idx)
		s.mu.Unlock()
	}
}

// publish makes the pending group idx, whose postings are in, visible
// (under the Detector's lock).
func (x *containIndex) publish(idx uint32) {
	x.pending[idx] = false
	if x.cfg.SuperShingle > 0 {
		for _, f := range x.super[idx] {
			x.sup.add(f, idx)
		}
	}
}

// isPending reports whether document idx is still being inserted.
func (x *containIndex) isPending(idx uint32) bool {
	return int(idx) < len(x.pending) && x.pending[idx]
}

// remove forgets document idx and purges it from the postings.
func (x *containIndex) remove(idx uint32) {
	if int(idx) >= len(x.sets) {
		return
	}
	for _, f := range x.sets[idx] {
		s := x.shardOf(f)
		s.mu.Lock()
		s.p.remove(f, idx)
		s.p.shrink()
		s.mu.Unlock()
	}
	for _, f := range x.super[idx] {
		x.sup.remove(f, idx)
	}
	x.sets[idx], x.super[idx], x.size[idx] = nil, nil, 0
	x.sup.shrink()
}

// need returns the least count k with k/n ≥ θ in float64 arithmetic, the
// comparison the decision uses.
func need(n int, theta float64) int {
	k := int(theta * float64(n))
	for k > 0 && float64(k-1)/float64(n) >= theta {
		k--
	}
	for float64(k)/float64(n) < theta {
		k++
	}
	return max(k, 1)
}

// containers returns the documents C (other than self) with
// |S(A) ∩ S(C)| / |S(A)| ≥ Threshold, where S(A) = a, that share evidence
// enough and are not a part of A (package evidence), with their ratios
// ("if document d_C contains 60% of d_A's hash values, then d_C ⊇ d_A",
// Varol 2012 §4.1.2; DSC applies it to the samples, §4.1.1).
//
// Candidates come from a prefix filter: a container must share at least
// k = ⌈θ|A|⌉ features with A, so it shares at least one of any |A|−k+1 of
// them; the query takes those from A's rarest features (shortest posting
// lists) and verifies each candidate by a sorted intersection that stops
// once A's unexamined features cannot reach k. DSC-SS takes its candidates
// from shared super-shingles instead. SampleMin has no prefix filter (its
// estimate is conditioned on C's sketch) and counts over all of A's sample.
//
// self is A's own group, which is on the postings, or noGroup for a text
// that is not (a Query); asize is the number of distinct shingles A's
// sample was drawn from.
func (x *containIndex) containers(a []uint64, asuper []uint64, asize int, self uint32, ndocs int, dst []hit, q *containQuery) []hit {
	n := len(a)
	if n == 0 {
		return dst
	}
	theta := x.cfg.Threshold
	q.mark.next(ndocs)
	alone := 0 // the posting length of a feature no other group holds
	if self != noGroup {
		q.mark.visit(self)
		alone = 1
	}
	q.cands = q.cands[:0]
	minSample := x.cfg.Method == DSC && x.cfg.Sampling == SampleMin
	k := need(n, theta)
	switch {
	case x.cfg.Method == DSC && x.cfg.SuperShingle > 0:
		// Concurrent searches share the super-shingle postings without a
		// lock of their own, so they are read without list's scratch.
		var one [1]uint32
		for _, f := range asuper {
			v, ok := x.sup.lookup(f)
			l := one[:0]
			switch {
			case !ok:
			case v&single != 0:
				one[0] = v &^ single
				l = one[:]
			default:
				l = x.sup.lists[v]
			}
			for _, c := range l {
				if q.mark.visit(c) {
					q.cands = append(q.cands, c)
				}
			}
		}
	default:
		prefix := n
		if !minSample {
			prefix = n - k + 1
		}
		q.order, q.lens = q.order[:0], q.lens[:0]
		for i, f := range a {
			sh := x.shardOf(f)
			sh.mu.Lock()
			v, ok := sh.p.lookup(f)
			n := sh.p.entryLen(v, ok)
			sh.mu.Unlock()
			q.order = append(q.order, i)
			q.lens = append(q.lens, n)
		}
		if prefix < n {
			// Features only A holds (a list of one) are the rarest and
			// yield no candidate: put them first without sorting, and
			// sort the rest by posting length. Any prefix of n−k+1
			// features is complete, so this changes no result; it keeps
			// a long text of new words from sorting all of them.
			k1 := 0
			for p, i := range q.order {
				if q.lens[i] <= alone {
					q.order[p], q.order[k1] = q.order[k1], i
					k1++
				}
			}
			if k1 < prefix {
				slices.SortFunc(q.order[k1:], func(i, j int) int { return q.lens[i] - q.lens[j] })
			}
		}
		for _, i := range q.order[:prefix] {
			if q.lens[i] <= alone {
				continue // A alone holds it
			}
			sh := x.shardOf(a[i])
			sh.mu.Lock()
			for _, c := range sh.p.list(a[i]) {
				if q.mark.visit(c) {
					q.cands = append(q.cands, c)
				}
			}
			sh.mu.Unlock()
		}
	}
	defer q.release()
	for _, c := range q.cands {
		if x.pending[c] {
			continue // its postings are in, its set is not yet
		}
		set := x.sets[c]
		small := float64(min(n, len(set)))
		if minSample {
			if s := minContainment(a, set, x.size[c]); s >= theta && (s == 1 || evidence.Enough(s*float64(n), small, float64(x.cfg.MinOverlap)) && !(s < 0.9 && minContainment(set, a, asize) >= 0.9)) {
				dst = append(dst, hit{Group: c, Score: s})
			}
			continue
		}
		if m := intersect(a, set, k); m >= k && (m == n || evidence.Enough(float64(m), small, float64(x.cfg.MinOverlap)) && !evidence.PartOf(float64(m), float64(len(set)), float64(n))) {
			dst = append(dst, hit{Group: c, Score: float64(m) / float64(n)})
		}
	}
	return dst
}

// release lets go of query scratch an outlier text grew.
func (q *containQuery) release() {
	if cap(q.order) > largeScratch {
		q.order, q.lens = nil, nil
	}
	if cap(q.cands) > largeScratch {
		q.cands = nil
	}
}

// minContainment estimates the containment of A in C from bottom-s
// sketches (Broder 1997 MIN_s): an element of A's sketch no larger than
// the largest element of C's sketch is in C exactly when it is in C's
// sketch, so the fraction of those elements found in C's sketch is an
// estimate of |A ∩ C| / |A| over a uniform sample of A. csize is the number
// of distinct shingles C's sketch was drawn from; a sketch that holds all
// of them bounds nothing.
func minContainment(a, c []uint64, csize int) float64 {
	eligible := a
	if csize > len(c) && len(c) > 0 {
		top := c[len(c)-1]
		n, _ := slices.BinarySearch(a, top+1)
		if top == ^uint64(0) {
			n = len(a)
		}
		eligible = a[:n]
	}
	if len(eligible) == 0 {
		return 0
	}
	return float64(intersect(eligible, c, 0)) / float64(len(eligible))
}
