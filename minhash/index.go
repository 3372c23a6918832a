package minhash

import (
	"cmp"
	"math"
	"slices"
	"sync/atomic"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// index is a Detector's state: the live documents and the groups of exact
// copies they form. The Detector guards it with its lock; ReadFrom builds
// a fresh one and swaps it in whole.
//
// Documents whose content, as the Detector reads it, is identical share
// one group (Jaccard and Containment: equal signatures and set sizes;
// Weighted: equal phrase-set digests), and the LSH tables, the signature
// store and the exact-copy map hold groups, not documents: a further copy
// of a live document is one heap insertion into its group.
type index struct {
	docs    *engine.Set
	refs    []uint32      // by dense document index: its group, noGroup or pendingGroup
	counted []countedKeys // Weighted with online statistics, by dense document index

	groups  []group           // by group number
	free    []uint32          // free group numbers, reused first
	sigs    strided[uint32]   // K values per group
	digests []uint64          // Weighted: the phrase-set digest of each group
	gs      engine.CopyGroups // the members of groups of two or more
	exact   hashtab.Map       // exactKey → group
	clash   map[uint64][]uint32
	tables  []*table
	seq     uint32 // sequence number of the next group

	// Table insertions issued by Adds and applied shard by shard (see
	// search.go): ops counts those issued, and insertion n inserts the
	// group pend[n%maxPending]. Written under the Detector's exclusive
	// lock; read by shards under their own locks.
	ops  atomic.Uint64
	pend [maxPending]uint32

	// The change log: the groups created, freed or re-signed, the last
	// changeLogSize of them, changes counting all.
	changes uint64
	changed [changeLogSize]uint32

	scr   search   // lookup scratch of the exclusive lock's holder
	cands []uint32 // the candidates of its last lookup
}

// group is one distinct content with its live documents. A group of one,
// by far the most common, keeps its member in first; the members of a
// larger group are a binary min-heap by ID in index.gs, so that the k smallest IDs are found in O(k log k) however
// large the group.
type group struct {
	size   int32  // distinct shingles (phrases); 0 = free
	seq    uint32 // the order the group entered the LSH chains
	first  uint32 // the member of a group of one
	part   int8   // size partition (Containment)
	hasSig bool
}

// countedKeys are the distinct terms and phrases a document added to the
// online statistics: keys[:terms] the terms, keys[terms:] the phrases,
// each part in text order after Add and ascending after ReadFrom (a
// snapshot stores them ascending, see countedKeys.sorted). Copies with
// equal keys share one array.
type countedKeys struct {
	keys  []uint64
	terms int
}

// noGroup marks a document without words (it matches nothing);
// pendingGroup a registered document whose Add is still signing (Weighted
// mode with online statistics); noDoc is no document.
const (
	noGroup      = math.MaxUint32
	pendingGroup = math.MaxUint32 - 1
	noDoc        = math.MaxUint32
)

func (d *Detector) newIndex() *index {
	cfg := d.cfg
	docs := engine.NewSet("minhash", cfg.MaxTextBytes)
	ix := &index{
		docs:  docs,
		sigs:  newStrided[uint32](cfg.NumHashes, 0),
		gs:    engine.NewCopyGroups(docs),
		clash: map[uint64][]uint32{},
	}
	switch {
	case cfg.Mode == Containment:
		for _, r := range containmentLevels {
			ix.tables = append(ix.tables, newTable(cfg.NumHashes/r, r, &ix.sigs))
		}
	default:
		ix.tables = []*table{newTable(d.bands, d.rows, &ix.sigs)}
	}
	return ix
}

// exactKey returns the key of a content in index.exact: the digest itself
// in Weighted mode, a hash of signature and size otherwise.
func (d *Detector) exactKey(sig []uint32, size int, digest uint64) uint64 {
	if d.cfg.Mode == Weighted {
		return digest
	}
	h := hashtab.Mix64(uint64(size) ^ 0x6578616374) // "exact"
	for _, v := range sig {
		h = hashtab.Combine(h, uint64(v))
	}
	return h & exactKeyMask
}

// exactKeyMask is all ones; a test clears bits to make keys collide.
var exactKeyMask = ^uint64(0)

// same reports whether the live group g has the content (sig, size,
// digest).
func (d *Detector) same(ix *index, g uint32, sig []uint32, size int, digest uint64) bool {
	if d.cfg.Mode == Weighted {
		return ix.digests[g] == digest // the digest is what Weighted mode compares
	}
	return int(ix.groups[g].size) == min(size, math.MaxInt32) && slices.Equal(ix.sigs.of(g), sig)
}

// find returns the live group of content (sig, size, digest).
func (d *Detector) find(ix *index, sig []uint32, size int, digest uint64) (uint32, bool) {
	return d.findKeyed(ix, d.exactKey(sig, size, digest), sig, size, digest)
}

// findKeyed is find given the content's exactKey.
func (d *Detector) findKeyed(ix *index, key uint64, sig []uint32, size int, digest uint64) (uint32, bool) {
	g, ok := ix.exact.Get(key)
	if !ok {
		return 0, false
	}
	if d.same(ix, g, sig, size, digest) {
		return g, true
	}
	for _, g := range ix.clash[key] { // 64-bit key collisions: almost never
		if d.same(ix, g, sig, size, digest) {
			return g, true
		}
	}
	return 0, false
}

// place registers the document idx, of content (sig, size, digest) with
// size ≥ 1, in its group, creating and indexing the group when the
// content is new, and returns the group. An exact copy of a live document
// costs one heap insertion: no table grows. Caller holds the Detector's
// exclusive lock; the tables are complete when place returns.
func (d *Detector) place(ix *index, idx uint32, sig []uint32, size int, digest uint64) uint32 {
	d.drain(ix)
	g, _ := d.placeKeyed(ix, idx, sig, size, digest, d.exactKey(sig, size, digest), false)
	return g
}

// placeKeyed is place given the content's exactKey. With deferred it
// only issues a new group's insertion into the tables, which the shards
// apply later, and reports whether it did.
func (d *Detector) placeKeyed(ix *index, idx uint32, sig []uint32, size int, digest, key uint64, deferred bool) (uint32, bool) {
	ix.ensureRef(idx)
	if g, ok := d.findKeyed(ix, key, sig, size, digest); ok {
		ix.join(g, idx)
		if d.cfg.Mode == Weighted {
			d.drain(ix)
			ix.resign(g, sig)
		}
		return g, false
	}
	var g uint32
	if n := len(ix.free); n > 0 {
		g, ix.free = ix.free[n-1], ix.free[:n-1]
	} else {
		g = uint32(len(ix.groups))
		ix.groups = append(ix.groups, group{})
		if d.cfg.Mode == Weighted {
			ix.digests = append(ix.digests, 0)
		}
	}
	if ix.seq == math.MaxUint32 {
		ix.renumber()
	}
	ix.groups[g] = group{size: int32(min(size, math.MaxInt32)), seq: ix.seq, first: idx, part: partition(size), hasSig: len(sig) > 0}
	ix.seq++
	ix.refs[idx] = g
	ix.logChange(g)
	if d.cfg.Mode == Weighted {
		ix.digests[g] = digest
	}
	if p, taken := ix.exact.Ref(key); taken {
		ix.clash[key] = append(ix.clash[key], g)
	} else {
		*p = g
	}
	if len(sig) == 0 {
		return g, false
	}
	ix.sigs.ensure(g)
	copy(ix.sigs.of(g), sig)
	if !deferred {
		ix.insert(g)
		return g, false
	}
	for _, t := range ix.tables {
		t.prepare(g)
	}
	n := ix.ops.Load()
	if n-ix.applied() >= maxPending {
		d.drain(ix) // frees the slot of insertion n−maxPending
	}
	ix.pend[n%maxPending] = g
	ix.ops.Store(n + 1)
	return g, true
}

// applied returns the insertions every shard has applied.
func (ix *index) applied() uint64 {
	n := ix.ops.Load()
	for _, t := range ix.tables {
		for i := range t.shards {
			n = min(n, t.shards[i].applied.Load())
		}
	}
	return n
}

// insert links the group g, signed, into every table at once. Caller
// holds the Detector's exclusive lock and no insertion is pending.
func (ix *index) insert(g uint32) {
	for _, t := range ix.tables {
		t.insert(g)
	}
}

// logChange records that the group g was created, freed or re-signed.
func (ix *index) logChange(g uint32) {
	ix.changed[ix.changes%changeLogSize] = g
	ix.changes++
}

// resign gives the live group g the signature sig (none if empty) of its
// newest copy, in Weighted mode, whose weights drift with the statistics:
// the group leaves the band tables (under its old signature's keys) and
// enters them again as their newest group, O(bands); nothing grows.
// Caller holds the Detector's exclusive lock and no insertion is pending.
func (ix *index) resign(g uint32, sig []uint32) {
	gr := &ix.groups[g]
	if gr.hasSig {
		for _, t := range ix.tables {
			t.remove(g)
		}
	}
	if ix.seq == math.MaxUint32 {
		ix.renumber()
	}
	gr.seq, gr.hasSig = ix.seq, len(sig) > 0
	ix.seq++
	ix.logChange(g)
	if len(sig) > 0 {
		ix.sigs.ensure(g)
		copy(ix.sigs.of(g), sig)
		ix.insert(g)
	}
}

// renumber gives the live groups the sequence numbers 0, 1, … in their
// order, once per 2³² groups created.
func (ix *index) renumber() {
	var live []uint32
	for g := range ix.groups {
		if ix.groups[g].size > 0 {
			live = append(live, uint32(g))
		}
	}
	slices.SortFunc(live, func(a, b uint32) int { return cmp.Compare(ix.groups[a].seq, ix.groups[b].seq) })
	for i, g := range live {
		ix.groups[g].seq = uint32(i)
	}
	ix.seq = uint32(len(live))
}

func (ix *index) ensureRef(idx uint32) {
	for len(ix.refs) <= int(idx) {
		ix.refs = append(ix.refs, noGroup)
	}
}

// join adds the document idx to the live group g: O(log c) for a group
// of c members.
func (ix *index) join(g, idx uint32) {
	ix.refs[idx] = g
	ix.gs.Join(g, ix.groups[g].first, idx)
}

// leave takes the live document idx out of its group. A group that keeps
// members stays indexed as it was; the last member takes it out of the
// tables and maps. key is the group's exactKey. Caller holds the
// Detector's exclusive lock and no insertion is pending.
func (ix *index) leave(idx uint32, key uint64) {
	g := ix.refs[idx]
	ix.refs[idx] = noGroup
	if g == noGroup || g == pendingGroup {
		return
	}
	if ix.gs.Size(g) > 1 {
		if rest, alone := ix.gs.Leave(g, idx); alone {
			ix.groups[g].first = rest
		}
		return
	}
	if ix.groups[g].hasSig {
		for _, t := range ix.tables {
			t.remove(g)
		}
	}
	ix.logChange(g)
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
	ix.groups[g] = group{}
	ix.free = append(ix.free, g)
}

func (ix *index) dropClash(key uint64, g uint32) {
	c := slices.DeleteFunc(ix.clash[key], func(x uint32) bool { return x == g })
	if len(c) == 0 {
		delete(ix.clash, key)
	} else {
		ix.clash[key] = c
	}
}

// first returns the member of the live group g when it has one member.
func (ix *index) first(g uint32) uint32 { return ix.groups[g].first }
