package minhash

import (
	"math"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/evidence"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// search is one lookup's scratch; the algorithm keeps a pool of them.
type search struct {
	hits     hitSet              // group → band hits in this lookup
	cands    []uint32            // groups with enough hits
	keys     []uint64            // the query's band keys, table after table
	wide     []uint64            // Nearest: the band keys of a neighbour it widens from
	scored   []engine.Candidate  // verified candidates and their scores
	levelFor [maxPartitions]int8 // Containment: the level probed per partition, −1 none
	sink     uint32              // the band tables' touch sums, kept so that their loads stay
}

// probe is a query of the index: the features of a text and the group of
// the same content (noGroup: none).
type probe struct {
	f   *sketch
	own uint32
}

// appendKeys appends the band keys of sig for every table of the index
// (newIndex), table after table.
func (a *algorithm) appendKeys(dst []uint64, sig []uint32) []uint64 {
	if len(sig) == 0 {
		return dst
	}
	if a.cfg.Mode == Containment {
		for _, r := range containmentLevels {
			dst = AppendBandKeys(dst, sig, a.cfg.NumHashes/r, r)
		}
		return dst
	}
	return AppendBandKeys(dst, sig, a.bands, a.rows)
}

// tableKeys returns the part of keys (from appendKeys) that belongs to
// table l.
func (ix *index) tableKeys(keys []uint64, l int) []uint64 {
	off := 0
	for _, t := range ix.tables[:l] {
		off += t.bands
	}
	return keys[off : off+ix.tables[l].bands]
}

// candidates fills sc.scored with the verified candidate groups of p,
// whose band keys are in sc.keys.
func (ix *index) candidates(sc *search, p probe, groups *engine.Groups[sketch]) {
	sc.hits.reset()
	sc.cands, sc.scored = sc.cands[:0], sc.scored[:0]
	if p.own != noGroup {
		// The group of the same content is always a candidate, however
		// far down the chains it is.
		sc.hits.add(p.own, uint16(ix.a.minHit))
		sc.cands = append(sc.cands, p.own)
	}
	switch {
	case p.f.sig == nil:
	case ix.a.cfg.Mode == Containment:
		ix.containmentCandidates(sc, p, groups)
	default:
		t := ix.tables[0]
		minHit := uint16(ix.a.minHit)
		t.each(sc.keys[:t.bands], p.own, &sc.sink, func(c uint32) {
			if sc.hits.add(c, 1) == minHit {
				sc.cands = append(sc.cands, c)
			}
		})
	}
	for _, c := range sc.cands {
		if s, ok := ix.score(p, c, groups); ok {
			sc.scored = append(sc.scored, engine.Candidate{Group: c, Score: s})
		}
	}
}

// score returns the estimate of p against the live group c and whether
// it is reported: it reaches Config.Threshold with enough evidence, and
// (Containment) c is not a part of the query.
func (ix *index) score(p probe, c uint32, groups *engine.Groups[sketch]) (float64, bool) {
	cfg := &ix.a.cfg
	score := ix.estimate(p, c, groups)
	sa, sb := float64(p.f.size), float64(groups.Features(c).size)
	var shared float64
	if cfg.Mode == Containment {
		if evidence.PartOf(score*sa, sb, sa) {
			return 0, false // c is a part of the query: a part does not contain its whole
		}
		shared = score * sa
	} else {
		shared = score / (1 + score) * (sa + sb)
	}
	return score, score >= cfg.Threshold && (score == 1 || evidence.Enough(shared, min(sa, sb), float64(cfg.MinOverlap)))
}

// estimate returns the signature estimate of p against the live group c:
// the Jaccard or weighted Jaccard (1 for the group of the same content in
// Weighted mode, whatever weights it was signed with), or in Containment
// mode the containment of p in c. O(K).
func (ix *index) estimate(p probe, c uint32, groups *engine.Groups[sketch]) float64 {
	g := groups.Features(c)
	var score float64
	switch {
	case ix.a.cfg.Mode == Weighted && c == p.own:
		score = 1 // equal phrase sets, whatever weights they were signed with
	case p.f.sig != nil && g.sig != nil:
		score = Similarity(p.f.sig, g.sig)
	}
	if ix.a.cfg.Mode == Containment {
		score = ContainmentOf(score, int(p.f.size), int(g.size))
	}
	return score
}

// containmentCandidates collects the candidate containers of p into
// sc.cands: for each size partition that can hold a container (upper
// size u ≥ threshold·|A|), the level chosen by [containmentLevel] is
// probed and its hits in that partition kept.
func (ix *index) containmentCandidates(sc *search, p probe, groups *engine.Groups[sketch]) {
	var want [len(containmentLevels)]bool
	ix.a.levelsFor(&sc.levelFor, p.f.size)
	for _, l := range sc.levelFor {
		if l >= 0 {
			want[l] = true
		}
	}
	for l, t := range ix.tables {
		if !want[l] {
			continue
		}
		t.each(ix.tableKeys(sc.keys, l), p.own, &sc.sink, func(c uint32) {
			if sc.levelFor[groups.Features(c).part] != int8(l) || sc.hits.add(c, 1) != 1 {
				return
			}
			sc.cands = append(sc.cands, c)
		})
	}
}

// levelsFor sets levelFor[part] to the banding level a query of size
// distinct shingles probes for sets of partition part, −1 for a partition
// too small to hold |A∩C| ≥ t·|A|.
func (a *algorithm) levelsFor(levelFor *[maxPartitions]int8, size int32) {
	qp := partition(int(size))
	for part := range int8(maxPartitions) {
		levelFor[part] = -1
		upper := math.Exp2(float64(part)+1) - 1
		if upper < a.cfg.Threshold*float64(size) {
			continue // too small to hold |A∩C| ≥ t·|A|
		}
		levelFor[part] = a.level(qp, part, upper)
	}
}

// level returns the banding level a query of partition qp probes for
// sets of partition part (upper size bound upper), computed once per pair
// and kept in a.levels, which concurrent searches read without a lock.
func (a *algorithm) level(qp, part int8, upper float64) int8 {
	slot := &a.levels[int(qp)*maxPartitions+int(part)]
	if v := slot.Load(); v > 0 {
		return int8(v - 1)
	}
	l := containmentLevel(a.cfg, math.Exp2(float64(qp)), upper)
	slot.Store(int32(l) + 1) // the same value whoever computes it
	return l
}

// hitSet counts the band hits of the groups read by one lookup.
type hitSet struct{ m hashtab.Map }

// add adds n to the hits of g and returns them.
func (h *hitSet) add(g uint32, n uint16) uint16 {
	p, _ := h.m.Ref(uint64(g))
	*p += uint32(n)
	return uint16(*p)
}

// reset empties the set, sized for as many groups as the last lookup read.
func (h *hitSet) reset() { h.m.Reset(h.m.Len()) }

// shrink drops scratch grown by one large lookup.
func (sc *search) shrink() {
	if cap(sc.scored) > 1<<16 || cap(sc.cands) > 1<<16 {
		sc.scored, sc.cands = nil, nil
	}
}
