package shingle

import (
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/evidence"
)

// containIndex is the index of full fingerprinting and DSC: each live
// document's sorted feature set (all shingles, or DSC's sample) and an
// inverted index from feature to documents.
type containIndex struct {
	cfg   Config
	sets  [][]uint64 // by dense index: sorted features
	size  []int      // by dense index: distinct shingles the set was drawn from
	super [][]uint64 // by dense index: DSC-SS super-shingles
	post  postings
	sup   postings
	mark  marks
	order []int    // scratch: feature order of a query
	lens  []int    // scratch: posting lengths of a query's features
	ents  []uint32 // scratch: posting entries of a query's features (lens < 0: absent)
	cands []uint32 // scratch: candidates

	// prepared is the document whose posting entries and lengths insert
	// left in lens and ents, so that Add's query does not look its
	// features up a second time (noPrepared: none).
	prepared uint32
}

func (x *containIndex) grow(idx uint32) {
	for int(idx) >= len(x.sets) {
		x.sets = append(x.sets, nil)
		x.size = append(x.size, 0)
		x.super = append(x.super, nil)
	}
}

// insert stores the features of document idx; the index keeps set and
// super (the caller hands over copies it made outside the lock).
func (x *containIndex) insert(idx uint32, set []uint64, size int, super []uint64) {
	x.grow(idx)
	x.sets[idx] = set
	x.size[idx] = size
	x.lens, x.ents = x.lens[:0], x.ents[:0]
	x.post.reserve(len(set))
	for _, f := range set {
		v, n := x.post.add(f, idx)
		x.lens = append(x.lens, n)
		x.ents = append(x.ents, v)
	}
	x.prepared = idx
	if x.cfg.SuperShingle > 0 {
		x.super[idx] = super
		for _, f := range super {
			x.sup.add(f, idx)
		}
	}
}

// noPrepared is containIndex.prepared when no query is prepared.
const noPrepared = ^uint32(0)

// remove forgets document idx and purges it from the postings.
func (x *containIndex) remove(idx uint32) {
	x.prepared = noPrepared
	if int(idx) >= len(x.sets) {
		return
	}
	for _, f := range x.sets[idx] {
		x.post.remove(f, idx)
	}
	for _, f := range x.super[idx] {
		x.sup.remove(f, idx)
	}
	x.sets[idx], x.super[idx], x.size[idx] = nil, nil, 0
	x.post.shrink()
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

// hit is one container found by a query.
type hit struct {
	idx   uint32
	score float64
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
func (x *containIndex) containers(a []uint64, asuper []uint64, self uint32, ndocs int, dst []hit) []hit {
	n := len(a)
	prepared := x.prepared == self && len(x.lens) == n
	x.prepared = noPrepared
	if n == 0 {
		return dst
	}
	theta := x.cfg.Threshold
	x.mark.next(ndocs)
	x.mark.visit(self)
	x.cands = x.cands[:0]
	minSample := x.cfg.Method == DSC && x.cfg.Sampling == SampleMin
	k := need(n, theta)
	switch {
	case x.cfg.Method == DSC && x.cfg.SuperShingle > 0:
		for _, f := range asuper {
			for _, c := range x.sup.list(f) {
				if x.mark.visit(c) {
					x.cands = append(x.cands, c)
				}
			}
		}
	default:
		prefix := n
		if !minSample {
			prefix = n - k + 1
		}
		x.order = x.order[:0]
		for i := range a {
			x.order = append(x.order, i)
		}
		if !prepared {
			// Containers, or an Add whose insert left no entries: look
			// the features up.
			x.lens, x.ents = x.lens[:0], x.ents[:0]
			for _, f := range a {
				v, ok := x.post.lookup(f)
				x.lens = append(x.lens, x.post.entryLen(v, ok))
				x.ents = append(x.ents, v)
			}
		}
		if prefix < n {
			// Features only A holds (a list of one) are the rarest and
			// yield no candidate: put them first without sorting, and
			// sort the rest by posting length. Any prefix of n−k+1
			// features is complete, so this changes no result; it keeps
			// a long text of new words from sorting all of them.
			k1 := 0
			for p, i := range x.order {
				if x.lens[i] <= 1 {
					x.order[p], x.order[k1] = x.order[k1], i
					k1++
				}
			}
			if k1 < prefix {
				slices.SortFunc(x.order[k1:], func(i, j int) int { return x.lens[i] - x.lens[j] })
			}
		}
		for _, i := range x.order[:prefix] {
			if x.lens[i] <= 1 {
				continue // A alone holds it
			}
			for _, c := range x.post.entryList(x.ents[i], true) {
				if x.mark.visit(c) {
					x.cands = append(x.cands, c)
				}
			}
		}
	}
	defer x.releaseScratch()
	for _, c := range x.cands {
		set := x.sets[c]
		small := float64(min(n, len(set)))
		if minSample {
			if s := minContainment(a, set, x.size[c]); s >= theta && (s == 1 || evidence.Enough(s*float64(n), small, float64(x.cfg.MinOverlap)) && !(s < 0.9 && minContainment(set, a, x.size[self]) >= 0.9)) {
				dst = append(dst, hit{c, s})
			}
			continue
		}
		if m := intersect(a, set, k); m >= k && (m == n || evidence.Enough(float64(m), small, float64(x.cfg.MinOverlap)) && !evidence.PartOf(float64(m), float64(len(set)), float64(n))) {
			dst = append(dst, hit{c, float64(m) / float64(n)})
		}
	}
	return dst
}

// releaseScratch lets go of query scratch an outlier text grew.
func (x *containIndex) releaseScratch() {
	if cap(x.order) > largeScratch {
		x.order, x.lens, x.ents = nil, nil, nil
	}
	if cap(x.cands) > largeScratch {
		x.cands = nil
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
