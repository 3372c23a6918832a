package simhash

import (
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/internal/idftab"
)

// sig is what the Detector keeps of a document: the features of a text
// for the engine (package internal/engine), which keeps one per group of
// exact copies. Documents with the same terms in the same order (equal
// content digests) and the same fingerprint, or the same lack of one, are
// indistinguishable to every later answer: they form one group.
type sig struct {
	// s is the pooled Signer of a text being added or queried with the
	// Detector's own table, from Features until Complete or Peek signs
	// it (or the engine releases it); nil otherwise.
	s      *Signer
	fp     uint64
	dig    hashtab.Digest
	packed string // own table: the distinct terms, packed (idftab.Pack), shared by copies
	has    bool   // fp is a fingerprint
	hasDig bool   // the text has terms (and so a digest and a group)
}

// sigKey is the exact-copy key of a sig. The index finds groups by it
// itself (index.Find).
type sigKey struct {
	fp  uint64
	dig hashtab.Digest
	has bool
}

// index is SimHash's search structure over the live groups of exact
// copies, by group number: the groups with a fingerprint in a Hamming
// [Index], and in a digest map those matched by digest (Score 1). The
// engine guards it with its lock and replaces it whole on ReadFrom.
type index struct {
	ham    *Index
	exact  map[hashtab.Digest][]uint32 // groups matched by digest
	online bool                        // every group is in exact (fingerprints can change)
}

// ownIndex is the index of a Detector with its own online IDF table: an
// engine.Counter over the table, whose turns count each document before
// its fingerprint is computed.
type ownIndex struct {
	*index
	table *idftab.Table
	pool  *engine.Pool[*Signer]
	// groups is the engine's table of groups, recorded by Find, which
	// the engine calls under its exclusive lock before every insertion,
	// and read by Prepare under its read lock.
	groups *engine.Groups[sig]
}

var (
	_ engine.Finder[sig]   = (*index)(nil)
	_ engine.Counter[sig]  = (*ownIndex)(nil)
	_ engine.Preparer[sig] = (*ownIndex)(nil)
	_ engine.FreePeeker    = (*ownIndex)(nil)
)

// byDigest reports whether a group with (or without) a fingerprint is
// matched, and found, through the digest map: all groups when fingerprints
// can change (equal texts may then have different fingerprints), and the
// groups without a fingerprint otherwise.
func (ix *index) byDigest(has bool) bool { return ix.online || !has }

// Find returns the live group of key (fp, has, dig): O(1) through the
// digest map, or one exact lookup in the Hamming index.
func (ix *index) Find(f *sig, groups *engine.Groups[sig]) (uint32, bool) {
	if ix.byDigest(f.has) {
		for _, g := range ix.exact[f.dig] {
			if o := groups.Features(g); o.has == f.has && o.fp == f.fp {
				return g, true
			}
		}
		return 0, false
	}
	var buf [8]uint32
	for _, g := range ix.ham.lookup(f.fp, buf[:0]) {
		if groups.Features(g).dig == f.dig {
			return g, true
		}
	}
	return 0, false
}

// Insert indexes the new group g of key f: one Hamming index insertion
// for a fingerprint, one digest-list entry when matched by digest.
func (ix *index) Insert(g uint32, f *sig) {
	if f.has {
		ix.ham.Add(g, f.fp)
	}
	if ix.byDigest(f.has) {
		ix.exact[f.dig] = append(ix.exact[f.dig], g)
	}
}

// Delete takes the group g of key f out of the index when its last member
// has left.
func (ix *index) Delete(g uint32, f *sig) {
	if f.has {
		ix.ham.Remove(g, f.fp)
	}
	if ix.byDigest(f.has) {
		engine.DeletePosting(ix.exact, f.dig, g)
	}
}

// Search appends to dst the live groups related to a document of key f:
// those of equal digest (Score 1) and those within distance K of its
// fingerprint (Score 1 − distance/64), each once.
func (ix *index) Search(dst []engine.Candidate, f *sig, _ *engine.Groups[sig]) []engine.Candidate {
	dst, seen := ix.sameDigest(dst, f)
	if f.has {
		for _, n := range ix.ham.Query(f.fp, nil) {
			if !seen[n.ID] {
				dst = append(dst, engine.Candidate{Group: n.ID, Score: 1 - float64(n.Distance)/64})
			}
		}
	}
	return dst
}

// sameDigest appends to dst the live groups of f's content digest, scored
// 1, and returns them as a set too (nil when there are none).
func (ix *index) sameDigest(dst []engine.Candidate, f *sig) ([]engine.Candidate, map[uint32]bool) {
	var seen map[uint32]bool
	if f.hasDig {
		for _, g := range ix.exact[f.dig] {
			if seen == nil {
				seen = map[uint32]bool{}
			}
			seen[g] = true
			dst = append(dst, engine.Candidate{Group: g, Score: 1})
		}
	}
	return dst, seen
}

// rankFlips is the most bits of each table's key the multi-probe search
// of Rank flips: at 2 a fingerprint is met when some table's key differs
// from the text's in at most two bits (scanPerProbe counts these probes).
const rankFlips = 2

// Rank appends to dst what Search does and the k other groups nearest to
// f that Index.nearest finds (exactly, up to the index's scan size), at
// any distance, scored 1 − distance/64 as Search scores them: the
// candidates of Nearest.
func (ix *index) Rank(dst []engine.Candidate, f *sig, _ *engine.Groups[sig], k int) []engine.Candidate {
	dst, seen := ix.sameDigest(dst, f)
	if !f.has {
		return dst
	}
	for _, n := range ix.ham.nearest(f.fp, k) {
		if s := 1 - float64(n.Distance)/64; !seen[n.ID] && s > 0 {
			dst = append(dst, engine.Candidate{Group: n.ID, Score: s})
		}
	}
	return dst
}

// related returns the groups whose members are copies of the group g of
// key f (same terms): g itself, or every group of its digest when
// fingerprints can change.
func (ix *index) related(g uint32, f *sig) []uint32 {
	if ix.byDigest(f.has) {
		return ix.exact[f.dig]
	}
	return []uint32{g}
}

// Find is index.Find, recording the engine's table of groups for Prepare.
func (ix *ownIndex) Find(f *sig, groups *engine.Groups[sig]) (uint32, bool) {
	ix.groups = groups
	return ix.index.Find(f, groups)
}

// Prepare runs before an Add's turn, under the engine's read lock: it
// gives the document the packed terms of a live copy (equal digests, equal
// term sequences), so that copies share one string in the table, or a new
// packing, and looks up the table's cells of the terms its Signer has not
// met, so that the turn touches no map. A Query's features, signed before
// (Peek), need nothing.
func (ix *ownIndex) Prepare(f *sig) {
	s := f.s
	if s == nil || !f.hasDig {
		return
	}
	f.packed = ""
	if l := ix.exact[f.dig]; len(l) > 0 && ix.groups != nil {
		f.packed = ix.groups.Features(l[0]).packed
	}
	if f.packed == "" {
		f.packed = idftab.Pack(s.terms)
	}
	ix.table.Resolve(s.ownTerms(ix.table))
	s.resolved = true
}

// Count counts the document in the table, in its turn, and keeps in its
// Signer the document frequencies of its terms after the count.
func (ix *ownIndex) Count(f *sig) int32 {
	s := f.s
	h, n, dfs := ix.table.Count(s.ownTerms(ix.table), f.packed, s.dfs[:0])
	s.dfs, s.n, s.resolved = dfs, n, false
	if testHookInTurn != nil {
		testHookInTurn()
	}
	return h
}

// Complete weighs and signs the document with the frequencies of its turn,
// outside every lock, and puts its Signer back.
func (ix *ownIndex) Complete(f *sig) {
	s := f.s
	s.weighOwn(s.n, false)
	f.fp, f.has = s.sign()
	putSigner(ix.pool, f)
}

// PeeksFreely: Peek reads the table under its own lock, at any time.
func (ix *ownIndex) PeeksFreely() {}

// Peek weighs and signs a Query's text as the table would once it were
// counted (one more document, one more for each of its terms), without
// counting it.
func (ix *ownIndex) Peek(f *sig) {
	s := f.s
	if s == nil {
		return
	}
	var n int64
	n, s.dfs = ix.table.Peek(s.ownTerms(ix.table), s.dfs[:0])
	s.weighOwn(n, true)
	f.fp, f.has = s.sign()
	putSigner(ix.pool, f)
}

// Uncount takes the document of handle h out of the table.
func (ix *ownIndex) Uncount(h int32) { ix.table.Remove(h) }

// Recount counts a document of a snapshot, whose distinct terms f holds
// packed (none for a document without terms, which is not counted).
func (ix *ownIndex) Recount(f *sig) int32 {
	if f == nil {
		return -1
	}
	return ix.table.AddPacked(idftab.Unpack(nil, f.packed), f.packed)
}

// putSigner hands the Signer of f back to pool, and forgets the cells its
// Prepare entered in the table for a document that was not counted.
func putSigner(pool *engine.Pool[*Signer], f *sig) {
	s := f.s
	if s == nil {
		return
	}
	if s.resolved {
		s.cellsOf.Forget(s.ownTerms(s.cellsOf))
		s.resolved = false
	}
	f.s = nil
	pool.Put(s)
}
