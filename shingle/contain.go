package shingle

import (
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/evidence"
)

// containIndex is the index of full fingerprinting and DSC over the live
// groups of exact copies, each known by its number: an inverted index from
// feature to groups, and DSC-SS's from super-shingle to groups; the
// groups' sorted feature sets are the engine's (features.set). Insert and
// Delete run under the engine's exclusive lock, Search under its read
// lock, concurrently with other searches, each with scratch of its own
// from qs.
type containIndex struct {
	cfg   Config
	post  engine.Postings
	sup   engine.Postings
	keys  copyKeys
	slots int // one more than the largest group number inserted
	qs    engine.Pool[*containQuery]
}

// containQuery is the scratch of one search.
type containQuery struct {
	mark  marks
	order []int    // feature order
	lens  []int    // posting lengths of the features
	cands []uint32 // candidates
}

func newContainIndex(cfg Config) *containIndex {
	x := &containIndex{cfg: cfg}
	x.qs.New = func() (*containQuery, error) { return new(containQuery), nil }
	return x
}

// Find returns the live group whose features are f's (engine.Finder).
func (x *containIndex) Find(f *features, groups *engine.Groups[features]) (uint32, bool) {
	return x.keys.find(f, groups, func(g, f *features) bool {
		return g.size == f.size && slices.Equal(g.set, f.set)
	})
}

// Insert indexes the new group g of features f: a posting per feature,
// and per super-shingle for DSC-SS.
func (x *containIndex) Insert(g uint32, f *features) {
	f.self = g
	x.slots = max(x.slots, int(g)+1)
	x.keys.add(f.key, g)
	x.post.Reserve(len(f.set)) // a large document: grow the table once
	for _, h := range f.set {
		x.post.Add(h, g)
	}
	if x.cfg.SuperShingle > 0 {
		for _, h := range f.super {
			x.sup.Add(h, g)
		}
	}
}

// Delete purges the group g of features f, whose last member left, from
// the postings.
func (x *containIndex) Delete(g uint32, f *features) {
	for _, h := range f.set {
		x.post.Remove(h, g)
	}
	x.post.Shrink()
	for _, h := range f.super {
		x.sup.Remove(h, g)
	}
	x.sup.Shrink()
	x.keys.drop(f.key, g)
}

// Search appends to dst the live groups that contain a text of features
// f (see containers); a stored group's exact copies contain it, score 1.
func (x *containIndex) Search(dst []hit, f *features, groups *engine.Groups[features]) []hit {
	q, _ := x.qs.Get() // New never fails
	dst = x.containers(f.set, f.super, f.size, f.self, groups, dst, q)
	x.qs.Put(q)
	if f.self != noGroup {
		dst = append(dst, hit{Group: f.self, Score: 1})
	}
	return dst
}

// Rank appends to dst every live group sharing a feature with a text of
// features f, scored as Search scores a container (the share of the
// text's features, or of its sample, found in the group), below the
// threshold too: the candidates of Nearest. It reads every posting list
// of the text's features, where Search reads the rarest only.
func (x *containIndex) Rank(dst []hit, f *features, groups *engine.Groups[features], _ int) []hit {
	a := f.set
	if len(a) == 0 {
		return dst
	}
	q, _ := x.qs.Get() // New never fails
	defer x.qs.Put(q)
	q.mark.next(x.slots)
	q.cands = q.cands[:0]
	q.gather(&x.post, a)
	defer q.release()
	for _, c := range q.cands {
		set := groups.Features(c).set
		s := float64(intersect(a, set, 0)) / float64(len(a))
		if x.cfg.Method == DSC && x.cfg.Sampling == SampleMin {
			s = minContainment(a, set, groups.Features(c).size)
		}
		if s > 0 {
			dst = append(dst, hit{Group: c, Score: s})
		}
	}
	if f.self != noGroup {
		dst = append(dst, hit{Group: f.self, Score: 1})
	}
	return dst
}

// gather appends to q.cands the groups, not yet marked, of the posting
// lists of keys in p. Concurrent searches share the postings, so they
// are read with scratch of their own.
func (q *containQuery) gather(p *engine.Postings, keys []uint64) {
	var one [1]uint32
	for _, h := range keys {
		v, ok := p.Lookup(h)
		for _, c := range p.Read(v, ok, &one) {
			if q.mark.visit(c) {
				q.cands = append(q.cands, c)
			}
		}
	}
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
func (x *containIndex) containers(a []uint64, asuper []uint64, asize int, self uint32, groups *engine.Groups[features], dst []hit, q *containQuery) []hit {
	n := len(a)
	if n == 0 {
		return dst
	}
	theta := x.cfg.Threshold
	q.mark.next(x.slots)
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
		q.gather(&x.sup, asuper)
	default:
		prefix := n
		if !minSample {
			prefix = n - k + 1
		}
		x.lengths(a, q)
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
		var one [1]uint32
		for _, i := range q.order[:prefix] {
			if q.lens[i] <= alone {
				continue // A alone holds it
			}
			v, ok := x.post.Lookup(a[i])
			for _, c := range x.post.Read(v, ok, &one) {
				if q.mark.visit(c) {
					q.cands = append(q.cands, c)
				}
			}
		}
	}
	defer q.release()
	for _, c := range q.cands {
		if s, ok := x.verify(a, asize, groups.Features(c), k); ok {
			dst = append(dst, hit{Group: c, Score: s})
		}
	}
	return dst
}

// lengths fills q.lens with the posting length of each feature of the
// sorted set a, and q.order with 0, 1, ..., len(a)−1.
func (x *containIndex) lengths(a []uint64, q *containQuery) {
	q.order, q.lens = q.order[:0], slices.Grow(q.lens[:0], len(a))[:len(a)]
	for i := range a {
		q.order = append(q.order, i)
		v, ok := x.post.Lookup(a[i])
		q.lens[i] = x.post.EntryLen(v, ok)
	}
}

// verify decides whether a group of features c contains A (features a,
// drawn from asize shingles), k being need(len(a), Threshold), and returns
// the score: the containment rule of containers, for one candidate.
func (x *containIndex) verify(a []uint64, asize int, c *features, k int) (float64, bool) {
	n := len(a)
	set := c.set
	small := float64(min(n, len(set)))
	if x.cfg.Method == DSC && x.cfg.Sampling == SampleMin {
		s := minContainment(a, set, c.size)
		return s, s >= x.cfg.Threshold && (s == 1 || evidence.Enough(s*float64(n), small, float64(x.cfg.MinOverlap)) && !(s < 0.9 && minContainment(set, a, asize) >= 0.9))
	}
	m := intersect(a, set, k)
	return float64(m) / float64(n), m >= k && (m == n || evidence.Enough(float64(m), small, float64(x.cfg.MinOverlap)) && !evidence.PartOf(float64(m), float64(len(set)), float64(n)))
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
