package codet

// Query: what Add would return, computed without changing the tree, the
// vocabulary or the online table.

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Query returns what Add(doc) would return now, without indexing doc or
// changing anything a later call observes (Stats included); doc.ID may be
// empty, and a live document with that ID is not reported. It costs Add's
// scoring walk, O(L + s·PSC·DT·NodeLimit), under the exclusive lock.
// With a full Config.Window it leaves out what Add would evict first, or,
// when that eviction would compact the index, answers from a private copy
// at O(index size). It returns an error wrapping [detector.ErrTooLarge]
// for a text over Config.MaxTextBytes, or [detector.ErrClosed].
func (d *Detector) Query(doc detector.Doc) ([]detector.Match, error) { return d.eng.Query(doc) }

// lookup is Search (k = 0) or Rank (k > 0) for a lookup's features f,
// analysed outside the lock, under the exclusive lock: the contents of
// the answer, with the document's sequences in d.buf meanwhile. With a
// full window what Add would evict first is left out (f.ev, for Screen),
// and when that eviction would compact the index the answer comes from a
// private copy.
func (d *index) lookup(cs []engine.Candidate, f *features, k int) []engine.Candidate {
	w := f.w
	if d.s.Window > 0 && d.docs.Len() >= d.s.Window {
		// What a full window's Add would evict first is left out (f.ev,
		// for Screen), and from the probe (d.ev).
		ev := d.evictees()
		if len(ev.docs) == d.docs.Len() {
			return cs // Add would find the detector empty
		}
		f.ev = ev
		if ev.compacts || d.copyLookups {
			return d.copyRuns(cs, f.text, k)
		}
		d.ev = ev
		defer func() { d.ev = nil }()
	} else if d.copyLookups {
		return d.copyRuns(cs, f.text, k)
	}
	if w.resolved { // by Prepare (Nearest): the lookup's IDs are its own
		w.resolved = false
		copy(w.buf.terms, w.local)
	}
	d.lookupTerms(w, f.ad)
	defer d.endAdd(w)
	if k > 0 {
		d.rank = true
		defer func() { d.rank = false }()
		return d.nearestLocked(cs, k)
	}
	cs, _, _ = d.queryRuns(cs, nil)
	return cs
}

// lookupTerms puts the sequences of the analysed document ad into d.buf
// for a lookup (Query, Nearest) under the exclusive lock, its terms
// carrying the IDs Add would give them, without interning any: with
// online weights the sequences are built here, from a copy of the
// document frequencies counting ad. The caller calls d.endAdd(w) after.
func (d *index) lookupTerms(w *worker, ad *textproc.Document) {
	d.nextGen()
	if w.epoch != d.epoch { // the vocabulary was compacted
		clear(w.gid)
		w.epoch = d.epoch
	}
	q := queryTerms{d: d, w: w, fresh: make(map[string]uint32)}
	if !d.frozen {
		if d.idf == nil {
			q.count(ad)
		}
		d.s.build(&w.buf, ad, &q)
	}
	for i, id := range w.buf.terms {
		w.buf.terms[i] = q.id(id)
	}
	d.buf = &w.buf
}

// queryRuns is Query under the lock for the document in d.buf, whose
// terms carry the IDs Add would give them: the contents of what an Add
// would return, computed as it computes it, without inserting, appended
// to cs. It returns covered with the groups whose every document the
// contents cover appended, and the document's SCS if it probed the tree,
// or -1 (an exact copy of a live content is answered from its stored
// relations without a probe, and a document without sequences matches
// nothing). Stats does not count the probe's increments.
func (d *index) queryRuns(cs []engine.Candidate, covered []uint32) ([]engine.Candidate, []uint32, float64) {
	b := d.buf
	if b.n() == 0 {
		return cs, covered, -1
	}
	if d.s.Collapse != CollapseOff {
		if g, ok := d.bySig[b.sig]; ok && (d.ev == nil || !d.ev.groups[g]) {
			return d.runsOf(g, noGroup, cs), coveredBy(covered, g, d.groups[g].containers), -1
		}
		if nr, ok := d.nearBySig[b.sig]; ok && (d.ev == nil || !d.ev.nears[nr]) {
			g := d.nears[nr].g
			return d.runsOf(g, nr, cs), coveredBy(covered, g, d.groups[g].containers), -1
		}
	}
	stats := d.stats
	scs := d.probe()
	d.stats = stats // Query's increments are not counted
	if d.s.Collapse == CollapseNear {
		if r, fwd, _, ok := d.nearest(scs); ok {
			// A new near content of r: r's containers, r and the documents
			// it represents with CS(R, d)/SCS(d).
			gr := &d.groups[r]
			cs = d.containerRuns(gr.containers, cs)
			cs = d.all(cs, r, noGroup, fwd)
			return cs, coveredBy(covered, r, gr.containers), scs
		}
	}
	var in []edge
	for _, j := range d.touched {
		if e, _, ok, _ := d.judge(scs, j); ok {
			in = append(in, e)
		}
	}
	return d.containerRuns(in, cs), coveredBy(covered, noGroup, in), scs
}

// coveredBy appends to covered group g (unless noGroup) and the groups of
// es.
func coveredBy(covered []uint32, g uint32, es []edge) []uint32 {
	if g != noGroup {
		covered = append(covered, g)
	}
	for _, e := range es {
		covered = append(covered, e.g)
	}
	return covered
}

// queryTerms gives the terms of a queried document the detector term IDs
// Add would give them, without interning: a term the vocabulary lacks
// gets the next free ID in the order Add would intern it. With online
// weights it also holds the document frequencies Add would count.
type queryTerms struct {
	d     *index
	w     *worker
	fresh map[string]uint32 // terms not in the vocabulary: their IDs
	// With online weights: the detector term IDs of the document's
	// distinct terms, each counted once more than the table says.
	counted map[uint32]bool
}

// id returns the detector term ID of the worker's local ID.
func (q *queryTerms) id(local uint32) uint32 {
	g, term, ok := q.d.known(q.w, local)
	if ok {
		return g
	}
	if g, ok = q.fresh[term]; !ok {
		g = uint32(len(q.d.terms) + len(q.fresh))
		q.fresh[term] = g
	}
	return g
}

// count does what [Detector.countOnline] does, in q: every distinct term
// of doc gets an ID (in the order Add interns them) and is counted.
func (q *queryTerms) count(doc *textproc.Document) {
	q.counted = make(map[uint32]bool, len(doc.Tokens))
	for _, t := range doc.Tokens {
		q.counted[q.id(t.ID)] = true
	}
}

// weight is the weight Add would give the term: the table's, or with
// online weights log(1 + N/df) with the document counted.
func (q *queryTerms) weight(local uint32, term string) float64 {
	d := q.d
	if d.idf != nil {
		return d.idf.Weight(term)
	}
	g := q.id(local)
	df := int64(0)
	if int(g) < len(d.df) {
		df = d.df[g]
	}
	if q.counted[g] {
		df++
	}
	return math.Log1p(float64(d.nDocs+1) / float64(max(df, 1)))
}

func (q *queryTerms) hash(id uint32, term string) uint64 { return q.w.hash(id, term) }

// copyRuns answers a lookup from a private copy of the index when Add
// would first evict documents of a full window and compact the index:
// the copy, made as a snapshot is, takes the Add (Query, with an ID no
// live document has and room for one more result, so that the engine can
// leave out the live document of the query's ID) or evicts and ranks
// (Nearest, k > 0). Its answer is mapped back to the contents here, which
// hold the same documents but those evicted (the engine then gives each
// content's documents in its order, the evicted ones left out by Screen).
// The caller holds the lock.
func (d *index) copyRuns(cs []engine.Candidate, text string, k int) []engine.Candidate {
	c, err := d.privateCopy(k == 0)
	if err != nil {
		panic(fmt.Sprintf("codet: copying the index: %v", err)) // its own snapshot
	}
	var ms []detector.Match
	if k > 0 {
		c.locked(func(x *index) {
			for x.docs.Len() >= x.s.Window && x.head < len(x.queue) {
				x.evictOldest()
			}
		})
		ms, err = c.Nearest(text, k)
	} else {
		id := ""
		for n := 0; ; n++ {
			id = "\x00query" + strconv.Itoa(n)
			if _, err := d.docs.Lookup("Query", id); err != nil {
				break
			}
		}
		ms, err = c.Add(detector.Doc{ID: id, Text: text})
	}
	if err != nil {
		panic(fmt.Sprintf("codet: a lookup on the copy of the index: %v", err))
	}
	type run struct {
		eg    uint32
		score float64
	}
	seen := map[run]bool{}
	for _, m := range ms {
		idx, err := d.docs.Lookup("Query", m.ID)
		if err != nil {
			continue
		}
		r := run{d.v.Group(idx), m.Score}
		if r.eg != noGroup && !seen[r] {
			seen[r] = true
			cs = append(cs, engine.Candidate{Group: r.eg, Score: r.score})
		}
	}
	return cs
}

// privateCopy returns a copy of the index, made as a snapshot is, for a
// lookup on a full window whose eviction would compact the index; extra
// raises its results' cap by one. The caller holds the lock.
func (d *index) privateCopy(extra bool) (*Detector, error) {
	more := 0
	if extra {
		more = 1
	}
	c, err := newDetector(d.s.Config, d.alg.callerIDF, more)
	if err != nil {
		return nil, err
	}
	return c, c.eng.LoadSections(d.EncodeSections())
}

// eviction is what Add would remove first from a full window: the
// oldest live documents, the contents and near contents left without a
// document (the groups purged from the tree), and whether a purge would
// compact the node array and the vocabulary ([Detector.maybeCompact]).
type eviction struct {
	docs     map[uint32]bool
	groups   map[uint32]bool
	nears    map[uint32]bool
	compacts bool
}

// evictees returns what Add would evict now. The caller holds the lock.
func (d *index) evictees() *eviction {
	ev := &eviction{docs: map[uint32]bool{}, groups: map[uint32]bool{}, nears: map[uint32]bool{}}
	n := d.docs.Len()
	for _, q := range d.queue[d.head:] {
		if n < d.s.Window {
			break
		}
		if d.docs.Live(q.idx) && d.docOrd[q.idx] == q.ord {
			ev.docs[q.idx] = true
			n--
		}
	}
	// Near contents and groups left without a document: a content is
	// gone when every one of its documents is evicted.
	left := map[uint32]int{} // by engine group: its documents evicted
	for idx := range ev.docs {
		if eg := d.v.Group(idx); eg != noGroup {
			left[eg]++
		}
	}
	gone := func(eg uint32) bool { return eg == noGroup || left[eg] == d.v.Size(eg) }
	// kept: a near content some document outside ev.docs keeps.
	kept := func(x uint32) bool { return !ev.nears[x] && !gone(d.nears[x].eg) }
	for idx := range ev.docs {
		eg := d.v.Group(idx)
		if eg == noGroup {
			continue
		}
		f := d.v.Features(eg)
		g, nr := f.g, f.nr
		if ev.groups[g] {
			continue
		}
		if nr != noGroup && !ev.nears[nr] && gone(d.nears[nr].eg) {
			ev.nears[nr] = true
		}
		gr := &d.groups[g]
		if gone(gr.eg) && !slices.ContainsFunc(gr.near, kept) {
			ev.groups[g] = true
			for _, x := range gr.near {
				ev.nears[x] = true
			}
		}
	}
	if len(ev.groups) == 0 {
		return ev
	}
	// The nodes the purges free: those whose every visit is by a purged
	// group.
	refs := map[uint32]uint32{}
	freed := 0
	for g := range ev.groups {
		for _, e := range d.groups[g].ends {
			for c := e; c != 0; c = d.nodes.at(c).parent {
				r, ok := refs[c]
				if !ok {
					r = d.nodes.at(c).refs
				}
				r--
				refs[c] = r
				if r == 0 {
					freed++
				}
			}
		}
	}
	live := d.nodes.len() - 1 - len(d.freeNodes) - freed
	ev.compacts = len(d.terms) > d.termsAt || len(d.freeNodes)+freed > live+compactSlack
	return ev
}

// visitors returns the length of node nd's visitor list, less the
// entries of groups a Query's eviction purges.
func (d *index) visitors(nd *node) int {
	if d.ev == nil || len(d.ev.groups) == 0 {
		return len(nd.vis)
	}
	n := 0
	for _, v := range nd.vis {
		if !d.ev.groups[v.g] {
			n++
		}
	}
	return n
}
