package codet

// Collapsing: one content in the tree for identical documents
// (CollapseExact) and near-duplicates (CollapseNear), Varol 2012 §3.3.1.

import (
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
)

// group is one distinct content in the tree: a document, plus the live
// documents collapsed into it ([CollapseExact]). All members have the same
// sequences, hence the same SCS and the same relations.
type group struct {
	members []uint32 // dense document indexes, a heap by ID (members.go)
	ends    []uint32 // deepest node of each sequence, in sequence order
	sent    []uint32 // sentence ordinal of each sequence
	scs     float64
	sig     [2]uint64
	// containers are the groups that contain this one (with CS/SCS of this
	// group); contains are the groups this one contains.
	containers []edge
	contains   []uint32
	// near are the near-duplicate contents this group represents
	// ([CollapseNear]), indexes into Detector.nears. A group stays in the
	// tree while it has live members or near contents.
	near []uint32
	// nearDocs are the documents of all near contents, a heap by ID.
	nearDocs []uint32
}

// nearContent is a content represented by a group it is a near-duplicate
// of ([CollapseNear]): it is not in the tree. Its sequences are kept for
// [Detector.Matched].
type nearContent struct {
	members []uint32 // dense document indexes, a heap by ID
	g       uint32   // the representative group
	// fwd is CS(R, d)/SCS(d) (the representative contains d), rev is
	// CS(R, d)/SCS(R) (d contains the representative), both measured at
	// the insertion of the first document of this content.
	fwd, rev float64
	sig      [2]uint64
	terms    []uint32 // term IDs of every sequence, concatenated
	off      []int32  // sequence k is terms[off[k]:off[k+1]]
	sent     []uint32 // sentence ordinal of each sequence
}

// nearest returns the group of the tree the document just probed is a
// near-duplicate of ([CollapseNear]): the touched group with the largest
// min(CS/SCS(d), CS/SCS(R)), both above ETL and at least the collapse
// threshold; ties go to the lowest group index (d.touched is sorted).
func (d *Detector) nearest(scs float64) (r uint32, fwd, rev float64, ok bool) {
	if scs <= 0 {
		return 0, 0, 0, false
	}
	best := math.Inf(-1)
	for _, j := range d.touched {
		o := &d.groups[j]
		if o.scs <= 0 {
			continue
		}
		cs := d.tally[j].acc + d.tally[j].sat // the samples of deactivated nodes too
		f, v := cs/scs, cs/o.scs
		m := min(f, v)
		if f > d.s.etl && v > d.s.etl && m >= d.s.near && m > best {
			best, r, fwd, rev, ok = m, j, f, v, true
		}
	}
	return r, fwd, rev, ok
}

// newNear stores the document in d.buf as a near-duplicate content of
// group r and returns its index.
func (d *Detector) newNear(r uint32, sig [2]uint64, fwd, rev float64) uint32 {
	var nr uint32
	if n := len(d.freeNears); n > 0 {
		nr = d.freeNears[n-1]
		d.freeNears = d.freeNears[:n-1]
	} else {
		d.nears = append(d.nears, nearContent{})
		nr = uint32(len(d.nears) - 1)
	}
	b := d.buf
	d.nears[nr] = nearContent{
		g: r, fwd: fwd, rev: rev, sig: sig,
		terms: slices.Clone(b.terms),
		off:   slices.Clone(b.off),
		sent:  slices.Clone(b.sent),
	}
	gr := &d.groups[r]
	gr.near = append(gr.near, nr)
	d.nearBySig[sig] = nr
	return nr
}

// joinNear adds document idx to near content nr.
func (d *Detector) joinNear(nr, idx uint32) {
	x := &d.nears[nr]
	x.members = engine.Push(d.docs, x.members, idx, d.docPos)
	d.docNear[idx] = nr
	d.docGroup[idx] = x.g
	gr := &d.groups[x.g]
	gr.nearDocs = engine.Push(d.docs, gr.nearDocs, idx, d.docPos2)
}

func (d *Detector) newGroup() uint32 {
	if n := len(d.freeGroups); n > 0 {
		g := d.freeGroups[n-1]
		d.freeGroups = d.freeGroups[:n-1]
		return g
	}
	d.groups = append(d.groups, group{})
	g := uint32(len(d.groups) - 1)
	d.tally = append(d.tally, tally{})
	return g
}

// join adds document idx to group g.
func (d *Detector) join(g, idx uint32) {
	gr := &d.groups[g]
	gr.members = engine.Push(d.docs, gr.members, idx, d.docPos)
	d.docGroup[idx] = g
}
