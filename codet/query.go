package codet

// Query: what Add would return, computed without changing the tree, the
// vocabulary or the online table.

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/seed-9ef9c1df/neardup/detector"
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
func (d *Detector) Query(doc detector.Doc) ([]detector.Match, error) {
	self := func() uint32 { // the live document with doc's ID, if any
		if doc.ID != "" {
			if idx, err := d.docs.Lookup("Query", doc.ID); err == nil {
				return idx
			}
		}
		return noGroup
	}
	return d.lookup(func() string { return fmt.Sprintf("Query(%q)", doc.ID) }, doc,
		func() ([]detector.Match, error) { return d.queryCopy(doc, self()) },
		func() []detector.Match {
			runs, _, _ := d.queryRuns(nil)
			return d.emit(runs, self(), d.s.MaxResults)
		})
}

// lookup runs a lookup of doc (Query, Nearest; name names it in errors):
// the size and closed checks and the analysis outside the lock, then
// under the exclusive lock answer, with the document's sequences in
// d.buf, or onCopy when a full window's eviction would compact the index.
func (d *Detector) lookup(name func() string, doc detector.Doc,
	onCopy func() ([]detector.Match, error), answer func() []detector.Match) ([]detector.Match, error) {
	if len(doc.Text) > d.s.MaxTextBytes {
		return nil, fmt.Errorf("codet: %s: %d bytes over the limit of %d: %w",
			name(), len(doc.Text), d.s.MaxTextBytes, detector.ErrTooLarge)
	}
	d.mu.RLock()
	closed := d.docs.Closed()
	d.mu.RUnlock()
	if closed {
		return nil, fmt.Errorf("codet: %s: %w", name(), detector.ErrClosed)
	}
	w, err := d.pool.get()
	if err != nil {
		return nil, fmt.Errorf("codet: %s: %v: %w", name(), err, detector.ErrInvalidConfig)
	}
	defer d.pool.put(w)
	ad := d.analyze(w, doc)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.docs.Closed() { // closed meanwhile
		return nil, fmt.Errorf("codet: %s: %w", name(), detector.ErrClosed)
	}
	if d.s.Window > 0 && d.docs.Len() >= d.s.Window {
		// What a full window's Add would evict first is left out, in d.ev.
		ev := d.evictees()
		switch {
		case len(ev.docs) == d.docs.Len():
			return []detector.Match{}, nil // Add would find the detector empty
		case ev.compacts:
			return onCopy()
		}
		d.ev = ev
		defer func() { d.ev = nil }()
	}
	d.lookupTerms(w, ad)
	defer d.endAdd(w)
	return answer(), nil
}

// lookupTerms puts the sequences of the analysed document ad into d.buf
// for a lookup (Query, Nearest) under the exclusive lock, its terms
// carrying the IDs Add would give them, without interning any: with
// online weights the sequences are built here, from a copy of the
// document frequencies counting ad. The caller calls d.endAdd(w) after.
func (d *Detector) lookupTerms(w *worker, ad *textproc.Document) {
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
// terms carry the IDs Add would give them: the runs of what
// [Detector.insert] would return, computed as it computes it, without
// inserting. It returns covered with the groups whose every document the
// runs list appended, and the document's SCS if it probed the tree, or
// -1 (an exact copy of a live content is answered from its stored
// relations without a probe, and a document without sequences matches
// nothing). Stats does not count the probe's increments.
func (d *Detector) queryRuns(covered []uint32) ([]run, []uint32, float64) {
	b := d.buf
	if b.n() == 0 {
		return nil, covered, -1
	}
	if d.s.Collapse != CollapseOff {
		if g, ok := d.bySig[b.sig]; ok && (d.ev == nil || !d.ev.groups[g]) {
			return d.runsOf(g, noGroup, nil), coveredBy(covered, g, d.groups[g].containers), -1
		}
		if nr, ok := d.nearBySig[b.sig]; ok && (d.ev == nil || !d.ev.nears[nr]) {
			g := d.nears[nr].g
			return d.runsOf(g, nr, nil), coveredBy(covered, g, d.groups[g].containers), -1
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
			runs := d.containerRuns(gr.containers, nil)
			runs = append(runs, run{[][]uint32{gr.members, gr.nearDocs}, noGroup, fwd})
			return runs, coveredBy(covered, r, gr.containers), scs
		}
	}
	var in []edge
	for _, j := range d.touched {
		if e, _, ok, _ := d.judge(scs, j); ok {
			in = append(in, e)
		}
	}
	return d.containerRuns(in, nil), coveredBy(covered, noGroup, in), scs
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
	d     *Detector
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

// queryCopy answers Query from a private copy of the index when Add would
// first evict documents of a full window: the copy, made as a snapshot
// is, takes the Add (with an ID no live document has, and room for one
// more result so that the live document self can be left out). The
// caller holds the lock.
func (d *Detector) queryCopy(doc detector.Doc, self uint32) ([]detector.Match, error) {
	c, err := d.privateCopy()
	if err != nil {
		return nil, fmt.Errorf("codet: Query(%q): copying the index: %w", doc.ID, err)
	}
	if c.s.MaxResults < math.MaxInt {
		c.s.MaxResults++
	}
	id := doc.ID
	if id == "" || self != noGroup {
		for k := 0; ; k++ {
			id = "\x00query" + strconv.Itoa(k)
			if _, err := c.docs.Lookup("Query", id); err != nil {
				break
			}
		}
	}
	ms, err := c.Add(detector.Doc{ID: id, Text: doc.Text})
	if err != nil {
		return nil, fmt.Errorf("codet: Query(%q): %w", doc.ID, err)
	}
	ms = slices.DeleteFunc(ms, func(m detector.Match) bool { return m.ID == doc.ID })
	if len(ms) > d.s.MaxResults {
		ms = ms[:d.s.MaxResults]
	}
	return ms, nil
}

// privateCopy returns a copy of the index, made as a snapshot is, for a
// lookup on a full window whose eviction would compact the index. The
// caller holds the lock.
func (d *Detector) privateCopy() (*Detector, error) {
	secs, _ := d.encodeLocked()
	c, err := newDetector(d.s.Config, d.callerIDF)
	if err != nil {
		return nil, err
	}
	return c, c.load(secs)
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
func (d *Detector) evictees() *eviction {
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
	// Near contents and groups left without a document.
	gone := func(members []uint32) bool {
		for _, m := range members {
			if !ev.docs[m] {
				return false
			}
		}
		return true
	}
	// kept: a near content some document outside ev.docs keeps.
	kept := func(x uint32) bool { return !ev.nears[x] && !gone(d.nears[x].members) }
	for idx := range ev.docs {
		g, nr := d.docGroup[idx], d.docNear[idx]
		if g == noGroup || ev.groups[g] {
			continue
		}
		if nr != noGroup && !ev.nears[nr] && gone(d.nears[nr].members) {
			ev.nears[nr] = true
		}
		gr := &d.groups[g]
		if gone(gr.members) && !slices.ContainsFunc(gr.near, kept) {
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
	left := map[uint32]uint32{}
	freed := 0
	for g := range ev.groups {
		for _, e := range d.groups[g].ends {
			for c := e; c != 0; c = d.nodes.at(c).parent {
				r, ok := left[c]
				if !ok {
					r = d.nodes.at(c).refs
				}
				r--
				left[c] = r
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
func (d *Detector) visitors(nd *node) int {
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
