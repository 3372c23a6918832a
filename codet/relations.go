package codet

// Reading the stored relations: the containers of a document, through
// its content group, as the engine's candidates (an engine group, one
// content's documents, with the score they all get).

import (
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
)

// Search appends to cs the contents related to f. For a group's features
// (an Add's answer, Containers) those are its stored relations
// ([index.runsOf]); for a lookup's (Query) the tree is scored as an Add
// would score it, without changing it (query.go).
func (d *index) Search(cs []engine.Candidate, f *features, _ *engine.Groups[features]) []engine.Candidate {
	if f.w == nil {
		return d.runsOf(f.g, f.nr, cs)
	}
	return d.lookup(cs, f, 0)
}

// Rank is Search for Nearest: the contents of Query's answer, and every
// other one the probe touched on an active node (nearest.go).
func (d *index) Rank(cs []engine.Candidate, f *features, _ *engine.Groups[features], k int) []engine.Candidate {
	return d.lookup(cs, f, k)
}

// LooksUpExclusively: a lookup scores on the index's scratch.
func (d *index) LooksUpExclusively() {}

// CommitsLong: an Add's commit walks and scores the tree; waiting Adds
// block rather than spin.
func (d *index) CommitsLong() {}

// Screen leaves out of a lookup on a full window the documents Add would
// evict first.
func (d *index) Screen(f *features) func(idx uint32) bool {
	if f.ev == nil {
		return nil
	}
	docs := f.ev.docs
	return func(idx uint32) bool { return docs[idx] }
}

// own appends the content of group g's own documents, if live, at score.
func (d *index) own(cs []engine.Candidate, g uint32, score float64) []engine.Candidate {
	if eg := d.groups[g].eg; eg != noGroup {
		cs = append(cs, engine.Candidate{Group: eg, Score: score})
	}
	return cs
}

// all appends every content of group g (its own documents and its near
// contents but skip) at score.
func (d *index) all(cs []engine.Candidate, g, skip uint32, score float64) []engine.Candidate {
	cs = d.own(cs, g, score)
	for _, n := range d.groups[g].near {
		if n != skip {
			cs = append(cs, engine.Candidate{Group: d.nears[n].eg, Score: score})
		}
	}
	return cs
}

// size returns the number of live documents of group g and its near
// contents.
func (d *index) size(g uint32) int {
	n := 0
	if eg := d.groups[g].eg; eg != noGroup {
		n += d.v.Size(eg)
	}
	for _, x := range d.groups[g].near {
		n += d.v.Size(d.nears[x].eg)
	}
	return n
}

// runsOf appends to cs those of a document of group g, of near content
// nr of g unless noGroup: g's containers; for an exact member, g's
// members (1) and near contents (each its CS(R, d)/SCS(R)); for a near
// content x, x's documents (1) and g's others (x's CS(R, d)/SCS(d)).
func (d *index) runsOf(g, nr uint32, cs []engine.Candidate) []engine.Candidate {
	gr := &d.groups[g]
	cs = d.containerRuns(gr.containers, cs)
	if nr == noGroup {
		if gr.scs > 0 {
			cs = d.own(cs, g, 1)
		}
		for _, n := range gr.near {
			cs = append(cs, engine.Candidate{Group: d.nears[n].eg, Score: d.nears[n].rev})
		}
		return cs
	}
	x := &d.nears[nr]
	cs = append(cs, engine.Candidate{Group: x.eg, Score: 1})
	return d.all(cs, g, nr, x.fwd)
}

// containerRuns appends the contents of the container groups of es.
func (d *index) containerRuns(es []edge, cs []engine.Candidate) []engine.Candidate {
	for _, e := range es {
		cs = d.all(cs, e.g, noGroup, e.score)
	}
	return cs
}

// Containers returns the live documents that contain the document id,
// including ones added after it, strongest first; Score is CS/SCS(id) and
// can exceed 1. Containers time is O(output + containing groups · log).
// It returns an error wrapping [detector.ErrUnknownID] or
// [detector.ErrClosed].
func (d *Detector) Containers(id string) ([]detector.Match, error) { return d.eng.Containers(id) }

// Copies returns, in ascending ID order and uncapped, the other live
// documents whose content as the tree reads it (each sentence's terms) is
// that of document id; one without indexable terms has none. It costs
// O(c log c) for c copies, and with [CollapseOff] a scan of the contents.
// It returns an error wrapping [detector.ErrUnknownID] or
// [detector.ErrClosed].
func (d *Detector) Copies(id string) ([]string, error) {
	if d.s.Collapse != CollapseOff {
		return d.eng.Copies(id)
	}
	var out []string
	var err error
	d.inspect(func(x *index) {
		if x.closed {
			return
		}
		var idx uint32
		if idx, err = x.docs.Lookup("Copies", id); err != nil {
			return
		}
		out = []string{}
		eg := x.v.Group(idx)
		if eg == noGroup {
			return
		}
		sig := x.groups[x.v.Features(eg).g].sig
		var ms []uint32
		for k := range x.groups {
			if o := &x.groups[k]; o.eg != noGroup && o.sig == sig {
				ms = x.v.AppendMembers(ms, o.eg)
			}
		}
		out = engine.SortedIDs(x.docs, ms, idx)
	})
	if out == nil && err == nil {
		return d.eng.Copies(id) // closed: its error
	}
	return out, err
}
