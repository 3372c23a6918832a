package minhash

import (
	"cmp"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
)

// widenSeeds bounds the found neighbours whose band keys a Jaccard or
// Weighted Nearest probes when its own band keys found too few: the best
// of them, by score.
const widenSeeds = 8

// Nearest returns the live documents most similar to text, best first,
// whether or not they reach Config.Threshold: at most min(k,
// Config.MaxResults) matches ordered by [detector.SortMatches], no ID
// twice (the members of a group of exact copies may fill several places).
// Match.Score is the signature estimate Query reports, for every document
// (Query and Nearest give a document they both report the same score):
//
//   - Jaccard: the estimated resemblance |A∩B|/|A∪B| of the shingle sets.
//   - Weighted: the estimated weighted Jaccard Σmin/Σmax of the weighted
//     phrases (1 for a stored document with the same phrase set). With
//     online statistics text is weighed by the counts of every stored
//     document, as Query weighs it, while each stored document was signed
//     with the counts of its own time, so the phrases a large cluster
//     shares, rare when its stories were added, may weigh less in text.
//   - Containment: the estimated share of text's shingles that the stored
//     document holds, |A∩C|/|A|, so a source that holds most of text ranks
//     above a text of the same size on the same topic (docs/notes/minhash.md
//     has how the scores separate reuse on Clough-Stevenson and the Gold
//     Set).
//
// A stored document that shares no signature value with text (score 0)
// is not returned, however large k is.
//
// Candidates come from the band tables, not a scan: first the band keys
// Query probes (so every document Query reports is ranked), then, while
// fewer than k documents were found, a wider probe. In Containment mode
// the wider probe is the LSH Forest descent (Bawa, Condie and Ganesan
// 2005, "LSH Forest: self-tuning indexes for similarity search", WWW, §3)
// over the banding levels the index keeps, from eight rows per band down
// to one, every size partition at each, stopping at the first level after
// which k documents are found; one row per band finds every document that
// shares a signature value. In Jaccard and Weighted modes, which keep one
// banding, it probes the band keys of the best few neighbours found
// (widenSeeds = 8), which reaches the documents close to them that share
// no band with text.
//
// Like Query, Nearest stores nothing, leaves the online statistics
// untouched, signs outside the Detector's lock and holds its shared lock
// to search. It costs Query's signing plus O(B) band probes for the B bands
// of the index (Containment: up to twice the 240 bands of its four
// levels; Jaccard and Weighted: up to nine times the bands), at most the newest
// 1,024 groups per band key, O(K) per candidate group and O(k log k) to
// order the answer. k ≤ 0 fails with an error wrapping
// detector.ErrInvalidConfig; a text over Config.MaxTextBytes fails with
// detector.ErrTooLarge, a call after Close with detector.ErrClosed.
func (d *Detector) Nearest(text string, k int) ([]detector.Match, error) { return d.e.Nearest(text, k) }

// Rank appends the groups nearest to f, as Nearest describes, enough for
// the limit best documents where the tables hold them.
func (ix *index) Rank(dst []engine.Candidate, f *sketch, groups *engine.Groups[sketch], limit int) []engine.Candidate {
	if f.size == 0 || f.sig == nil {
		return dst
	}
	sc, _ := ix.a.searches.Get()
	defer ix.a.searches.Put(sc)
	p := probe{f: f, own: ix.own(f, groups)}
	sc.keys = ix.a.bandsOf(sc.keys[:0], f)
	sc.hits.reset()
	sc.cands, sc.scored = sc.cands[:0], sc.scored[:0]
	found := 0 // documents in sc.scored
	keep := func(c uint32) {
		if s := ix.estimate(p, c, groups); s > 0 {
			sc.scored = append(sc.scored, engine.Candidate{Group: c, Score: s})
			found += int(ix.members[c])
		}
	}
	if p.own != noGroup {
		sc.hits.add(p.own, 1)
		keep(p.own)
	}
	once := func(c uint32) {
		if sc.hits.add(c, 1) == 1 {
			keep(c)
		}
	}
	if ix.a.cfg.Mode == Containment {
		ix.containmentCandidates(sc, p, groups)
		for _, c := range sc.cands {
			keep(c)
		}
		for l := len(ix.tables) - 1; l >= 0 && found < limit; l-- {
			ix.tables[l].each(ix.tableKeys(sc.keys, l), p.own, &sc.sink, once)
		}
		return append(dst, sc.scored...)
	}
	t := ix.tables[0]
	t.each(sc.keys[:t.bands], p.own, &sc.sink, once)
	if found < limit {
		// Widen: probe the band keys of the best widenSeeds groups found.
		seeds := slices.Clone(sc.scored) // keep appends to sc.scored
		slices.SortFunc(seeds, func(a, b engine.Candidate) int {
			return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(groups.Features(a.Group).seq, groups.Features(b.Group).seq))
		})
		for _, s := range seeds[:min(len(seeds), widenSeeds)] {
			if sig := groups.Features(s.Group).sig; sig != nil {
				sc.wide = AppendBandKeys(sc.wide[:0], sig, t.bands, t.rows)
				t.each(sc.wide, p.own, &sc.sink, once)
			}
		}
	}
	return append(dst, sc.scored...)
}
