package minhash

import (
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/evidence"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// An Add runs in three steps so that two goroutines adding at once share
// as little as possible:
//
//  1. Search, under the read lock: catch each band-table shard up with
//     the insertions issued before it, find the groups sharing band keys
//     with the signature and verify them. Searches of several Adds run at
//     once.
//  2. Commit, under the exclusive lock (the Add's linearisation point):
//     register the ID; bring the search up to date with the groups
//     created, freed or re-signed since it began (the change log: each is
//     dropped from the candidates and judged again from its current
//     signature and band keys, which is what a search made now would
//     find); join or create the group, write its signature (its band
//     keys are computed from it where needed, not stored) and issue its
//     insertion into the band tables; collect the answer.
//  3. Apply, under no lock of the Detector's: link the new group into
//     the band chains, shard by shard, each under the shard's own lock.
//
// A search made now would find exactly what the search plus the changes
// find as long as no band chain it read was cut at maxProbe groups, so a
// search that read nearly that many from one chain, or fell further
// behind than the change log remembers, is made again under the exclusive
// lock. Insertions are applied to every shard in the order they were
// issued, so chains stay in the order the groups were created; whoever
// reads a shard first applies what is pending there, and the holder of the
// exclusive lock applies everything pending before it changes or reads
// the tables itself.

// changeLogSize is how many group changes an Add's search can catch up
// with; more and the Add searches again under the exclusive lock.
const changeLogSize = 256

// maxPending bounds the insertions issued and not yet applied everywhere:
// the holder of the exclusive lock applies them all when more are
// pending.
const maxPending = 256

// search is an Add's (or an exclusive caller's) scratch for one lookup.
// It is not safe for concurrent use; a Detector keeps a pool of them.
type search struct {
	hits     hitSet              // group → band hits in this lookup
	cands    []uint32            // groups with enough hits
	keys     []uint64            // the query's band keys, table after table
	wide     []uint64            // Nearest: the band keys of a neighbour it widens from
	scored   []engine.Candidate  // verified candidates and their scores
	touched  []uint32            // groups changed since the search
	levelFor [maxPartitions]int8 // Containment: the level probed per partition, −1 none
	seen     int                 // the most groups read from one band chain
	own      uint32              // the group of the same content when searched
	searched bool                // the search ran (a text with words, index open)
}

// appendKeys appends the band keys of sig for every table of the
// Detector's index, table after table.
func (d *Detector) appendKeys(dst []uint64, sig []uint32) []uint64 {
	if len(sig) == 0 {
		return dst
	}
	if d.cfg.Mode == Containment {
		for _, r := range containmentLevels {
			dst = AppendBandKeys(dst, sig, d.cfg.NumHashes/r, r)
		}
		return dst
	}
	return AppendBandKeys(dst, sig, d.bands, d.rows)
}

// tableKeys returns the part of keys (from appendKeys) that belongs to
// table l of ix.
func tableKeys(ix *index, keys []uint64, l int) []uint64 {
	off := 0
	for _, t := range ix.tables[:l] {
		off += t.bands
	}
	return keys[off : off+ix.tables[l].bands]
}

// candidates fills sc.scored with the verified candidate groups of p,
// whose band keys are in sc.keys, and sc.seen with the most groups read
// from one chain. The caller holds mu, shared or exclusive.
func (d *Detector) candidates(ix *index, sc *search, p probe) {
	sc.hits.reset()
	sc.cands, sc.scored, sc.seen = sc.cands[:0], sc.scored[:0], 0
	if p.own != noGroup {
		// The group of the same content is always a candidate, however
		// far down the chains it is.
		sc.hits.add(p.own, uint16(d.minHit))
		sc.cands = append(sc.cands, p.own)
	}
	switch {
	case p.sig == nil:
	case d.cfg.Mode == Containment:
		d.containmentCandidates(ix, sc, p)
	default:
		t := ix.tables[0]
		minHit := uint16(d.minHit)
		sc.seen = t.each(ix, sc.keys[:t.bands], p.own, func(c uint32) {
			if sc.hits.add(c, 1) == minHit {
				sc.cands = append(sc.cands, c)
			}
		})
	}
	for _, c := range sc.cands {
		if s, ok := d.score(ix, p, c); ok {
			sc.scored = append(sc.scored, engine.Candidate{Group: c, Score: s})
		}
	}
}

// score returns the estimate of p against the live group c and whether
// it is reported: it reaches Config.Threshold with enough evidence, and
// (Containment) c is not a part of the query.
func (d *Detector) score(ix *index, p probe, c uint32) (float64, bool) {
	score := d.estimate(ix, p, c)
	sa, sb := float64(p.size), float64(ix.groups[c].size)
	var shared float64
	if d.cfg.Mode == Containment {
		if evidence.PartOf(score*sa, sb, sa) {
			return 0, false // c is a part of the query: a part does not contain its whole
		}
		shared = score * sa
	} else {
		shared = score / (1 + score) * (sa + sb)
	}
	return score, score >= d.cfg.Threshold && (score == 1 || evidence.Enough(shared, min(sa, sb), float64(d.cfg.MinOverlap)))
}

// estimate returns the signature estimate of p against the live group c:
// the Jaccard or weighted Jaccard (1 for the group of the same content in
// Weighted mode, whatever weights it was signed with), or in Containment
// mode the containment of p in c. O(K).
func (d *Detector) estimate(ix *index, p probe, c uint32) float64 {
	g := &ix.groups[c]
	var score float64
	switch {
	case d.cfg.Mode == Weighted && c == p.own:
		score = 1 // equal phrase sets, whatever weights they were signed with
	case p.sig != nil && g.hasSig:
		score = Similarity(p.sig, ix.sigs.of(c))
	}
	if d.cfg.Mode == Containment {
		score = ContainmentOf(score, p.size, int(g.size))
	}
	return score
}

// containmentCandidates collects the candidate containers of p into
// sc.cands: for each size partition that can hold a container (upper
// size u ≥ threshold·|A|), the level chosen by [containmentLevel] is
// probed and its hits in that partition kept.
func (d *Detector) containmentCandidates(ix *index, sc *search, p probe) {
	qp := partition(p.size)
	var want [len(containmentLevels)]bool
	for part := range int8(maxPartitions) {
		sc.levelFor[part] = -1
		upper := math.Exp2(float64(part)+1) - 1
		if upper < d.cfg.Threshold*float64(min(p.size, math.MaxInt32)) {
			continue // too small to hold |A∩C| ≥ t·|A|
		}
		l := d.level(qp, part, upper)
		sc.levelFor[part] = l
		want[l] = true
	}
	for l, t := range ix.tables {
		if !want[l] {
			continue
		}
		seen := t.each(ix, tableKeys(ix, sc.keys, l), p.own, func(c uint32) {
			if sc.levelFor[ix.groups[c].part] != int8(l) || sc.hits.add(c, 1) != 1 {
				return
			}
			sc.cands = append(sc.cands, c)
		})
		sc.seen = max(sc.seen, seen)
	}
}

// level returns the banding level a query of partition qp probes for
// sets of partition part (upper size bound upper), computed once per pair
// and kept in d.levels, which concurrent searches read without a lock.
func (d *Detector) level(qp, part int8, upper float64) int8 {
	slot := &d.levels[int(qp)*maxPartitions+int(part)]
	if v := slot.Load(); v > 0 {
		return int8(v - 1)
	}
	l := containmentLevel(d.cfg, math.Exp2(float64(qp)), upper)
	slot.Store(int32(l) + 1) // the same value whoever computes it
	return l
}

// sharesBand reports whether the live group t, which has a signature, is
// a candidate of the query whose band keys are in sc.keys under a search
// of the current index: it shares d.minHit band keys (Containment: one
// key at the level probed for its partition). t's keys are computed from
// its signature.
func (d *Detector) sharesBand(ix *index, sc *search, t uint32) bool {
	if d.cfg.Mode == Containment {
		l := sc.levelFor[ix.groups[t].part]
		if l < 0 {
			return false
		}
		sig, rows := ix.sigs.of(t), ix.tables[l].rows
		for b, k := range tableKeys(ix, sc.keys, int(l)) {
			if bandKey(sig, b, rows) == k {
				return true
			}
		}
		return false
	}
	sig, tb, hits := ix.sigs.of(t), ix.tables[0], 0
	for b, k := range sc.keys[:tb.bands] {
		if bandKey(sig, b, tb.rows) == k {
			hits++
		}
	}
	return hits >= d.minHit
}

// patch brings sc.scored, the verified candidates of a search of ix made
// when its change log stood at since, up to the index as it is: the
// groups changed meanwhile are dropped and judged again. p is the query
// as of now (p.own the group of the same content now). Caller holds mu
// exclusively; the search read no chain near maxProbe groups and the log
// still holds every change since.
func (d *Detector) patch(ix *index, sc *search, p probe, since uint64) {
	sc.touched = sc.touched[:0]
	for i := since; i < ix.changes; i++ {
		sc.touched = append(sc.touched, ix.changed[i%changeLogSize])
	}
	slices.Sort(sc.touched)
	sc.touched = slices.Compact(sc.touched)
	sc.scored = slices.DeleteFunc(sc.scored, func(c engine.Candidate) bool {
		_, found := slices.BinarySearch(sc.touched, c.Group)
		return found
	})
	for _, t := range sc.touched {
		gr := &ix.groups[t]
		if gr.size == 0 {
			continue // freed
		}
		if t != p.own && (p.sig == nil || !gr.hasSig || !d.sharesBand(ix, sc, t)) {
			continue
		}
		if s, ok := d.score(ix, p, t); ok {
			sc.scored = append(sc.scored, engine.Candidate{Group: t, Score: s})
		}
	}
}

// searchShared is step 1 of Add: the search of a document signed (sig,
// size, digest) with exact-copy key xkey and band keys in sc.keys, under
// the read lock. It returns the index searched and its change count.
func (d *Detector) searchShared(sc *search, sig []uint32, size int, digest, xkey uint64) (*index, uint64) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	ix := d.ix
	sc.searched, sc.own = false, noGroup
	if size == 0 || ix.docs.Closed() {
		return ix, ix.changes
	}
	if g, ok := d.findKeyed(ix, xkey, sig, size, digest); ok {
		sc.own = g
	}
	d.candidates(ix, sc, d.probeOf(sig, size, digest, sc.own, noDoc))
	sc.searched = true
	return ix, ix.changes
}

// probeOf returns the probe of a document signed (sig, size, digest).
func (d *Detector) probeOf(sig []uint32, size int, digest uint64, own, skip uint32) probe {
	p := probe{size: min(size, math.MaxInt32), digest: digest, own: own, skip: skip}
	if len(sig) > 0 {
		p.sig = sig
	}
	return p
}

// commit is step 2 of Add: it indexes the just-registered document idx,
// signed (sig, size, digest) with exact-copy key xkey and band keys in
// sc.keys, whose search (sc) was made on searched at change count since,
// and returns its matches and whether it issued a table insertion for
// [Detector.apply]. Caller holds mu exclusively.
func (d *Detector) commit(sc *search, searched *index, since uint64, idx uint32, sig []uint32, size int, digest, xkey uint64) ([]detector.Match, bool) {
	ix := d.ix
	d.version++
	ix.ensureRef(idx)
	if size == 0 {
		ix.refs[idx] = noGroup
		return []detector.Match{}, false // no words: matches nothing
	}
	own := uint32(noGroup)
	if g, ok := d.findKeyed(ix, xkey, sig, size, digest); ok {
		own = g
	}
	p := d.probeOf(sig, size, digest, own, idx)
	switch behind := ix.changes - since; {
	case searched != ix || !sc.searched || own != sc.own && behind == 0 ||
		behind > 0 && (behind > changeLogSize || sc.seen+int(behind)+1 >= maxProbe):
		// Search again, here: the search may have missed what a search
		// made now would read.
		d.drain(ix)
		d.candidates(ix, sc, p)
	case behind > 0:
		d.patch(ix, sc, p, since)
	}
	g, issued := d.placeKeyed(ix, idx, sig, size, digest, xkey, true)
	d.shareCounted(ix, g, idx)
	if linearised != nil {
		linearised("add", ix.docs.ID(idx))
	}
	return ix.gs.Collect(sc.scored, ix.first, idx, d.cfg.MaxResults), issued
}

// apply is step 3 of Add: it links the groups whose insertion was issued
// into every shard of ix's band tables, each under the shard's lock and
// none under the Detector's: a commit does not wait for it.
func (d *Detector) apply(ix *index) {
	for _, t := range ix.tables {
		t.visit(func(s *shard) { t.catchUp(ix, s) })
	}
}

// drain applies every pending table insertion of ix. Caller holds mu
// exclusively: no insertion is issued meanwhile, and once drain returns a
// shard's lock holder finds nothing to apply, so the caller may change
// the tables.
func (d *Detector) drain(ix *index) {
	if ix.applied() == ix.ops.Load() {
		return
	}
	d.apply(ix)
}

// afterSearch, when set by a test, is called by Add after its shared
// search, outside any lock; linearised is called under the exclusive lock
// by Add at its commit ("add") and by Remove ("remove"), in the order of
// their turns.
var (
	afterSearch func(id string)
	linearised  func(op, id string)
)

// hitSet counts the band hits of the groups read by one lookup: open
// addressing over group+1 (0 empty), cleared by the slots it used.
type hitSet struct {
	keys []uint32
	hits []uint16
	used []int32
}

// add adds n to the hits of g and returns them.
func (h *hitSet) add(g uint32, n uint16) uint16 {
	if 2*(len(h.used)+1) > len(h.keys) {
		h.grow()
	}
	mask := len(h.keys) - 1
	k := g + 1
	for i := int(k*0x9e3779b9) & mask; ; i = (i + 1) & mask {
		switch h.keys[i] {
		case k:
			h.hits[i] += n
			return h.hits[i]
		case 0:
			h.keys[i], h.hits[i] = k, n
			h.used = append(h.used, int32(i))
			return n
		}
	}
}

func (h *hitSet) grow() {
	oldKeys, oldHits, oldUsed := h.keys, h.hits, h.used
	size := max(64, 2*len(h.keys))
	h.keys, h.hits, h.used = hashtab.FreshSlice[uint32](size), make([]uint16, size), make([]int32, 0, size/2)
	for _, i := range oldUsed {
		h.add(oldKeys[i]-1, oldHits[i])
	}
}

// reset empties the set in O(entries); a set grown past 64K slots by one
// large lookup is dropped.
func (h *hitSet) reset() {
	if len(h.keys) > 1<<16 {
		*h = hitSet{}
		return
	}
	for _, i := range h.used {
		h.keys[i] = 0
	}
	h.used = h.used[:0]
}

// shrink drops scratch grown by one large lookup.
func (sc *search) shrink() {
	if cap(sc.scored) > 1<<16 || cap(sc.cands) > 1<<16 {
		sc.scored, sc.cands = nil, nil
	}
}
