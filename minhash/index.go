package minhash

import (
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// index is the engine's index of the live groups of exact copies (Jaccard
// and Containment: equal signatures and set sizes; Weighted: equal
// phrase-set digests): their signatures, the LSH band tables over them and
// the exact-copy map. The engine calls it under its lock.
type index struct {
	a       *algorithm
	sigs    strided[uint32] // K values per group
	tables  []*table
	exact   hashtab.Map // exactKey → group
	clash   map[uint64][]uint32
	members []int32 // by group: its live members (Nearest counts them)
	seq     uint64  // sequence number of the next group to enter the chains
}

// noGroup marks no group.
const noGroup = engine.NoGroup

func newIndex(a *algorithm) *index {
	ix := &index{a: a, sigs: newStrided[uint32](a.cfg.NumHashes, 0), clash: map[uint64][]uint32{}}
	if a.cfg.Mode == Containment {
		for _, r := range containmentLevels {
			ix.tables = append(ix.tables, newTable(a.cfg.NumHashes/r, r, &ix.sigs))
		}
	} else {
		ix.tables = []*table{newTable(a.bands, a.rows, &ix.sigs)}
	}
	return ix
}

// same reports whether the live group g has the content of f.
func (ix *index) same(g uint32, f *sketch, groups *engine.Groups[sketch]) bool {
	o := groups.Features(g)
	if ix.a.cfg.Mode == Weighted {
		return o.digest == f.digest // the digest is what Weighted mode compares
	}
	return o.size == f.size && slices.Equal(o.sig, f.sig)
}

// Find returns the live group of f's content.
func (ix *index) Find(f *sketch, groups *engine.Groups[sketch]) (uint32, bool) {
	key := ix.a.keyOf(f)
	g, ok := ix.exact.Get(key)
	if !ok {
		return 0, false
	}
	if ix.same(g, f, groups) {
		return g, true
	}
	for _, g := range ix.clash[key] { // 64-bit key collisions: almost never
		if ix.same(g, f, groups) {
			return g, true
		}
	}
	return 0, false
}

// own returns the live group of f's content, or noGroup.
func (ix *index) own(f *sketch, groups *engine.Groups[sketch]) uint32 {
	if f.size == 0 {
		return noGroup
	}
	if g, ok := ix.Find(f, groups); ok {
		return g
	}
	return noGroup
}

// Insert indexes the new group g: its signature moves into the store and
// the group enters the head of its band chains, O(bands).
func (ix *index) Insert(g uint32, f *sketch) {
	key, bands := ix.a.keyOf(f), ix.a.prepared(f)
	f.sk, f.load = nil, nil
	f.part = partition(int(f.size))
	if p, taken := ix.exact.Ref(key); taken {
		ix.clash[key] = append(ix.clash[key], g)
	} else {
		*p = g
	}
	for len(ix.members) <= int(g) {
		ix.members = append(ix.members, 0)
	}
	ix.members[g] = 1
	ix.sign(g, f, f.sig, bands)
}

// sign gives the group g, of features f, the signature sig (none if
// empty) and puts it at the head of its band chains; bands are the band
// keys of sig for every table (appendKeys), or nil to compute them.
func (ix *index) sign(g uint32, f *sketch, sig []uint32, bands []uint64) {
	f.seq = ix.seq
	ix.seq++
	if len(sig) == 0 {
		f.sig = nil
		return
	}
	ix.sigs.ensure(g)
	own := ix.sigs.of(g)
	copy(own, sig)
	f.sig = own
	for l, t := range ix.tables {
		var keys []uint64
		if bands != nil {
			keys = ix.tableKeys(bands, l)
		}
		t.insert(g, keys)
	}
}

// Renew gives the group g the signature of its newest copy, in Weighted
// mode, whose weights drift with the statistics: the group leaves the band
// tables and enters them again as their newest group, O(bands).
func (ix *index) Renew(g uint32, group, f *sketch) {
	if ix.a.cfg.Mode != Weighted {
		return
	}
	if group.sig != nil {
		for _, t := range ix.tables {
			t.remove(g)
		}
	}
	ix.sign(g, group, f.sig, ix.a.prepared(f))
}

// Delete takes the group g out of the tables and the exact-copy map.
func (ix *index) Delete(g uint32, f *sketch) {
	if f.sig != nil {
		for _, t := range ix.tables {
			t.remove(g)
		}
	}
	ix.members[g] = 0
	key := ix.a.keyOf(f)
	if h, ok := ix.exact.Get(key); ok && h == g {
		if c := ix.clash[key]; len(c) > 0 {
			ix.exact.Set(key, c[len(c)-1])
			ix.dropClash(key, c[len(c)-1])
		} else {
			ix.exact.Delete(key)
		}
	} else {
		ix.dropClash(key, g)
	}
}

func (ix *index) dropClash(key uint64, g uint32) {
	c := slices.DeleteFunc(ix.clash[key], func(x uint32) bool { return x == g })
	if len(c) == 0 {
		delete(ix.clash, key)
	} else {
		ix.clash[key] = c
	}
}

// Join and Leave count the members of the group g.
func (ix *index) Join(g uint32, _ *sketch)  { ix.members[g]++ }
func (ix *index) Leave(g uint32, _ *sketch) { ix.members[g]-- }

// Search appends the verified candidates of f: the groups sharing enough
// band keys with its signature whose estimate reaches Config.Threshold,
// and the group of its own content.
func (ix *index) Search(dst []engine.Candidate, f *sketch, groups *engine.Groups[sketch]) []engine.Candidate {
	sc, _ := ix.a.searches.Get()
	defer ix.a.searches.Put(sc)
	p := probe{f: f, own: ix.own(f, groups)}
	sc.keys = ix.a.bandsOf(sc.keys[:0], f)
	ix.candidates(sc, p, groups)
	return append(dst, sc.scored...)
}

// strided holds a fixed number of values per group in chunks of chunkDocs
// groups: growing it allocates one chunk and never copies, where a
// doubling slice copies everything it holds and touches twice the memory
// at each step.
type strided[T comparable] struct {
	per    int
	fill   T // initial value of new entries
	chunks [][]T
}

// chunkShift sets the groups per chunk of a strided store: 256.
const (
	chunkShift = 8
	chunkDocs  = 1 << chunkShift
	chunkMask  = chunkDocs - 1
)

func newStrided[T comparable](per int, fill T) strided[T] { return strided[T]{per: per, fill: fill} }

// ensure makes doc addressable.
func (s *strided[T]) ensure(doc uint32) {
	for int(doc>>chunkShift) >= len(s.chunks) {
		c := make([]T, s.per*chunkDocs)
		var zero T
		if s.fill != zero {
			for i := range c {
				c[i] = s.fill
			}
		}
		s.chunks = append(s.chunks, c)
	}
}

// of returns the values of doc, which must have been ensured.
func (s *strided[T]) of(doc uint32) []T {
	c := s.chunks[doc>>chunkShift]
	i := int(doc&chunkMask) * s.per
	return c[i : i+s.per : i+s.per]
}
