package mrcosine

import (
	"cmp"
	"maps"
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/matches"
)

// index is a Detector's state: the live documents and the groups of exact
// copies they form. The Detector guards it with its lock; ReadFrom builds a
// fresh one and swaps it in whole.
//
// Documents whose compared vectors (the unit signature, or the unit
// centered signature under Centered) are identical bit for bit share one
// group. Everything the index reads of a document (its score against any
// other vector, hashed vector, sketch and band keys) is a function of
// those bits, so a group answers exactly as each of its members would
// alone. The per-group arrays and the bucket table hold groups, not
// documents: a further copy of a live document costs a heap insertion
// into its group and nothing else. A group of one, by far the most
// common, costs about 8 bytes more than a document did before groups existed
// (its member and the document's group).
type index struct {
	docs *docset.Set
	ref  []uint32 // by document: its group, or noGroup (matches nothing)

	// By group number; a free number has first noDoc.
	vecs   []float32 // vecs[g*parts:]: the compared unit vector
	rnorm  []float32 // length of the hashed vector
	sketch []sketch  // the first sketchWords words of the sign pool
	keys   []uint64  // keys[g*Bands+b]: band keys
	first  []uint32  // the member of a group of one
	stamp  []uint32
	free   []uint32
	groups int // live groups

	heaps     map[uint32][]uint32 // groups of two or more: members, a min-heap by ID
	pos       map[uint32]uint32   // members of those groups: heap position
	heapsPeak int                 // most groups heaps held since it was last rebuilt

	buckets buckets
	epoch   uint32
	lists   [][]uint32 // scratch of query
	pass    []uint32   // scratch of query: groups the sketch test keeps
	far     []float64  // scratch of query: see sift

	checked  int // exact cosines computed by queries (for tests)
	rejected int // candidates the sketch dropped (for tests)
}

// noGroup marks a document in no group: its signature is zero (or the
// center under Centered) and it matches nothing. noDoc is no document.
const (
	noGroup = math.MaxUint32
	noDoc   = math.MaxUint32
)

func newIndex(maxText int) *index {
	return &index{
		docs:  docset.New("mrcosine", maxText),
		heaps: map[uint32][]uint32{},
		pos:   map[uint32]uint32{},
	}
}

func sameBits(a, b []float32) bool {
	for i, x := range a {
		if math.Float32bits(x) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// vec returns the compared vector of the live group g.
func (ix *index) vec(g uint32, parts int) []float32 {
	return ix.vecs[int(g)*parts : int(g+1)*parts]
}

// isLive reports whether the group number g is in use.
func (ix *index) isLive(g int) bool { return ix.first[g] != noDoc }

// find returns the live group whose vector is s.vec. An exact copy has
// the same band keys, so with an index it is in the shortest of the
// bucket lists of s's keys (none if one is empty), and no map is needed;
// an Exhaustive detector, whose every Add reads all groups anyway, scans
// them (O(1) for most: the first component differs).
func (ix *index) find(s *signed, parts int) (uint32, bool) {
	var in []uint32
	if len(s.keys) > 0 {
		for b, k := range s.keys {
			l := ix.buckets.get(uint32(b), k)
			if len(l) == 0 {
				return 0, false
			}
			if in == nil || len(l) < len(in) {
				in = l
			}
		}
		for _, g := range in {
			if sameBits(ix.vec(g, parts), s.vec) {
				return g, true
			}
		}
		return 0, false
	}
	x0 := math.Float32bits(s.vec[0])
	for g := range ix.first {
		if ix.isLive(g) && math.Float32bits(ix.vecs[g*parts]) == x0 && sameBits(ix.vec(uint32(g), parts), s.vec) {
			return uint32(g), true
		}
	}
	return 0, false
}

// register makes room for the document idx, in no group.
func (ix *index) register(idx uint32) {
	if n := int(idx) + 1 - len(ix.ref); n > 0 {
		ix.ref = append(ix.ref, make([]uint32, n)...)
	}
	ix.ref[idx] = noGroup
}

// insert puts the registered document idx, signed s (s.vec non-nil), in
// the group of its vector, creating the group when the vector is new.
func (ix *index) insert(idx uint32, s *signed, parts, bands int) {
	if g, ok := ix.find(s, parts); ok {
		ix.join(g, idx)
		return
	}
	ix.create(idx, s, parts, bands)
}

// create makes a new group of the registered document idx alone.
func (ix *index) create(idx uint32, s *signed, parts, bands int) {
	var g uint32
	if n := len(ix.free); n > 0 {
		g, ix.free = ix.free[n-1], ix.free[:n-1]
	} else {
		g = uint32(len(ix.first))
		ix.vecs = append(ix.vecs, make([]float32, parts)...)
		ix.rnorm = append(ix.rnorm, 0)
		ix.first = append(ix.first, noDoc)
		ix.stamp = append(ix.stamp, 0)
		if bands > 0 {
			ix.sketch = append(ix.sketch, sketch{})
			ix.keys = append(ix.keys, make([]uint64, bands)...)
		}
	}
	copy(ix.vecs[int(g)*parts:], s.vec)
	ix.rnorm[g], ix.first[g] = s.rnorm, idx
	ix.groups++
	ix.ref[idx] = g
	if bands > 0 {
		copy(ix.sketch[g][:], s.pool[:sketchWords])
		copy(ix.keys[int(g)*bands:], s.keys)
		for b, k := range s.keys {
			ix.buckets.add(uint32(b), k, g)
		}
	}
}

// join adds the registered document idx to the live group g: O(log c) ID
// comparisons for a group of c members; no bucket or array of groups
// grows.
func (ix *index) join(g, idx uint32) {
	ix.ref[idx] = g
	h, ok := ix.heaps[g]
	if !ok {
		h = []uint32{ix.first[g]}
		ix.pos[h[0]] = 0
	}
	h = append(h, idx)
	ix.up(h, len(h)-1)
	ix.heaps[g] = h
	ix.heapsPeak = max(ix.heapsPeak, len(ix.heaps))
}

// remove forgets the live document idx (before its ID leaves docs). The
// last member of a group takes the group out of the buckets.
func (ix *index) remove(idx uint32, bands int) {
	g := ix.ref[idx]
	ix.ref[idx] = noGroup
	if g == noGroup {
		return
	}
	if h, ok := ix.heaps[g]; ok {
		i, last := int(ix.pos[idx]), len(h)-1
		delete(ix.pos, idx)
		h[i] = h[last]
		h = h[:last]
		if i < len(h) {
			moved := h[i]
			ix.pos[moved] = uint32(i)
			ix.down(h, i)
			ix.up(h, int(ix.pos[moved]))
		}
		if len(h) == 1 {
			ix.first[g] = h[0]
			delete(ix.heaps, g)
			delete(ix.pos, h[0])
			// A Go map keeps its buckets when keys are deleted: rebuild
			// the maps when they have fallen to a quarter of their peak
			// (O(1) amortised).
			if ix.heapsPeak >= 1024 && len(ix.heaps) < ix.heapsPeak/4 {
				ix.heaps = maps.Collect(maps.All(ix.heaps))
				ix.pos = maps.Collect(maps.All(ix.pos))
				ix.heapsPeak = len(ix.heaps)
			}
		} else {
			if cap(h) > 64 && len(h) < cap(h)/4 {
				h = slices.Clone(h) // the end of a flood gives its memory back
			}
			ix.heaps[g] = h
		}
		return
	}
	if bands > 0 {
		for b, k := range ix.keys[int(g)*bands : int(g+1)*bands] {
			ix.buckets.remove(uint32(b), k, g)
		}
	}
	ix.first[g] = noDoc
	ix.free = append(ix.free, g)
	ix.groups--
}

// less orders documents by ID.
func (ix *index) less(a, b uint32) bool { return ix.docs.ID(a) < ix.docs.ID(b) }

// up moves h[i] towards the root while it is smaller than its parent.
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
		if c+1 < len(h) && ix.less(h[c+1], h[c]) {
			c++
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

// size returns the number of members of the live group g.
func (ix *index) size(g uint32) int {
	if h, ok := ix.heaps[g]; ok {
		return len(h)
	}
	return 1
}

// members returns the members of the live group g, unordered.
func (ix *index) members(g uint32) []uint32 {
	if h, ok := ix.heaps[g]; ok {
		return h
	}
	return []uint32{ix.first[g]}
}

// smallest appends a Match of score for each of the n members of the live
// group g with the smallest IDs, skip left out. It walks the heap best
// first from its root, keeping the frontier of positions whose parents
// were taken in a small heap of its own: O(n log n) ID comparisons however
// large the group.
func (ix *index) smallest(dst []detector.Match, g uint32, n int, skip uint32, score float64) []detector.Match {
	h := ix.members(g)
	if n >= len(h) {
		for _, o := range h {
			if o != skip {
				dst = append(dst, detector.Match{ID: ix.docs.ID(o), Score: score})
			}
		}
		return dst
	}
	var front []int // positions in h, a min-heap by the ID at each
	less := func(a, b int) bool { return ix.less(h[front[a]], h[front[b]]) }
	push := func(p int) {
		front = append(front, p)
		for i := len(front) - 1; i > 0; {
			q := (i - 1) / 2
			if !less(i, q) {
				break
			}
			front[i], front[q] = front[q], front[i]
			i = q
		}
	}
	pop := func() int {
		top := front[0]
		front[0] = front[len(front)-1]
		front = front[:len(front)-1]
		for i := 0; ; {
			c := 2*i + 1
			if c >= len(front) {
				break
			}
			if c+1 < len(front) && less(c+1, c) {
				c++
			}
			if !less(c, i) {
				break
			}
			front[i], front[c] = front[c], front[i]
			i = c
		}
		return top
	}
	push(0)
	for taken := 0; taken < n && len(front) > 0; {
		p := pop()
		if h[p] != skip {
			dst = append(dst, detector.Match{ID: ix.docs.ID(h[p]), Score: score})
			taken++
		}
		for c := 2*p + 1; c <= 2*p+2 && c < len(h); c++ {
			push(c)
		}
	}
	return dst
}

// candidate is a live group within T2 of a query, with its score.
type candidate struct {
	group uint32
	score float64
}

// collect returns the members of the candidate groups other than skip,
// the first limit of them by [detector.SortMatches]. Scores are taken from
// the highest down; at each score every group gives at most as many of
// its smallest IDs as places remain, so a group of c copies costs time in
// the cap, not in c.
func (ix *index) collect(cands []candidate, skip uint32, limit int) []detector.Match {
	// Only the limit+1 strongest groups can make the cut (each gives at
	// least one member, but skip's group perhaps none): a text most of
	// the collection is close to sorts those, not every candidate. (At
	// limit = MaxInt, limit+1 wraps below 0: Best keeps everything.)
	cands = matches.Best(cands, limit+1, func(c candidate) float64 { return c.score })
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
			if skip != noDoc && ix.ref[skip] == c.group && n < ix.size(c.group) {
				n++ // skip takes no place
			}
			out = ix.smallest(out, c.group, n, skip, c.score)
		}
		i = j
	}
	return matches.Top(out, limit)
}

// sortedIDs returns the IDs of the documents idxs other than skip, sorted.
func (ix *index) sortedIDs(idxs []uint32, skip uint32) []string {
	out := make([]string, 0, len(idxs))
	for _, o := range idxs {
		if o != skip {
			out = append(out, ix.docs.ID(o))
		}
	}
	slices.Sort(out)
	return out
}
