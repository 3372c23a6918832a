package tweezer

import (
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/evidence"
)

// docSig is what the index keeps of a signature: the features of a text
// for the engine (package internal/engine), which keeps one per group of
// exact copies.
type docSig struct {
	digest   Digest
	key      Digest
	empty    bool
	caseless bool
	hashes   []uint64 // set modes: sorted distinct shingle hashes
}

// sigKey is the exact-copy key of a signature: everything the matching
// reads but the shingle hashes, which the digest stands for. The index
// finds groups by it itself (index.Find).
type sigKey struct {
	digest, key Digest
	caseless    bool
}

// index is Tweezer's search structure over the live groups of exact
// copies, by group number. The engine guards it with its lock and
// replaces it whole on ReadFrom.
type index struct {
	mode       Mode
	threshold  float64
	minOverlap int

	digest map[Digest][]uint32 // Exact mode and Cluster: digest → live groups
	keys   map[Digest][]uint32 // Signature.Key → live groups
	bare   map[Digest][]uint32 // Signature.Key → live caseless groups
	post   map[uint64][]uint32 // set modes: shingle hash → live groups

	// The most keys each map has held since it was last rebuilt (see
	// engine.ShrinkMap).
	digestPeak, keysPeak, barePeak, postPeak int
}

func newIndex(cfg *Config) *index {
	return &index{
		mode:       cfg.Mode,
		threshold:  cfg.Threshold,
		minOverlap: cfg.MinOverlap,
		digest:     make(map[Digest][]uint32),
		keys:       make(map[Digest][]uint32),
		bare:       make(map[Digest][]uint32),
		post:       make(map[uint64][]uint32),
	}
}

// Find returns the live group whose signature is s (digest, Key and case),
// through the digest map: the engine keeps no table of its own for it.
func (ix *index) Find(s *docSig, groups *engine.Groups[docSig]) (uint32, bool) {
	for _, g := range ix.digest[s.digest] {
		if o := groups.Features(g); o.key == s.key && o.caseless == s.caseless {
			return g, true
		}
	}
	return 0, false
}

// Insert indexes the new group g of signature s.
func (ix *index) Insert(g uint32, s *docSig) {
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
}

// Delete takes the group g of signature s out of every map; a map that
// has fallen to a quarter of its peak is rebuilt.
func (ix *index) Delete(g uint32, s *docSig) {
	// Lists are sets: every reader sorts its results, so the unordered
	// delete serves.
	engine.DeletePosting(ix.digest, s.digest, g)
	engine.DeletePosting(ix.keys, s.key, g)
	if s.caseless {
		engine.DeletePosting(ix.bare, s.key, g)
	}
	for _, h := range s.hashes {
		engine.DeletePosting(ix.post, h, g)
	}
	ix.digest = engine.ShrinkMap(ix.digest, &ix.digestPeak)
	ix.keys = engine.ShrinkMap(ix.keys, &ix.keysPeak)
	ix.bare = engine.ShrinkMap(ix.bare, &ix.barePeak)
	ix.post = engine.ShrinkMap(ix.post, &ix.postPeak)
}

// Search appends to dst the live groups related to a document signed s,
// with their scores: those of its Key when either side is caseless (see
// Similarity), then in Exact mode those of its digest, in the set modes
// those reaching the threshold with enough evidence.
func (ix *index) Search(dst []engine.Candidate, s *docSig, groups *engine.Groups[docSig]) []engine.Candidate {
	return ix.search(dst, s, groups, false)
}

// Rank appends to dst the live groups Search lists and, in the set modes,
// every other group sharing a shingle with s, by the same score: the
// candidates of Nearest.
func (ix *index) Rank(dst []engine.Candidate, s *docSig, groups *engine.Groups[docSig], _ int) []engine.Candidate {
	return ix.search(dst, s, groups, true)
}

// search is Search, or with all Rank.
func (ix *index) search(dst []engine.Candidate, s *docSig, groups *engine.Groups[docSig], all bool) []engine.Candidate {
	if s.empty {
		return dst
	}
	// Caseless documents match by Key: found here, they are skipped
	// below. A caseless document reads every document with its Key, one
	// with case only the caseless ones.
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
		dst = append(dst, engine.Candidate{Group: g, Score: 1})
	}
	if ix.mode == Exact {
		for _, g := range ix.digest[s.digest] {
			if !byKey[g] {
				dst = append(dst, engine.Candidate{Group: g, Score: 1})
			}
		}
		return dst
	}
	shared := map[uint32]int{}
	for _, h := range s.hashes {
		for _, g := range ix.post[h] {
			if !byKey[g] {
				shared[g]++
			}
		}
	}
	for g, n := range shared {
		la, lb := len(s.hashes), len(groups.Features(g).hashes)
		j := score(ix.mode, n, la, lb)
		if all || j >= ix.threshold && (j == 1 || evidence.Enough(float64(n), float64(min(la, lb)), float64(ix.minOverlap))) {
			dst = append(dst, engine.Candidate{Group: g, Score: j})
		}
	}
	return dst
}
