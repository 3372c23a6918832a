package codet

// Nearest: ranked lookup through the corpus tree (detector.Ranker).

import (
	"cmp"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
)

// Nearest returns the min(k, Config.MaxResults) live documents most
// similar to text, best first by [detector.SortMatches], storing nothing
// (detector.Ranker). A document Query(text) reports has Query's score;
// every other document C sharing an active tree node with text scores
// CS(C, text)/SCS(text), below ETL too: the containment of text in C, 1
// when all of it is found there (score bins measured: docs/notes/codet.md).
// It costs a Query plus, when the lists Query sets aside could change the
// ranking, a second reading of them, and O(g log g) to order the g groups
// met. With a full Config.Window it ranks, as Query answers, the
// collection the next Add would see: the documents that Add would evict
// first are left out (with Window 1, every one). It returns an error
// wrapping [detector.ErrInvalidConfig] for k ≤ 0, [detector.ErrTooLarge]
// for a text over Config.MaxTextBytes and [detector.ErrClosed] after
// Close.
func (d *Detector) Nearest(text string, k int) ([]detector.Match, error) {
	return d.eng.Nearest(text, k)
}

// nearestLocked is Nearest under the lock for the document in d.buf: the
// contents of Query's answer, and every other group the probe touched on
// an active node, appended to cs. The lists the probe set aside are
// completed for the groups that can still rank ([index.bound]) or, when
// one left out could, read again ([index.rescanActive]): the scores are
// those of scanning every list, to the last bit. limit is the engine's
// cap, min(k, MaxResults).
func (d *index) nearestLocked(cs []engine.Candidate, limit int) []engine.Candidate {
	if d.buf.n() == 0 {
		return cs
	}
	cs, covered, scs := d.queryRuns(cs, nil)
	if scs < 0 { // answered from stored relations: probe for the others
		stats := d.stats
		scs = d.probe()
		d.stats = stats
	}
	if !(scs > 0) {
		return cs
	}
	slices.Sort(covered)
	cands := d.rankRes[:0]
	if d.aside > 0 {
		var ok bool
		if cands, ok = d.bound(cands, covered, limit); !ok {
			d.rescanActive()
			cands = cands[:0]
		}
	}
	if len(cands) == 0 {
		cands = d.candidates(cands, covered)
	}
	for _, j := range cands {
		if t := &d.tally[j]; t.acc > 0 {
			cs = d.all(cs, uint32(j), noGroup, t.acc/scs)
		}
	}
	d.rankRes = cands
	if cap(d.ranked) > scratchCap || cap(d.rankRes) > scratchCap {
		d.ranked, d.rankRes = nil, nil
	}
	return cs
}

// candidates appends to cands the groups of d.ranked with a positive SCS
// that are not in covered (sorted), and returns it.
func (d *index) candidates(cands []int, covered []uint32) []int {
	for _, j := range d.ranked {
		if d.groups[j].scs <= 0 {
			continue
		}
		if _, ok := slices.BinarySearch(covered, j); !ok {
			cands = append(cands, int(j))
		}
	}
	return cands
}

// bound returns in cands the candidate groups that can rank among the
// limit best once the share of the lists set aside is counted, with
// their CS completed, and true; or false, when a group the probe did not
// touch could rank among them: the limit-th best CS so far, counted in
// documents, is not above d.aside.
func (d *index) bound(cands []int, covered []uint32, limit int) ([]int, bool) {
	cands = d.candidates(cands, covered)
	slices.SortFunc(cands, func(a, b int) int { return cmp.Compare(d.tally[b].acc, d.tally[a].acc) })
	docs, floor := 0, 0.0
	for _, j := range cands {
		if docs += d.size(uint32(j)); docs >= limit {
			floor = d.tally[j].acc
			break
		}
	}
	if docs < limit || !(floor > d.aside) {
		return cands, false
	}
	// d.aside carries a margin for rounding: a group whose CS so far plus
	// d.aside is below floor is below limit documents.
	k, steps := 0, 0
	for _, j := range cands {
		if d.tally[j].acc+d.aside >= floor {
			cands[k] = j
			k++
			steps += int(d.tally[j].seqs) * d.s.dt
		}
	}
	cands = cands[:k]
	d.complete(cands, steps)
	d.work.rankBound++
	return cands, true
}

// rescanActive sets the CS on active nodes of every group visiting an
// active node the document meets, from zero and in node order (the
// scan's sum, to the last bit), adding the groups met first to d.ranked.
func (d *index) rescanActive() {
	d.work.rankAll++
	for _, j := range d.ranked {
		d.tally[j].acc = 0
	}
	for _, x := range d.distinct {
		if x.sample {
			continue
		}
		imp, n := x.imp, x.n
		nd := d.nodes.at(x.node)
		d.work.rescanned += len(nd.vis)
		for _, v := range nd.vis {
			t := &d.tally[v.g]
			if t.gen != d.gen {
				t.gen, t.acc, t.sat = d.gen, 0, 0
				d.ranked = append(d.ranked, v.g)
			}
			t.acc += imp * float64(min(n, v.n))
		}
	}
}
