package mrcosine

import (
	"math"
	"sync/atomic"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// sig is what the engine (package internal/engine) keeps of a document:
// the features of a text, one per group of exact copies.
//
// Documents whose compared vectors (the unit signature, or the unit
// centered signature under Centered) are identical bit for bit share one
// group. Everything the index reads of a document (its score against any
// other vector, hashed vector, sketch and band keys) is a function of
// those bits, so a group answers exactly as each of its members would
// alone. A document that matches nothing by signature (zero, or the
// center under Centered) but reads at least one character is in a text
// group, of the documents that read the same characters (readDigest).
//
// The features of an Add or a Query point into its pooled scratch (s);
// Insert copies what a new group keeps into the index's arrays, and the
// group's own sig then points there (vec) and names the group (g).
type sig struct {
	s    *signed        // the scratch of an Add or Query; nil in a group
	vec  []float32      // the compared unit vector; nil for a text group or none
	g    uint32         // in a group: its number
	text bool           // a text group, of the digest dig
	dig  hashtab.Digest // with text: the digest of what the text reads
}

// copyKey is the exact-copy key of a sig for the engine: the index finds
// groups itself (index.Find), so the key only says whether there is one.
type copyKey struct{}

// index is the detector's search structure over the live groups, by the
// engine's group numbers. The engine guards it with its lock and replaces
// it whole on ReadFrom.
type index struct {
	d *Detector

	// By group number, for the vector groups; a text group's or a free
	// number's live is false. The two widest arrays grow by blocks of
	// blockGroups groups, so that an insertion never copies them.
	vblk   [][]float32 // vblk[g/blockGroups][(g%blockGroups)*parts:]: the compared unit vector
	kblk   [][]uint64  // kblk[g/blockGroups][(g%blockGroups)*Bands+b]: band keys
	rnorm  []float32   // length of the hashed vector
	sketch []sketch    // the first sketchWords words of the sign pool
	live   []bool      // a live vector group
	groups int         // live vector groups

	buckets buckets
	bySum   map[uint64][]uint32 // Exhaustive: vecSum → live vector groups

	text map[hashtab.Digest]uint32 // digest → its live text group

	checked  atomic.Int64 // exact cosines computed by searches (for tests)
	rejected atomic.Int64 // candidates the sketch dropped (for tests)

	// The most keys bySum and text have held since they were last rebuilt
	// (see engine.ShrinkMap).
	sumPeak, textPeak int
}

// buckets maps (band, key) to the groups holding that band key: an
// engine.Postings per band.
type buckets []engine.Postings

// blockGroups is the number of groups of a block of the per-group vector
// and band key arrays.
const blockGroups = 256

func (d *Detector) newIndex() *index {
	ix := &index{d: d, text: map[hashtab.Digest]uint32{}, buckets: make(buckets, d.bands())}
	if d.cfg.Exhaustive {
		ix.bySum = map[uint64][]uint32{}
	}
	return ix
}

func sameBits(a, b []float32) bool {
	for i, x := range a {
		if math.Float32bits(x) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// vec returns the compared vector of the vector group g.
func (ix *index) vec(g uint32) []float32 {
	parts := ix.d.parts
	o := int(g%blockGroups) * parts
	return ix.vblk[g/blockGroups][o : o+parts : o+parts]
}

// keysOf returns the band keys of the vector group g.
func (ix *index) keysOf(g uint32) []uint64 {
	bands := ix.d.bands()
	o := int(g%blockGroups) * bands
	return ix.kblk[g/blockGroups][o : o+bands : o+bands]
}

// Find returns the live group of f's exact copies. An exact copy has the
// same band keys, so with an index it is in the shortest of the bucket
// lists of f's keys (none if one is empty); an Exhaustive detector finds
// it by a digest of the vector. A text group is found by its digest.
func (ix *index) Find(f *sig, _ *engine.Groups[sig]) (uint32, bool) {
	if f.text {
		g, ok := ix.text[f.dig]
		return g, ok
	}
	if ix.bySum != nil {
		for _, g := range ix.bySum[vecSum(f.vec)] {
			if sameBits(ix.vec(g), f.vec) {
				return g, true
			}
		}
		return 0, false
	}
	var in []uint32
	var one, inOne [1]uint32
	for b, k := range f.s.keys {
		l := ix.buckets[b].Get(k, &one)
		if len(l) == 0 {
			return 0, false
		}
		if in == nil || len(l) < len(in) {
			if len(l) == 1 { // l may be one, which the next band's Get reuses
				inOne = one
				l = inOne[:]
			}
			in = l
		}
	}
	for _, g := range in {
		if sameBits(ix.vec(g), f.vec) {
			return g, true
		}
	}
	return 0, false
}

// Insert indexes the new group g of features f (an Add's or a snapshot's,
// in scratch), copying what it keeps into the index; f, the group's own
// copy, is left pointing there.
func (ix *index) Insert(g uint32, f *sig) {
	s := f.s
	f.s = nil
	if f.text {
		ix.text[f.dig] = g
		ix.textPeak = max(ix.textPeak, len(ix.text))
		return
	}
	parts, bands := ix.d.parts, ix.d.bands()
	for int(g) >= len(ix.live) {
		if len(ix.live)%blockGroups == 0 {
			ix.vblk = append(ix.vblk, make([]float32, blockGroups*parts))
			if bands > 0 {
				ix.kblk = append(ix.kblk, make([]uint64, blockGroups*bands))
			}
		}
		ix.rnorm = append(ix.rnorm, 0)
		ix.live = append(ix.live, false)
		if bands > 0 {
			ix.sketch = append(ix.sketch, sketch{})
		}
	}
	v := ix.vec(g)
	copy(v, f.vec)
	f.vec, f.g = v, g
	ix.rnorm[g], ix.live[g] = s.rnorm, true
	ix.groups++
	if ix.bySum != nil {
		sum := vecSum(v)
		ix.bySum[sum] = append(ix.bySum[sum], g)
		ix.sumPeak = max(ix.sumPeak, len(ix.bySum))
	}
	if bands > 0 {
		copy(ix.sketch[g][:], s.pool[:sketchWords])
		copy(ix.keysOf(g), s.keys)
		for b, k := range s.keys {
			ix.buckets[b].Add(k, g)
		}
	}
}

// Delete takes the group g of features f out of the index when its last
// member has left: out of the buckets, or of the map of text groups.
func (ix *index) Delete(g uint32, f *sig) {
	if f.text {
		delete(ix.text, f.dig)
		ix.text = engine.ShrinkMap(ix.text, &ix.textPeak)
		return
	}
	if ix.bySum != nil {
		engine.DeletePosting(ix.bySum, vecSum(f.vec), g)
		ix.bySum = engine.ShrinkMap(ix.bySum, &ix.sumPeak)
	}
	if ix.d.bands() > 0 {
		for b, k := range ix.keysOf(g) {
			ix.buckets[b].Remove(k, g)
			ix.buckets[b].Shrink()
		}
	}
	ix.live[g] = false
	ix.groups--
}
