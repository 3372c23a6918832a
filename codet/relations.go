package codet

// Reading the stored relations: the containers of a document, through
// its content group.

import (
	"cmp"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// matches returns the containers of document idx: the members (and near
// contents) of every container group of its group, with that group's
// score; and the other documents of its own group. For an exact member of
// group g those are g's other members (identical content: CS/SCS = 1) and
// g's near contents (each with its CS(R, d)/SCS(R)); for a document of a
// near content x of g, the other documents of x (1), and g's members and
// other near contents (x's CS(R, d)/SCS(d)): [CollapseNear].
func (d *Detector) matches(idx uint32) []detector.Match {
	g, nr := d.docGroup[idx], d.docNear[idx]
	gr := &d.groups[g]
	// A run is documents with one score: the union of sorted lists, less
	// idx and, when skip is set, the documents of near content skip.
	type run struct {
		lists [][]uint32
		skip  uint32
		score float64
	}
	runs := make([]run, 0, len(gr.containers)+2)
	addRun := func(score float64, skip uint32, lists ...[]uint32) {
		n := 0
		for _, l := range lists {
			n += len(l)
		}
		if n == 0 {
			return
		}
		for _, l := range lists {
			if n == 1 && len(l) == 1 && l[0] == idx {
				return // idx alone
			}
		}
		runs = append(runs, run{lists, skip, score})
	}
	for _, e := range gr.containers {
		o := &d.groups[e.g]
		addRun(e.score, noGroup, o.members, o.nearDocs)
	}
	if nr == noGroup {
		if gr.scs > 0 {
			addRun(1, noGroup, gr.members)
		}
		for _, n := range gr.near {
			addRun(d.nears[n].rev, noGroup, d.nears[n].members)
		}
	} else {
		x := &d.nears[nr]
		addRun(1, noGroup, x.members)
		addRun(x.fwd, nr, gr.members, gr.nearDocs)
	}
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
	limit := d.s.MaxResults
	if limit > 0 && n > limit { // limit+1 cannot overflow: limit < n
		n = limit + 1
	}
	out := make([]detector.Match, 0, n)
	var pos []int
	for i := 0; i < len(runs); {
		j := i + 1
		for j < len(runs) && runs[j].score == runs[i].score {
			j++
		}
		start := len(out)
		for _, r := range runs[i:j] {
			// Merge the run's sorted lists by ID; one run alone stops at
			// the limit.
			pos = append(pos[:0], make([]int, len(r.lists))...)
			for {
				if limit > 0 && j-i == 1 && len(out) == limit {
					break
				}
				best := -1
				for k, l := range r.lists {
					if pos[k] < len(l) && (best < 0 || d.docs.ID(l[pos[k]]) < d.docs.ID(r.lists[best][pos[best]])) {
						best = k
					}
				}
				if best < 0 {
					break
				}
				m := r.lists[best][pos[best]]
				pos[best]++
				if m == idx || r.skip != noGroup && d.docNear[m] == r.skip {
					continue
				}
				out = append(out, detector.Match{ID: d.docs.ID(m), Score: r.score})
			}
		}
		if j-i > 1 {
			slices.SortFunc(out[start:], func(a, b detector.Match) int { return cmp.Compare(a.ID, b.ID) })
		}
		if limit > 0 && len(out) >= limit {
			return out[:limit:limit]
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
