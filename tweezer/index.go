package tweezer

import (
	"cmp"
	"maps"
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/evidence"
	"github.com/seed-9ef9c1df/neardup/internal/matches"
	"github.com/seed-9ef9c1df/neardup/internal/postings"
)

// index is a Detector's state: the live documents and the groups of exact
// copies they form. The Detector guards it with its lock; ReadFrom builds a
// fresh one and swaps it in whole.
//
// Documents whose signatures are equal (digest, Key and caseless flag:
// everything the matching reads) share one group, and the maps below
// hold groups, not documents: a further copy of a live document is one
// heap insertion into its group, and no posting list grows.
type index struct {
	docs   *docset.Set
	refs   []uint32            // by dense document index: its group, or noGroup
	groups []group             // by group number
	free   []uint32            // free group numbers, reused first
	heaps  map[uint32][]uint32 // groups of two or more: all members, a heap by ID
	pos    map[uint32]uint32   // members of those groups: position in the heap
	digest map[Digest][]uint32 // Exact mode and Cluster: digest → live groups
	keys   map[Digest][]uint32 // Signature.Key → live groups
	bare   map[Digest][]uint32 // Signature.Key → live caseless groups
	post   map[uint64][]uint32 // set modes: shingle hash → live groups

	// The most keys each map has held since it was last rebuilt: a Go map
	// keeps its buckets when keys are deleted, so Remove rebuilds a map
	// that has fallen to a quarter of its peak.
	digestPeak, keysPeak, barePeak, postPeak, heapsPeak, posPeak int
}

// docSig is what the index keeps of a signature.
type docSig struct {
	digest   Digest
	key      Digest
	empty    bool
	caseless bool
	hashes   []uint64 // set modes: sorted distinct shingle hashes
}

// group is one distinct signature with its live documents. A group of
// one, by far the most common, keeps its member in first and takes no
// more memory than a document did before groups existed. The members of
// a larger group are a binary min-heap by ID in index.heaps, so that the k
// smallest IDs are found in O(k log k) however large the group (see
// smallest).
type group struct {
	digest   Digest
	key      Digest
	caseless bool
	first    uint32   // the member of a group of one
	hashes   []uint64 // set modes: sorted distinct shingle hashes
}

// noGroup marks a document in no group; noDoc is no document.
const (
	noGroup = math.MaxUint32
	noDoc   = math.MaxUint32
)

func newIndex(maxText int) *index {
	return &index{
		docs:   docset.New("tweezer", maxText),
		digest: make(map[Digest][]uint32),
		keys:   make(map[Digest][]uint32),
		bare:   make(map[Digest][]uint32),
		post:   make(map[uint64][]uint32),
		heaps:  make(map[uint32][]uint32),
		pos:    make(map[uint32]uint32),
	}
}

func (g *group) sig() docSig {
	return docSig{digest: g.digest, key: g.key, caseless: g.caseless, hashes: g.hashes}
}

// size returns the number of members of the live group g.
func (ix *index) size(g uint32) int {
	if h, ok := ix.heaps[g]; ok {
		return len(h)
	}
	return 1
}

// find returns the live group whose signature is s.
func (ix *index) find(s *docSig) (uint32, bool) {
	for _, g := range ix.digest[s.digest] {
		if gr := &ix.groups[g]; gr.key == s.key && gr.caseless == s.caseless {
			return g, true
		}
	}
	return 0, false
}

// insert registers the live document idx, whose signature is s, in the
// group of s, which it creates and indexes when s is new, and returns the
// group. An exact copy of a live document costs one heap insertion.
func (ix *index) insert(idx uint32, s docSig) uint32 {
	if int(idx) >= len(ix.refs) {
		ix.refs = append(ix.refs, make([]uint32, int(idx)+1-len(ix.refs))...)
	}
	if s.empty {
		ix.refs[idx] = noGroup
		return noGroup
	}
	if g, ok := ix.find(&s); ok {
		ix.join(g, idx)
		return g
	}
	var g uint32
	if n := len(ix.free); n > 0 {
		g, ix.free = ix.free[n-1], ix.free[:n-1]
	} else {
		g = uint32(len(ix.groups))
		ix.groups = append(ix.groups, group{})
	}
	ix.groups[g] = group{digest: s.digest, key: s.key, caseless: s.caseless, first: idx, hashes: s.hashes}
	ix.refs[idx] = g
	ix.digest[s.digest] = append(ix.digest[s.digest], g)
	ix.keys[s.key] = append(ix.keys[s.key], g)
	if s.caseless {
		ix.bare[s.key] = append(ix.bare[s.key], g)
	}
	for _, h := range s.hashes {
		ix.post[h] = append(ix.post[h], g)
	}
	ix.digestPeak = max(ix.digestPeak, len(ix.digest))
	ix.keysPeak = max(ix.keysPeak, len(ix.keys))
	ix.barePeak = max(ix.barePeak, len(ix.bare))
	ix.postPeak = max(ix.postPeak, len(ix.post))
	return g
}

// join adds the document idx to the live group g: O(log c) for a group of
// c members, and no index map is touched.
func (ix *index) join(g uint32, idx uint32) {
	ix.refs[idx] = g
	h, ok := ix.heaps[g]
	if !ok {
		h = []uint32{ix.groups[g].first}
		ix.pos[h[0]] = 0
	}
	h = append(h, idx)
	ix.up(h, len(h)-1)
	ix.heaps[g] = h
	ix.heapsPeak = max(ix.heapsPeak, len(ix.heaps))
	ix.posPeak = max(ix.posPeak, len(ix.pos))
}

// remove forgets the live document idx. A group that keeps members stays
// in the index as it was (another copy stands for it); the last member
// takes the group out of every map.
func (ix *index) remove(idx uint32) {
	g := ix.refs[idx]
	ix.refs[idx] = noGroup
	if g == noGroup {
		return
	}
	gr := &ix.groups[g]
	if h, ok := ix.heaps[g]; ok {
		i := int(ix.pos[idx])
		delete(ix.pos, idx)
		last := len(h) - 1
		if i != last {
			h[i] = h[last]
		}
		h = h[:last]
		if i < len(h) {
			ix.down(h, i)
			ix.up(h, i)
		}
		if len(h) == 1 {
			gr.first = h[0]
			delete(ix.heaps, g)
			delete(ix.pos, h[0])
			ix.heaps = shrink(ix.heaps, &ix.heapsPeak)
			ix.pos = shrink(ix.pos, &ix.posPeak)
		} else {
			if cap(h) > 64 && len(h) < cap(h)/4 {
				h = slices.Clone(h) // the end of a flood gives its memory back
			}
			ix.heaps[g] = h
		}
		return
	}
	// Lists are sets: every reader sorts its results, so the unordered
	// delete serves.
	postings.Delete(ix.digest, gr.digest, g)
	postings.Delete(ix.keys, gr.key, g)
	if gr.caseless {
		postings.Delete(ix.bare, gr.key, g)
	}
	for _, h := range gr.hashes {
		postings.Delete(ix.post, h, g)
	}
	*gr = group{}
	ix.free = append(ix.free, g)
	ix.digest = shrink(ix.digest, &ix.digestPeak)
	ix.keys = shrink(ix.keys, &ix.keysPeak)
	ix.bare = shrink(ix.bare, &ix.barePeak)
	ix.post = shrink(ix.post, &ix.postPeak)
}

// less orders documents by ID.
func (ix *index) less(a, b uint32) bool { return ix.docs.ID(a) < ix.docs.ID(b) }

// up moves h[i] towards the root of the heap h while it is smaller than
// its parent, keeping the documents' positions.
func (ix *index) up(h []uint32, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !ix.less(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		ix.pos[h[i]] = uint32(i)
		i = p
	}
	ix.pos[h[i]] = uint32(i)
}

// down moves h[i] away from the root while a child is smaller.
func (ix *index) down(h []uint32, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if r := c + 1; r < len(h) && ix.less(h[r], h[c]) {
			c = r
		}
		if !ix.less(h[c], h[i]) {
			break
		}
		h[i], h[c] = h[c], h[i]
		ix.pos[h[i]] = uint32(i)
		i = c
	}
	ix.pos[h[i]] = uint32(i)
}

// members appends every member of the live group g to dst, unordered.
func (ix *index) members(dst []uint32, g uint32) []uint32 {
	if h, ok := ix.heaps[g]; ok {
		return append(dst, h...)
	}
	return append(dst, ix.groups[g].first)
}

// smallest appends to dst a Match of the given score for each of the n
// members of the live group g with the smallest IDs, skip left out. It
// walks the heap from its root, keeping a frontier of the positions not
// yet taken whose parents were: O(n log n), whatever the group's size.
func (ix *index) smallest(dst []detector.Match, g uint32, n int, skip uint32, score float64) []detector.Match {
	h, ok := ix.heaps[g]
	if !ok {
		if first := ix.groups[g].first; first != skip && n > 0 {
			dst = append(dst, detector.Match{ID: ix.docs.ID(first), Score: score})
		}
		return dst
	}
	if n >= len(h) {
		for _, o := range h {
			if o != skip {
				dst = append(dst, detector.Match{ID: ix.docs.ID(o), Score: score})
			}
		}
		return dst
	}
	byID := func(a, b int) int { return cmp.Compare(ix.docs.ID(h[a]), ix.docs.ID(h[b])) }
	front := []int{0}
	for taken := 0; taken < n && len(front) > 0; {
		p := heapPop(&front, byID)
		if h[p] != skip {
			dst = append(dst, detector.Match{ID: ix.docs.ID(h[p]), Score: score})
			taken++
		}
		for c := 2*p + 1; c <= 2*p+2 && c < len(h); c++ {
			heapPush(&front, c, byID)
		}
	}
	return dst
}

// heapPush and heapPop keep a small binary min-heap of ints under cmp.
func heapPush(h *[]int, x int, cmp func(a, b int) int) {
	s := append(*h, x)
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if cmp(s[i], s[p]) >= 0 {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
	*h = s
}

func heapPop(h *[]int, cmp func(a, b int) int) int {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(s) {
			break
		}
		if r := c + 1; r < len(s) && cmp(s[r], s[c]) < 0 {
			c = r
		}
		if cmp(s[c], s[i]) >= 0 {
			break
		}
		s[i], s[c] = s[c], s[i]
		i = c
	}
	*h = s
	return top
}

// candidate is a live group related to a signature, with its score.
type candidate struct {
	group uint32
	score float64
}

// matches returns the near-duplicates of a document signed s among the
// live documents other than skip, the strongest limit of them by
// [detector.SortMatches]. The related groups are found as the documents
// were before groups existed (every member of a group has its signature),
// and only the members that can make the cut are read.
func (ix *index) matches(s *docSig, skip uint32, mode Mode, threshold float64, minOverlap, limit int) []detector.Match {
	if s.empty {
		return []detector.Match{}
	}
	var cands []candidate
	// Caseless documents match by Key (see Similarity): found here, they
	// are skipped below. A caseless document reads every document with its
	// Key, one with case only the caseless ones.
	var byKey map[uint32]bool
	withKey := ix.bare[s.key]
	if s.caseless {
		withKey = ix.keys[s.key]
	}
	for _, g := range withKey {
		if byKey == nil {
			byKey = map[uint32]bool{}
		}
		byKey[g] = true
		cands = append(cands, candidate{g, 1})
	}
	if mode == Exact {
		for _, g := range ix.digest[s.digest] {
			if !byKey[g] {
				cands = append(cands, candidate{g, 1})
			}
		}
	} else {
		shared := map[uint32]int{}
		for _, h := range s.hashes {
			for _, g := range ix.post[h] {
				if !byKey[g] {
					shared[g]++
				}
			}
		}
		for g, n := range shared {
			la, lb := len(s.hashes), len(ix.groups[g].hashes)
			j := score(mode, n, la, lb)
			if j >= threshold && (j == 1 || evidence.Enough(float64(n), float64(min(la, lb)), float64(minOverlap))) {
				cands = append(cands, candidate{g, j})
			}
		}
	}
	return ix.collect(cands, skip, limit)
}

// collect returns the members of the candidate groups other than skip,
// the first limit of them by [detector.SortMatches]. Scores are taken from
// the highest down; at each score every group gives at most as many of
// its smallest IDs as places remain, so a group of identical copies costs
// time in the cap, not in its size.
func (ix *index) collect(cands []candidate, skip uint32, limit int) []detector.Match {
	slices.SortFunc(cands, func(a, b candidate) int { return cmp.Compare(b.score, a.score) })
	var out []detector.Match
	for i := 0; i < len(cands) && len(out) < limit; {
		j := i
		for j < len(cands) && cands[j].score == cands[i].score {
			j++
		}
		room := limit - len(out)
		for _, c := range cands[i:j] {
			n := room
			if skip != noDoc && ix.refs[skip] == c.group && n < ix.size(c.group) {
				n++ // skip takes no place
			}
			out = ix.smallest(out, c.group, n, skip, c.score)
		}
		i = j
	}
	return matches.Top(out, limit)
}

// sortedIDs returns the IDs of the documents idxs, sorted.
func (ix *index) sortedIDs(idxs []uint32) []string {
	out := make([]string, len(idxs))
	for i, o := range idxs {
		out[i] = ix.docs.ID(o)
	}
	slices.Sort(out)
	return out
}

// minShrink is the least peak size at which a map is rebuilt: below it the
// buckets a map keeps are not worth a copy.
const minShrink = 1024

// shrink returns m rebuilt at its current size when it holds fewer than a
// quarter of its peak number of keys, and resets the peak; otherwise m.
// The rebuild copies at most a third of the keys deleted since the last
// one, so its cost is O(1) amortised per deletion.
func shrink[K comparable, V any](m map[K]V, peak *int) map[K]V {
	if *peak < minShrink || len(m) >= *peak/4 {
		return m
	}
	*peak = len(m)
	// Not maps.Clone, which may copy the buckets at their old size.
	out := make(map[K]V, len(m))
	maps.Copy(out, m)
	return out
}
