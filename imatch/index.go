package imatch

import (
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/copyheap"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
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
	refs   []uint32         // by dense index: the document's group, or noGroup
	handle []int32          // by dense index: its handle in the Detector's own table (own table only)
	groups []group          // by group number
	packed []string         // by group number: the members' distinct terms, packed (own table only)
	free   []uint32         // free group numbers, reused first
	gs     copyheap.Groups  // the members of groups of two or more
	post   map[Key][]uint32 // key → the live groups indexed under it
	own    bool             // the Detector keeps its own table
}

// group is a set of live documents with one content and one key list. A
// group of one keeps its member in first; the members of a larger group
// are a binary min-heap by ID in index.gs, so that the k smallest IDs
// are read in O(k log k) however large the group is.
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
	docs := docset.New("imatch", maxText)
	return &index{
		docs: docs,
		gs:   copyheap.New(docs),
		post: make(map[Key][]uint32),
		own:  own,
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
	ix.gs.Join(g, ix.groups[g].first, idx)
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
	if ix.gs.Size(g) > 1 {
		if rest, alone := ix.gs.Leave(g, idx); alone {
			gr.first = rest
		}
		return h
	}
	for _, k := range gr.keys {
		docset.DeletePosting(ix.post, k, g)
	}
	*gr = group{}
	if ix.own {
		ix.packed[g] = ""
	}
	ix.free = append(ix.free, g)
	return h
}

// members appends the members of the live group g to dst, unordered.
func (ix *index) members(dst []uint32, g uint32) []uint32 {
	return ix.gs.AppendMembers(dst, g, ix.groups[g].first)
}

// lexiconKeys counts the keys that are not the exact-content key.
func lexiconKeys(keys []Key) int {
	n := len(keys)
	if n > 0 && keys[n-1].Lexicon == exactLexicon {
		n--
	}
	return n
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
	cands := make([]copyheap.Candidate, 0, len(shared)+len(exact))
	for g := range exact {
		cands = append(cands, copyheap.Candidate{Group: g, Score: 1})
	}
	for g, n := range shared {
		if !exact[g] {
			score := float64(n) / float64(max(mine, lexiconKeys(ix.groups[g].keys)))
			cands = append(cands, copyheap.Candidate{Group: g, Score: score})
		}
	}
	return ix.gs.Collect(cands, ix.first, skip, limit)
}

// first returns the member of the live group g when it has one member.
func (ix *index) first(g uint32) uint32 { return ix.groups[g].first }
