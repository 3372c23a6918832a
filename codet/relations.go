package codet

// Reading the stored relations: the containers of a document, through
// its content group.

import (
	"cmp"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// run is documents with one score: the union of sorted member lists,
// less the documents of near content skip (noGroup: none).
type run struct {
	lists [][]uint32
	skip  uint32
	score float64
}

// matches returns the containers of document idx: the documents of every
// container group of its group, with that group's score, and the other
// documents of its own group ([Detector.runsOf]).
func (d *Detector) matches(idx uint32) []detector.Match {
	return d.emit(d.runsOf(d.docGroup[idx], d.docNear[idx], nil), idx, d.s.MaxResults)
}

// runsOf appends to runs those of a document of group g, of near content
// nr of g unless noGroup: g's containers; for an exact member, g's
// members (1) and near contents (each its CS(R, d)/SCS(R)); for a near
// content x, x's documents (1) and g's others (x's CS(R, d)/SCS(d)).
func (d *Detector) runsOf(g, nr uint32, runs []run) []run {
	gr := &d.groups[g]
	runs = d.containerRuns(gr.containers, runs)
	if nr == noGroup {
		if gr.scs > 0 {
			runs = append(runs, run{[][]uint32{gr.members}, noGroup, 1})
		}
		for _, n := range gr.near {
			runs = append(runs, run{[][]uint32{d.nears[n].members}, noGroup, d.nears[n].rev})
		}
		return runs
	}
	x := &d.nears[nr]
	return append(runs, run{[][]uint32{x.members}, noGroup, 1},
		run{[][]uint32{gr.members, gr.nearDocs}, nr, x.fwd})
}

// containerRuns appends the runs of the container groups of es.
func (d *Detector) containerRuns(es []edge, runs []run) []run {
	for _, e := range es {
		o := &d.groups[e.g]
		runs = append(runs, run{[][]uint32{o.members, o.nearDocs}, noGroup, e.score})
	}
	return runs
}

// emit returns the documents of runs, less document self (noGroup: none),
// in detector.SortMatches order, capped at limit: the heaps of one score
// are merged by ID up to the cap, O(k·log k·lists), not O(N) for a flood
// of N copies.
func (d *Detector) emit(runs []run, self uint32, limit int) []detector.Match {
	if len(runs) == 0 {
		return []detector.Match{}
	}
	slices.SortStableFunc(runs, func(a, b run) int { return cmp.Compare(b.score, a.score) })
	n := 0
	for _, r := range runs {
		for _, l := range r.lists {
			n += len(l)
		}
	}
	out := make([]detector.Match, 0, min(n, limit))
	var cur []heapCursor
	for i := 0; i < len(runs) && len(out) < limit; {
		j := i + 1
		for j < len(runs) && runs[j].score == runs[i].score {
			j++
		}
		k := 0
		for _, r := range runs[i:j] {
			for _, l := range r.lists {
				if len(l) == 0 {
					continue
				}
				if k == len(cur) {
					cur = append(cur, heapCursor{})
				}
				cur[k].Reset(l)
				cur[k].skip = r.skip
				k++
			}
		}
		// Merge the lists of the runs of this score by ID, up to the cap.
		for len(out) < limit {
			best, bm := -1, uint32(0)
			for c := range cur[:k] {
				if m, ok := cur[c].Peek(); ok && (best < 0 || d.docs.ID(m) < d.docs.ID(bm)) {
					best, bm = c, m
				}
			}
			if best < 0 {
				break
			}
			cur[best].Next(d.docs)
			if bm == self || cur[best].skip != noGroup && d.docNear[bm] == cur[best].skip ||
				d.ev != nil && d.ev.docs[bm] {
				continue
			}
			out = append(out, detector.Match{ID: d.docs.ID(bm), Score: runs[i].score})
		}
		i = j
	}
	return out
}

// Containers returns the live documents that contain the document id,
// including ones added after it, strongest first; Score is CS/SCS(id) and
// can exceed 1. Containers time is O(output + containing groups · log).
// It returns an error wrapping [detector.ErrUnknownID] or
// [detector.ErrClosed].
func (d *Detector) Containers(id string) ([]detector.Match, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.docs.Lookup("Containers", id)
	if err != nil {
		return nil, err
	}
	if d.docGroup[idx] == noGroup {
		return []detector.Match{}, nil
	}
	return d.matches(idx), nil
}

// Copies returns, in ascending ID order and uncapped, the other live
// documents whose content as the tree reads it (each sentence's terms) is
// that of document id; one without indexable terms has none. It costs
// O(c log c) for c copies, and with [CollapseOff] a scan of the contents.
// It returns an error wrapping [detector.ErrUnknownID] or
// [detector.ErrClosed].
func (d *Detector) Copies(id string) ([]string, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	idx, err := d.docs.Lookup("Copies", id)
	if err != nil {
		return nil, err
	}
	g, nr := d.docGroup[idx], d.docNear[idx]
	out := []string{}
	add := func(members []uint32) {
		for _, m := range members {
			if m != idx {
				out = append(out, d.docs.ID(m))
			}
		}
	}
	switch {
	case g == noGroup:
	case nr != noGroup:
		add(d.nears[nr].members)
	case d.s.Collapse != CollapseOff:
		add(d.groups[g].members)
	default:
		sig := d.groups[g].sig
		for k := range d.groups {
			if o := &d.groups[k]; len(o.members) > 0 && o.sig == sig {
				add(o.members)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}
