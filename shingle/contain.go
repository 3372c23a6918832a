package shingle

import (
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/evidence"
	"github.com/seed-9ef9c1df/neardup/internal/spin"
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

	// Publication order, for Adds that search before they take the lock
	// (see Detector.Add): pub holds, by dense index, the stamp of the
	// group's publication (notPublished while it is pending or after it
	// is removed), pubs the next stamp, and log the groups of the last
	// pubLogSize stamps, by stamp mod pubLogSize.
	pub  []uint64
	pubs uint64
	log  [pubLogSize]uint32
}

// notPublished is the publication stamp of a pending or removed group.
const notPublished = math.MaxUint64

// pubLogSize is the number of publications an Add's search may fall
// behind before the Add searches again under the lock.
const pubLogSize = 1024

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
	mu spin.Mutex
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
		x.pub = append(x.pub, notPublished)
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
	x.pub[idx] = notPublished
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
	x.eachRun(set, func(s *shard, lo, hi int) {
		for _, f := range set[lo:hi] {
			s.p.add(f, idx)
		}
	})
}

// eachRun calls fn for each run set[lo:hi] of the sorted features set
// that falls in one shard (a feature's shard is its top bits), holding
// that shard's lock: one lock per run, not per feature. Runs whose shard
// is free (TryLock) go first and the others after, so that two Adds
// walking their features in the same order do not queue behind each
// other shard after shard.
func (x *containIndex) eachRun(set []uint64, fn func(s *shard, lo, hi int)) {
	var busy [nShards]int32 // the starts of runs whose shard was held
	nb := 0
	runEnd := func(lo int) int {
		s := x.shardOf(set[lo])
		hi := lo + 1
		for hi < len(set) && x.shardOf(set[hi]) == s {
			hi++
		}
		return hi
	}
	for lo := 0; lo < len(set); {
		hi := runEnd(lo)
		if s := x.shardOf(set[lo]); s.mu.TryLock() {
			fn(s, lo, hi)
			s.mu.Unlock()
		} else {
			busy[nb] = int32(lo)
			nb++
		}
		lo = hi
	}
	for _, lo := range busy[:nb] {
		s := x.shardOf(set[lo])
		s.mu.Lock()
		fn(s, int(lo), runEnd(int(lo)))
		s.mu.Unlock()
	}
}

// publish makes the pending group idx, whose postings are in, visible
// (under the Detector's lock).
func (x *containIndex) publish(idx uint32) {
	x.pending[idx] = false
	x.pub[idx] = x.pubs
	x.log[x.pubs%pubLogSize] = idx
	x.pubs++
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
	set := x.sets[idx]
	for i := 0; i < len(set); {
		s := x.shardOf(set[i])
		s.mu.Lock()
		for ; i < len(set) && x.shardOf(set[i]) == s; i++ {
			s.p.remove(set[i], idx)
		}
		s.p.shrink()
		s.mu.Unlock()
	}
	for _, f := range x.super[idx] {
		x.sup.remove(f, idx)
	}
	x.sets[idx], x.super[idx], x.size[idx] = nil, nil, 0
	x.pub[idx] = notPublished
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
//
// lensReady says that q already holds the posting lengths of a's features
// (lengths), looked up after every group that the caller needs found was
// published; containers then does not look them up again.
func (x *containIndex) containers(a []uint64, asuper []uint64, asize int, self uint32, ndocs int, dst []hit, q *containQuery, lensReady bool) []hit {
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
		if !lensReady {
			x.lengths(a, q)
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
			continue // its postings are going in: see delta
		}
		if s, ok := x.verify(a, asize, c, k); ok {
			dst = append(dst, hit{Group: c, Score: s})
		}
	}
	return dst
}

// lengths fills q.lens with the posting length of each feature of the
// sorted set a, and q.order with 0, 1, ..., len(a)−1: the cache-missing
// half of a search. It takes only the shards' locks, so an Add runs it
// without the Detector's lock, before its search (see containers).
func (x *containIndex) lengths(a []uint64, q *containQuery) {
	q.order, q.lens = q.order[:0], slices.Grow(q.lens[:0], len(a))[:len(a)]
	for i := range a {
		q.order = append(q.order, i)
	}
	x.eachRun(a, func(sh *shard, lo, hi int) {
		for i := lo; i < hi; i++ {
			v, ok := sh.p.lookup(a[i])
			q.lens[i] = sh.p.entryLen(v, ok)
		}
	})
}

// verify decides whether group c contains A (features a, drawn from asize
// shingles), k being need(len(a), Threshold), and returns the score: the
// containment rule of containers, for one candidate.
func (x *containIndex) verify(a []uint64, asize int, c uint32, k int) (float64, bool) {
	n := len(a)
	set := x.sets[c]
	small := float64(min(n, len(set)))
	if x.cfg.Method == DSC && x.cfg.Sampling == SampleMin {
		s := minContainment(a, set, x.size[c])
		return s, s >= x.cfg.Threshold && (s == 1 || evidence.Enough(s*float64(n), small, float64(x.cfg.MinOverlap)) && !(s < 0.9 && minContainment(set, a, asize) >= 0.9))
	}
	m := intersect(a, set, k)
	return float64(m) / float64(n), m >= k && (m == n || evidence.Enough(float64(m), small, float64(x.cfg.MinOverlap)) && !evidence.PartOf(float64(m), float64(len(set)), float64(n)))
}

// delta appends to dst the groups among cs that contain A, compared
// directly rather than found through the postings: the groups published
// or still pending since an Add's search. It is what containers would
// find among them: with DSC-SS, only a group sharing a super-shingle with
// A is a candidate.
func (x *containIndex) delta(a, asuper []uint64, asize int, cs []uint32, dst []hit) []hit {
	if len(a) == 0 {
		return dst
	}
	k := need(len(a), x.cfg.Threshold)
	for _, c := range cs {
		if x.cfg.Method == DSC && x.cfg.SuperShingle > 0 && !sharesAny(asuper, x.super[c]) {
			continue
		}
		if s, ok := x.verify(a, asize, c, k); ok {
			dst = append(dst, hit{Group: c, Score: s})
		}
	}
	return dst
}

// sharesAny reports whether the sorted sets a and b share an element.
func sharesAny(a, b []uint64) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			return true
		}
	}
	return false
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
