package imatch

import (
	"cmp"
	"container/heap"
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/matches"
	"github.com/seed-9ef9c1df/neardup/internal/postings"
)

// index is a Detector's state: its live documents and the groups they
// form. The Detector guards it with its lock; ReadFrom builds a fresh one
// and swaps it in whole.
//
// A group is one distinct pair (content digest, indexed keys): the
// documents of one analysed term sequence (exact copies, as the Detector
// reads them) that were given the same keys. Everything the matching reads
// is the keys, so the members of a group are interchangeable, and the
// posting lists hold groups, not documents: a further copy costs one heap
// insertion and grows no posting list. With a frozen table a content has
// one set of keys, so a group is all the copies of a content; with a
// table that changes, a copy that selects other terms than the earlier
// ones forms a second group of the same content (both carry the
// exact-content key, which ties them together).
type index struct {
	docs   *docset.Set
	refs   []uint32 // by dense index: the document's group, or noGroup
	handle []int32  // by dense index: its handle in the Detector's own table (own table only)
	groups []group  // by group number
	packed []string // by group number: the members' distinct terms, packed (own table only)
	free   []uint32 // free group numbers, reused first
	heaps  map[uint32][]uint32
	pos    map[uint32]uint32 // members of groups of two or more: position in their heap
	post   map[Key][]uint32  // key → the live groups indexed under it
	own    bool              // the Detector keeps its own table
}

// group is a set of live documents with one content and one key list. A
// group of one keeps its member in first; the members of a larger group
// are a binary min-heap by ID in index.heaps, so that the k smallest IDs
// are read in O(k log k) however large the group is (see smallest).
type group struct {
	keys    []Key  // lexicon keys by lexicon, then the exact-content key when indexed
	content Digest // digest of the members' analysed term sequence
	first   uint32
}

// noGroup marks a document in no group (one without terms); noDoc is no
// document.
const (
	noGroup = math.MaxUint32
	noDoc   = math.MaxUint32
)

func newIndex(maxText int, own bool) *index {
	return &index{
		docs:  docset.New("imatch", maxText),
		heaps: make(map[uint32][]uint32),
		pos:   make(map[uint32]uint32),
		post:  make(map[Key][]uint32),
		own:   own,
	}
}

// find returns the live group with these keys and content. Every group is
// in the posting list of each of its keys; the last key is the most
// specific (the exact-content key when indexed).
func (ix *index) find(keys []Key, content Digest) (uint32, bool) {
	for _, g := range ix.post[keys[len(keys)-1]] {
		if gr := &ix.groups[g]; gr.content == content && slices.Equal(gr.keys, keys) {
			return g, true
		}
	}
	return 0, false
}

// sameContent appends the live groups whose content is that of the live
// group g (g included).
func (ix *index) sameContent(dst []uint32, g uint32) []uint32 {
	gr := &ix.groups[g]
	for _, o := range ix.post[gr.keys[len(gr.keys)-1]] {
		if ix.groups[o].content == gr.content {
			dst = append(dst, o)
		}
	}
	return dst
}

// packedOf returns the packed terms kept for a live copy of content (own
// table only: every key list there ends with the exact-content key).
func (ix *index) packedOf(content Digest) (string, bool) {
	for _, g := range ix.post[Key{Lexicon: exactLexicon, Digest: content}] {
		if ix.groups[g].content == content {
			return ix.packed[g], true
		}
	}
	return "", false
}

// insert registers the live document idx, whose keys and content are
// given, in its group, which it creates and indexes when new; h is its
// handle in the own table and packed its terms as the table keeps them.
// A document without keys (no terms) joins no group.
func (ix *index) insert(idx uint32, keys []Key, content Digest, packed string, h int32) {
	if n := ix.docs.Cap(); n > len(ix.refs) {
		ix.refs = append(ix.refs, make([]uint32, n-len(ix.refs))...)
		if ix.own {
			ix.handle = append(ix.handle, make([]int32, n-len(ix.handle))...)
		}
	}
	if ix.own {
		ix.handle[idx] = h
	}
	if len(keys) == 0 {
		ix.refs[idx] = noGroup
		return
	}
	if g, ok := ix.find(keys, content); ok {
		ix.join(g, idx)
		return
	}
	var g uint32
	if n := len(ix.free); n > 0 {
		g, ix.free = ix.free[n-1], ix.free[:n-1]
	} else {
		g = uint32(len(ix.groups))
		ix.groups = append(ix.groups, group{})
		if ix.own {
			ix.packed = append(ix.packed, "")
		}
	}
	ix.groups[g] = group{keys: slices.Clip(keys), content: content, first: idx}
	if ix.own {
		ix.packed[g] = packed
	}
	ix.refs[idx] = g
	for _, k := range keys {
		ix.post[k] = append(ix.post[k], g)
	}
}

// join adds the document idx to the live group g: O(log c) for a group of
// c members; no posting list is touched.
func (ix *index) join(g, idx uint32) {
	ix.refs[idx] = g
	h, ok := ix.heaps[g]
	if !ok {
		h = []uint32{ix.groups[g].first}
		ix.pos[h[0]] = 0
	}
	h = append(h, idx)
	ix.up(h, len(h)-1)
	ix.heaps[g] = h
}

// remove forgets the live document idx and returns its handle in the own
// table (-1 without one). A group that keeps members stays indexed as it
// was; its last member takes it out of every posting list.
func (ix *index) remove(idx uint32) int32 {
	h := int32(-1)
	if ix.own {
		h = ix.handle[idx]
		ix.handle[idx] = -1
	}
	g := ix.refs[idx]
	ix.refs[idx] = noGroup
	if g == noGroup {
		return h
	}
	gr := &ix.groups[g]
	if hp, ok := ix.heaps[g]; ok {
		i := int(ix.pos[idx])
		delete(ix.pos, idx)
		last := len(hp) - 1
		hp[i] = hp[last]
		hp = hp[:last]
		if i < len(hp) {
			ix.down(hp, i)
			ix.up(hp, i)
		}
		if len(hp) == 1 {
			gr.first = hp[0]
			delete(ix.heaps, g)
			delete(ix.pos, hp[0])
		} else {
			if cap(hp) > 64 && len(hp) < cap(hp)/4 {
				hp = slices.Clone(hp) // the end of a flood gives its memory back
			}
			ix.heaps[g] = hp
		}
		return h
	}
	for _, k := range gr.keys {
		postings.Delete(ix.post, k, g)
	}
	*gr = group{}
	if ix.own {
		ix.packed[g] = ""
	}
	ix.free = append(ix.free, g)
	return h
}

// less orders documents by ID.
func (ix *index) less(a, b uint32) bool { return ix.docs.ID(a) < ix.docs.ID(b) }

// up moves h[i] towards the root while it is smaller than its parent,
// recording positions.
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

// members appends the members of the live group g to dst, unordered.
func (ix *index) members(dst []uint32, g uint32) []uint32 {
	if h, ok := ix.heaps[g]; ok {
		return append(dst, h...)
	}
	return append(dst, ix.groups[g].first)
}

// frontier is a min-heap of positions in one group's heap, by member ID.
type frontier struct {
	ix  *index
	h   []uint32
	pos []int
}

func (f *frontier) Len() int           { return len(f.pos) }
func (f *frontier) Less(a, b int) bool { return f.ix.less(f.h[f.pos[a]], f.h[f.pos[b]]) }
func (f *frontier) Swap(a, b int)      { f.pos[a], f.pos[b] = f.pos[b], f.pos[a] }
func (f *frontier) Push(x any)         { f.pos = append(f.pos, x.(int)) }
func (f *frontier) Pop() any {
	x := f.pos[len(f.pos)-1]
	f.pos = f.pos[:len(f.pos)-1]
	return x
}

// smallest appends a Match of the given score for each of the n members
// of the live group g with the smallest IDs, skip left out (it takes no
// place). In a heap
// every node is smaller than its children, so the next smallest member is
// always a child of one already taken: walking that frontier costs
// O(n log n), whatever the group's size.
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
	f := &frontier{ix: ix, h: h, pos: []int{0}}
	for taken := 0; taken < n && f.Len() > 0; {
		p := heap.Pop(f).(int)
		if h[p] != skip {
			dst = append(dst, detector.Match{ID: ix.docs.ID(h[p]), Score: score})
			taken++
		}
		for c := 2*p + 1; c <= 2*p+2 && c < len(h); c++ {
			heap.Push(f, c)
		}
	}
	return dst
}

// lexiconKeys counts the keys that are not the exact-content key.
func lexiconKeys(keys []Key) int {
	n := len(keys)
	if n > 0 && keys[n-1].Lexicon == exactLexicon {
		n--
	}
	return n
}

// candidate is a live group related to a key list, with its score.
type candidate struct {
	group uint32
	score float64
}

// matches returns the live documents other than skip sharing a key with
// keys, scored by the fraction of shared lexicon keys (1 on the
// exact-content key), the first limit of them by detector.SortMatches.
// Groups are scored as documents were before groups existed (every member
// of a group has its keys), and only the members that can make the cut
// are read.
func (ix *index) matches(keys []Key, skip uint32, limit int) []detector.Match {
	if len(keys) == 0 {
		return []detector.Match{}
	}
	var shared map[uint32]int
	var exact map[uint32]bool
	for _, k := range keys {
		for _, g := range ix.post[k] {
			if k.Lexicon == exactLexicon {
				if exact == nil {
					exact = map[uint32]bool{}
				}
				exact[g] = true
				continue
			}
			if shared == nil {
				shared = map[uint32]int{}
			}
			shared[g]++
		}
	}
	mine := lexiconKeys(keys)
	cands := make([]candidate, 0, len(shared)+len(exact))
	for g := range exact {
		cands = append(cands, candidate{g, 1})
	}
	for g, n := range shared {
		if !exact[g] {
			cands = append(cands, candidate{g, float64(n) / float64(max(mine, lexiconKeys(ix.groups[g].keys)))})
		}
	}
	return ix.collect(cands, skip, limit)
}

// collect returns the members of the candidate groups other than skip,
// the first limit of them by detector.SortMatches. Scores are taken from
// the highest down; at each score every group gives at most as many of
// its smallest IDs as places remain, so a group of copies costs time in
// the cap, not in its size.
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
			out = ix.smallest(out, c.group, room, skip, c.score)
		}
		i = j
	}
	return matches.Top(out, limit)
}
