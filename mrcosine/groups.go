package mrcosine

import (
	"math"
	"sync/atomic"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/copyheap"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
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
	ref  []uint32 // by document: its group, or noGroup (matches nothing by signature)

	// By group number; a free number has first noDoc. The two widest
	// arrays grow by blocks of blockGroups groups, so that an insertion
	// under the exclusive lock never copies them.
	vblk   [][]float32 // vblk[g/blockGroups][(g%blockGroups)*parts:]: the compared unit vector
	kblk   [][]uint64  // kblk[g/blockGroups][(g%blockGroups)*Bands+b]: band keys
	rnorm  []float32   // length of the hashed vector
	sketch []sketch    // the first sketchWords words of the sign pool
	first  []uint32    // the member of a group of one
	born   []uint64    // the value of seq that created the group
	free   []uint32
	groups int // live groups

	gs copyheap.Groups // groups of two or more: members, a min-heap by ID

	buckets buckets

	// seq counts the creations and deletions of groups, the only changes
	// of the index that change which groups a query finds; removed is the
	// seq of the latest deletion. log holds the latest creations, so an
	// Add that searched the index at seq S under the shared lock can
	// compare itself, under the exclusive lock, with exactly the groups
	// created since S; every creation after seq logFrom is in it.
	seq     uint64
	removed uint64
	log     []created
	logFrom uint64

	// Text groups: the documents that match nothing by signature (zero,
	// or the center under Centered) but read at least one character, in
	// groups of exact copies by the digest of what they read (readDigest),
	// numbered apart from the groups above and never in the buckets.
	tby    map[hashx.Digest]uint32 // digest → its live text group
	tdig   []hashx.Digest          // by text group: its digest
	tfirst []uint32                // by text group: its member when alone; noDoc when free
	tfree  []uint32
	tref   map[uint32]uint32 // document → its text group
	tgs    copyheap.Groups   // text groups of two or more

	checked  atomic.Int64 // exact cosines computed by queries (for tests)
	rejected atomic.Int64 // candidates the sketch dropped (for tests)
}

// created is an entry of the index's log: group g was created at seq.
type created struct {
	seq uint64
	g   uint32
}

// logKeep is the number of creations the log keeps at least: an Add whose
// search is older than that searches again under the exclusive lock.
const logKeep = 512

// blockGroups is the number of groups of a block of the per-group vector
// and band key arrays.
const blockGroups = 256

// noGroup marks a document in no group: its signature is zero (or the
// center under Centered), so it matches nothing by signature (its exact
// copies are found by text group). noDoc is no document.
const (
	noGroup = math.MaxUint32
	noDoc   = math.MaxUint32
)

func newIndex(maxText int) *index {
	docs := docset.New("mrcosine", maxText)
	return &index{docs: docs, gs: copyheap.New(docs), tby: map[hashx.Digest]uint32{}, tref: map[uint32]uint32{}, tgs: copyheap.New(docs)}
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
	o := int(g%blockGroups) * parts
	return ix.vblk[g/blockGroups][o : o+parts : o+parts]
}

// keysOf returns the band keys of the live group g.
func (ix *index) keysOf(g uint32, bands int) []uint64 {
	o := int(g%blockGroups) * bands
	return ix.kblk[g/blockGroups][o : o+bands : o+bands]
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
		if ix.isLive(g) {
			if v := ix.vec(uint32(g), parts); math.Float32bits(v[0]) == x0 && sameBits(v, s.vec) {
				return uint32(g), true
			}
		}
	}
	return 0, false
}

// findSince returns the live group whose vector is vec among those
// created in recent, a tail of the log.
func (ix *index) findSince(recent []created, vec []float32, parts int) (uint32, bool) {
	for _, e := range recent {
		if ix.bornAt(e) && sameBits(ix.vec(e.g, parts), vec) {
			return e.g, true
		}
	}
	return 0, false
}

// bornAt reports whether the group of the log entry e is live and the one
// e created (its number not freed and reused since).
func (ix *index) bornAt(e created) bool { return ix.first[e.g] != noDoc && ix.born[e.g] == e.seq }

// since returns the tail of the log after seq, and false when the log no
// longer holds every creation since then.
func (ix *index) since(seq uint64) ([]created, bool) {
	if seq < ix.logFrom {
		return nil, false
	}
	i := len(ix.log)
	for i > 0 && ix.log[i-1].seq > seq {
		i--
	}
	return ix.log[i:], true
}

// register makes room for the document idx, in no group.
func (ix *index) register(idx uint32) {
	if n := int(idx) + 1 - len(ix.ref); n > 0 {
		ix.ref = append(ix.ref, make([]uint32, n)...)
	}
	ix.ref[idx] = noGroup
}

// create makes a new group of the registered document idx alone.
func (ix *index) create(idx uint32, s *signed, parts, bands int) {
	var g uint32
	if n := len(ix.free); n > 0 {
		g, ix.free = ix.free[n-1], ix.free[:n-1]
	} else {
		g = uint32(len(ix.first))
		if g%blockGroups == 0 {
			ix.vblk = append(ix.vblk, make([]float32, blockGroups*parts))
			if bands > 0 {
				ix.kblk = append(ix.kblk, make([]uint64, blockGroups*bands))
			}
		}
		ix.rnorm = append(ix.rnorm, 0)
		ix.first = append(ix.first, noDoc)
		ix.born = append(ix.born, 0)
		if bands > 0 {
			ix.sketch = append(ix.sketch, sketch{})
		}
	}
	copy(ix.vec(g, parts), s.vec)
	ix.rnorm[g], ix.first[g] = s.rnorm, idx
	ix.groups++
	ix.ref[idx] = g
	ix.seq++
	ix.born[g] = ix.seq
	if len(ix.log) == 2*logKeep {
		ix.logFrom = ix.log[logKeep-1].seq
		ix.log = append(ix.log[:0], ix.log[logKeep:]...)
	}
	ix.log = append(ix.log, created{ix.seq, g})
	if bands > 0 {
		copy(ix.sketch[g][:], s.pool[:sketchWords])
		copy(ix.keysOf(g, bands), s.keys)
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
	ix.gs.Join(g, ix.first[g], idx)
}

// remove forgets the live document idx (before its ID leaves docs). The
// last member of a group takes the group out of the buckets.
func (ix *index) remove(idx uint32, bands int) {
	g := ix.ref[idx]
	ix.ref[idx] = noGroup
	if g == noGroup {
		ix.leaveText(idx)
		return
	}
	if ix.gs.Size(g) > 1 {
		if rest, alone := ix.gs.Leave(g, idx); alone {
			ix.first[g] = rest
		}
		return
	}
	if bands > 0 {
		for b, k := range ix.keysOf(g, bands) {
			ix.buckets.remove(uint32(b), k, g)
		}
	}
	ix.first[g] = noDoc
	ix.free = append(ix.free, g)
	ix.groups--
	ix.seq++
	ix.removed = ix.seq
}

// collect returns the members of the candidate groups other than skip,
// the first limit of them by [detector.SortMatches]. Scores are taken from
// the highest down; at each score every group gives at most as many of
// its smallest IDs as places remain, so a group of c copies costs time in
// the cap, not in c.
func (ix *index) collect(cands []copyheap.Candidate, skip uint32, limit int) []detector.Match {
	// Only the limit+1 strongest groups can make the cut (each gives at
	// least one member, but skip's group perhaps none): a text most of
	// the collection is close to sorts those, not every candidate. (At
	// limit = MaxInt, limit+1 wraps below 0: Best keeps everything.)
	cands = copyheap.Best(cands, limit+1, func(c copyheap.Candidate) float64 { return c.Score })
	return ix.gs.Collect(cands, ix.firstOf, skip, limit)
}

// firstOf returns the member of the live group g when it has one member.
func (ix *index) firstOf(g uint32) uint32 { return ix.first[g] }

// textGroup returns the live text group of the digest dig.
func (ix *index) textGroup(dig hashx.Digest) (uint32, bool) {
	g, ok := ix.tby[dig]
	return g, ok
}

// joinText adds the registered document idx, which matches nothing by
// signature, to the text group of dig, creating it if there is none:
// O(log c) for a group of c members.
func (ix *index) joinText(idx uint32, dig hashx.Digest) {
	if g, ok := ix.tby[dig]; ok {
		ix.tgs.Join(g, ix.tfirst[g], idx)
		ix.tref[idx] = g
		return
	}
	var g uint32
	if n := len(ix.tfree); n > 0 {
		g, ix.tfree = ix.tfree[n-1], ix.tfree[:n-1]
		ix.tdig[g], ix.tfirst[g] = dig, idx
	} else {
		g = uint32(len(ix.tfirst))
		ix.tdig = append(ix.tdig, dig)
		ix.tfirst = append(ix.tfirst, idx)
	}
	ix.tby[dig] = g
	ix.tref[idx] = g
}

// leaveText takes the document idx out of its text group, if it has one.
func (ix *index) leaveText(idx uint32) {
	g, ok := ix.tref[idx]
	if !ok {
		return
	}
	delete(ix.tref, idx)
	if ix.tgs.Size(g) > 1 {
		if rest, alone := ix.tgs.Leave(g, idx); alone {
			ix.tfirst[g] = rest
		}
		return
	}
	delete(ix.tby, ix.tdig[g])
	ix.tfirst[g] = noDoc
	ix.tfree = append(ix.tfree, g)
}

// collectText returns the members of the live text group g other than
// skip, the first limit by ID, each with score 1 (the same text).
func (ix *index) collectText(g, skip uint32, limit int) []detector.Match {
	return ix.tgs.Collect([]copyheap.Candidate{{Group: g, Score: 1}}, func(g uint32) uint32 { return ix.tfirst[g] }, skip, limit)
}

// textDigest returns the digest of the live document idx's text group, if
// it has one.
func (ix *index) textDigest(idx uint32) (hashx.Digest, bool) {
	g, ok := ix.tref[idx]
	if !ok {
		return hashx.Digest{}, false
	}
	return ix.tdig[g], true
}
