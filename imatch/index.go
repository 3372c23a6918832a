package imatch

import (
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/idftab"
)

// index is the searchable structure over a Detector's live groups: a
// posting list per key. The engine keeps the groups (one per distinct
// pair of content digest and key list: the documents of one analysed term
// sequence, exact copies as the Detector reads them, that were given the
// same keys) and their members; the posting lists hold groups, not
// documents, so a further copy grows no posting list. With a frozen table
// a content has one set of keys, so a group is all the copies of a
// content; with a table that changes, a copy that selects other terms
// than the earlier ones forms a second group of the same content (both
// carry the exact-content key, which ties them together).
type index struct {
	post map[Key][]uint32 // key → the live groups indexed under it
}

// ownIndex is the index of a Detector that keeps its own online table: it
// is the engine's Counter over that table.
type ownIndex struct {
	*index
	alg    *algorithm
	table  *idftab.Table
	unpack []string // Recount's scratch
}

var (
	_ engine.Finder[features]   = (*index)(nil)
	_ engine.Counter[features]  = (*ownIndex)(nil)
	_ engine.Resolver[features] = (*ownIndex)(nil)
	_ engine.Releaser[features] = (*algorithm)(nil)
)

// baseOf returns the posting lists of either index.
func baseOf(ix engine.Index[features]) *index {
	if o, ok := ix.(*ownIndex); ok {
		return o.index
	}
	return ix.(*index)
}

// Find returns the live group with the content and keys of f. Every group
// is in the posting list of each of its keys; the last key is the most
// specific (the exact-content key when indexed).
func (ix *index) Find(f *features, groups *engine.Groups[features]) (uint32, bool) {
	for _, g := range ix.post[f.keys[len(f.keys)-1]] {
		if gf := groups.Features(g); gf.content == f.content && slices.Equal(gf.keys, f.keys) {
			return g, true
		}
	}
	return 0, false
}

// sameContent appends the live groups whose content is that of the live
// group g of features f (g included). When the last key is the
// exact-content key, its posting list is those groups; otherwise the
// table is frozen and a content has one key list, so one group.
func (ix *index) sameContent(dst []uint32, g uint32, f *features) []uint32 {
	if last := f.keys[len(f.keys)-1]; last.Lexicon == exactLexicon {
		return append(dst, ix.post[last]...)
	}
	return append(dst, g)
}

// Insert indexes the new group g under each of its keys.
func (ix *index) Insert(g uint32, f *features) {
	for _, k := range f.keys {
		ix.post[k] = append(ix.post[k], g)
	}
}

// Delete takes the group g out of every posting list.
func (ix *index) Delete(g uint32, f *features) {
	for _, k := range f.keys {
		engine.DeletePosting(ix.post, k, g)
	}
}

// lexiconKeys counts the keys that are not the exact-content key.
func lexiconKeys(keys []Key) int {
	n := len(keys)
	if n > 0 && keys[n-1].Lexicon == exactLexicon {
		n--
	}
	return n
}

// Rank is Search: a digest detector sees the documents sharing one of its
// keys and no others, so Nearest finds what Query finds.
func (ix *index) Rank(dst []engine.Candidate, f *features, groups *engine.Groups[features], _ int) []engine.Candidate {
	return ix.Search(dst, f, groups)
}

// Search appends the live groups sharing a key with f, scored by the
// fraction of shared lexicon keys (1 on the exact-content key). Groups are
// scored as documents were before groups existed (every member of a group
// has its keys).
func (ix *index) Search(dst []engine.Candidate, f *features, groups *engine.Groups[features]) []engine.Candidate {
	var shared map[uint32]int
	var exact map[uint32]bool
	for _, k := range f.keys {
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
	mine := lexiconKeys(f.keys)
	dst = slices.Grow(dst, len(shared)+len(exact))
	for g := range exact {
		dst = append(dst, engine.Candidate{Group: g, Score: 1})
	}
	for g, n := range shared {
		if !exact[g] {
			score := float64(n) / float64(max(mine, lexiconKeys(groups.Features(g).keys)))
			dst = append(dst, engine.Candidate{Group: g, Score: score})
		}
	}
	return dst
}

// Resolve runs before an Add's turn: it finds the packed terms of a live
// copy of the document, so that a flood of copies keeps its terms once in
// the table, and enters the terms its Signer has no cell of yet, so that
// the turn touches no map.
func (ix *ownIndex) Resolve(f *features, groups *engine.Groups[features]) {
	s := f.s
	if len(s.terms) == 0 {
		return
	}
	f.packed = ""
	for _, g := range ix.post[Key{Lexicon: exactLexicon, Digest: f.content}] {
		if gf := groups.Features(g); gf.content == f.content {
			f.packed = gf.packed
			break
		}
	}
	if f.packed == "" {
		f.packed = idftab.Pack(s.terms)
	}
	ix.table.Resolve(s.ownTerms(ix.table))
	s.resolvedIn = ix.table
}

// Count counts the document in the table, in its turn, and leaves in its
// Signer the document frequencies of its terms after the count.
func (ix *ownIndex) Count(f *features) int32 {
	s := f.s
	if len(s.terms) > 0 && f.packed == "" {
		f.packed = idftab.Pack(s.terms) // not resolved (ReadFrom meanwhile)
	}
	h, n, df := ix.table.Count(s.ownTerms(ix.table), f.packed, s.ownDF[:0])
	s.ownN, s.ownDF, s.resolvedIn = n, df, nil
	if testHookInTurn != nil {
		testHookInTurn()
	}
	return h
}

// Complete selects the terms and signs them with the frequencies Count
// left, after the turn.
func (ix *ownIndex) Complete(f *features) {
	s := f.s
	f.keys = ix.alg.withExact(s.appendOwnKeys(nil, s.ownN, 0), f.content, len(s.toks) > 0)
}

// Peek signs the document as the table would weigh it once counted,
// without counting it (Query).
func (ix *ownIndex) Peek(f *features) {
	s := f.s
	var n int64
	n, s.ownDF = ix.table.Peek(s.ownTerms(ix.table), s.ownDF[:0])
	f.keys = ix.alg.withExact(s.appendOwnKeys(nil, n, 1), f.content, len(s.toks) > 0)
}

// Uncount takes the document of handle h out of the table.
func (ix *ownIndex) Uncount(h int32) { ix.table.Remove(h) }

// Recount counts a document of a snapshot: its terms are the packed terms
// of its group.
func (ix *ownIndex) Recount(f *features) int32 {
	if f == nil {
		return -1
	}
	ix.unpack = idftab.Unpack(ix.unpack[:0], f.packed)
	return ix.table.AddPacked(ix.unpack, f.packed)
}
