package tweezer

import (
	"maps"
	"math"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/copyheap"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/evidence"
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
	gs     copyheap.Groups     // the members of groups of two or more
	digest map[Digest][]uint32 // Exact mode and Cluster: digest → live groups
	keys   map[Digest][]uint32 // Signature.Key → live groups
	bare   map[Digest][]uint32 // Signature.Key → live caseless groups
	post   map[uint64][]uint32 // set modes: shingle hash → live groups

	// The most keys each map has held since it was last rebuilt: a Go map
	// keeps its buckets when keys are deleted, so Remove rebuilds a map
	// that has fallen to a quarter of its peak.
	digestPeak, keysPeak, barePeak, postPeak int
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
// a larger group are a binary min-heap by ID in index.gs, so that the k
// smallest IDs are found in O(k log k) however large the group.
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
	docs := docset.New("tweezer", maxText)
	return &index{
		docs:   docs,
		gs:     copyheap.New(docs),
		digest: make(map[Digest][]uint32),
		keys:   make(map[Digest][]uint32),
		bare:   make(map[Digest][]uint32),
		post:   make(map[uint64][]uint32),
	}
}

func (g *group) sig() docSig {
	return docSig{digest: g.digest, key: g.key, caseless: g.caseless, hashes: g.hashes}
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
	ix.gs.Join(g, ix.groups[g].first, idx)
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
	if ix.gs.Size(g) > 1 {
		if rest, alone := ix.gs.Leave(g, idx); alone {
			gr.first = rest
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

// matches returns the near-duplicates of a document signed s among the
// live documents other than skip, the strongest limit of them by
// [detector.SortMatches]. The related groups are found as the documents
// were before groups existed (every member of a group has its signature),
// and only the members that can make the cut are read.
func (ix *index) matches(s *docSig, skip uint32, mode Mode, threshold float64, minOverlap, limit int) []detector.Match {
	if s.empty {
		return []detector.Match{}
	}
	var cands []copyheap.Candidate
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
		cands = append(cands, copyheap.Candidate{Group: g, Score: 1})
	}
	if mode == Exact {
		for _, g := range ix.digest[s.digest] {
			if !byKey[g] {
				cands = append(cands, copyheap.Candidate{Group: g, Score: 1})
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
				cands = append(cands, copyheap.Candidate{Group: g, Score: j})
			}
		}
	}
	return ix.gs.Collect(cands, ix.first, skip, limit)
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

// first returns the member of the live group g when it has one member.
func (ix *index) first(g uint32) uint32 { return ix.groups[g].first }
