package codet

// Collapsing: one content in the tree for identical documents
// (CollapseExact) and near-duplicates (CollapseNear), Varol 2012 §3.3.1.

import (
	"math"
	"slices"
)

// group is one distinct content in the tree: a document, plus the live
// documents collapsed into it ([CollapseExact]). All members have the same
// sequences, hence the same SCS and the same relations.
type group struct {
	// eg is the engine group of the content's own live documents
	// (noGroup: none, the group living on for its near contents).
	eg   uint32
	ends []uint32 // deepest node of each sequence, in sequence order
	sent []uint32 // sentence ordinal of each sequence
	scs  float64
	sig  [2]uint64
	// containers are the groups that contain this one (with CS/SCS of this
	// group); contains are the groups this one contains.
	containers []edge
	contains   []uint32
	// near are the near-duplicate contents this group represents
	// ([CollapseNear]), indexes into index.nears. A group stays in the
	// tree while it has live members or near contents.
	near []uint32
}

// nearContent is a content represented by a group it is a near-duplicate
// of ([CollapseNear]): it is not in the tree. Its sequences are kept for
// [Detector.Matched].
type nearContent struct {
	eg uint32 // the engine group of its documents
	g  uint32 // the representative group
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
func (d *index) nearest(scs float64) (r uint32, fwd, rev float64, ok bool) {
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
func (d *index) newNear(r uint32, sig [2]uint64, fwd, rev float64) uint32 {
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
		eg: noGroup, g: r, fwd: fwd, rev: rev, sig: sig,
		terms: slices.Clone(b.terms),
		off:   slices.Clone(b.off),
		sent:  slices.Clone(b.sent),
	}
	gr := &d.groups[r]
	gr.near = append(gr.near, nr)
	d.nearBySig[sig] = nr
	return nr
}

func (d *index) newGroup() uint32 {
	if n := len(d.freeGroups); n > 0 {
		g := d.freeGroups[n-1]
		d.freeGroups = d.freeGroups[:n-1]
		return g
	}
	d.groups = append(d.groups, group{eg: noGroup})
	g := uint32(len(d.groups) - 1)
	d.tally = append(d.tally, tally{})
	return g
}
