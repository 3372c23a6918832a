package codet

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

var (
	_ detector.Detector = (*Detector)(nil)
	_ detector.Remover  = (*Detector)(nil)
)

type queued struct {
	ord uint64
	idx uint32
}

// edge is one stored containment relation between groups, seen from one
// side: the other group and CS/SCS of the contained side.
type edge struct {
	g     uint32
	score float64
}

// group is one distinct content in the tree: a document, plus the live
// documents collapsed into it ([CollapseExact]). All members have the same
// sequences, hence the same SCS and the same relations.
type group struct {
	members []uint32 // dense document indexes, sorted by ID
	ends    []uint32 // deepest node of each sequence, in sequence order
	sent    []uint32 // sentence ordinal of each sequence
	scs     float64
	sig     [2]uint64
	// containers are the groups that contain this one (with CS/SCS of this
	// group); contains are the groups this one contains.
	containers []edge
	contains   []uint32
	// near are the near-duplicate contents this group represents
	// ([CollapseNear]), indexes into Detector.nears. A group stays in the
	// tree while it has live members or near contents.
	near []uint32
	// nearDocs are the documents of all near contents, sorted by ID.
	nearDocs []uint32
}

// nearContent is a content represented by a group it is a near-duplicate
// of ([CollapseNear]): it is not in the tree. Its sequences are kept for
// [Detector.Matched].
type nearContent struct {
	members []uint32 // dense document indexes, sorted by ID
	g       uint32   // the representative group
	// fwd is CS(R, d)/SCS(d) (the representative contains d), rev is
	// CS(R, d)/SCS(R) (d contains the representative), both measured at
	// the insertion of the first document of this content.
	fwd, rev float64
	sig      [2]uint64
	terms    []uint32 // term IDs of every sequence, concatenated
	off      []int32  // sequence k is terms[off[k]:off[k+1]]
	sent     []uint32 // sentence ordinal of each sequence
}

// Stats describes the index. Counters accumulate over the detector's life;
// sizes are current.
type Stats struct {
	// Docs is the number of live documents; Groups the number of distinct
	// contents among them (documents in the tree).
	Docs, Groups int
	// Nodes is the number of live tree nodes (root excluded); Visitors the
	// number of visitor entries in active nodes.
	Nodes, Visitors int
	// Deactivated counts node deactivations (Alg. 2).
	Deactivated int
	// Added counts documents added; Collapsed those represented by a live
	// content instead of being inserted, NearCollapsed those of them
	// represented by a near-duplicate ([CollapseNear]).
	Added, Collapsed, NearCollapsed int
	// Near is the number of live near-duplicate contents represented by a
	// group instead of being in the tree ([CollapseNear]).
	Near int
	// Increments counts IncreaseSimilarity calls (Alg. 3); Candidates the
	// distinct earlier groups a new document was scored against, summed
	// over documents ("calculated similarity values", Varol 2012 §5.2.3).
	Increments, Candidates int
	// Edges is the number of stored containment relations between groups.
	Edges int
}

// Span is a sentence of a contained document and how much of it was found in
// a container (see [Detector.Matched]).
type Span struct {
	// Start and End are the byte offsets of the sentence in the text given
	// to Add.
	Start, End int
	// Score is the best cs(s, t)/cs(s, s) over the container's sequences t
	// (Eq. 3.2 truncated at DT): 1 when the sentence's DT most significant
	// words all appear, in the same idf order, in one sentence of the
	// container.
	Score float64
}

// Detector is a CoDet corpus tree over a stream of documents.
//
// A Detector is safe for concurrent use by multiple goroutines: Add and
// Remove take an exclusive lock, Containers and Matched a shared one.
type Detector struct {
	mu   sync.RWMutex
	s    settings
	docs *docset.Set
	an   *textproc.Analyzer

	// idf: a caller's table, or (nil) an online one kept in df/nDocs.
	idf    *textproc.IDF
	idfN   int64     // N of idf when wcache was filled
	wcache []float64 // frozen-table weights by term ID; NaN = not cached
	df     []int64   // online document frequencies by term ID
	nDocs  int64
	seen   []uint32 // per term ID: stamp of the last document counting it
	wdoc   []float64
	wstamp []uint32

	nodes     []node
	freeNodes []uint32
	children  map[uint64]uint32

	groups     []group
	freeGroups []uint32
	bySig      map[[2]uint64]uint32

	nears     []nearContent
	freeNears []uint32
	nearBySig map[[2]uint64]uint32

	docGroup []uint32   // per dense index: its group, or noGroup
	docNear  []uint32   // per dense index: its near content, or noGroup
	docSpans [][]uint32 // per dense index: sentence offsets (start, end pairs)
	docOrd   []uint64   // per dense index: position of its Add

	// Arrival order for the time window: queue[head:] holds the positions
	// of documents added, oldest first (entries of documents removed since
	// are skipped when reached).
	queue   []queued
	head    int
	nextOrd uint64

	// per-Add scratch
	buf     seqBuf
	acc     []float64
	stamp   []uint32
	gen     uint32
	touched []uint32
	visits  []uint32 // node of each visit of the last probe, 0 if absent
	order   []int
	cur     Stats
	stats   Stats
}

// New returns a detector for cfg that keeps its idf table online: each
// document's terms are counted before it is scored, and a term's weight is
// log(1 + N/df) (the smoothed form of Varol 2012 Eq. 2.1, which stays
// positive for the first documents of a stream). Documents are counted once,
// when added, and not uncounted by Remove. See [NewWithIDF] for a
// reference collection. New returns an error wrapping
// [detector.ErrInvalidConfig] if cfg is invalid, and nil otherwise.
func New(cfg Config) (*Detector, error) {
	return newDetector(cfg, nil)
}

// NewWithIDF returns a detector for cfg that weighs terms with idf, a table
// built from a reference collection (Varol 2012 §5.1.3: "idf values are
// attained on last 25% of our dataset"). The detector only reads idf; a
// frozen table's weights are cached. New returns an error wrapping
// [detector.ErrInvalidConfig] if cfg is invalid or idf is nil.
func NewWithIDF(cfg Config, idf *textproc.IDF) (*Detector, error) {
	if idf == nil {
		return nil, fmt.Errorf("codet: NewWithIDF: nil IDF table: %w", detector.ErrInvalidConfig)
	}
	return newDetector(cfg, idf)
}

func newDetector(cfg Config, idf *textproc.IDF) (*Detector, error) {
	s, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	an, err := textproc.NewAnalyzer(s.analyzerConfig())
	if err != nil {
		return nil, fmt.Errorf("codet: %v: %w", err, detector.ErrInvalidConfig)
	}
	d := &Detector{
		s:         s,
		docs:      docset.New("codet", cfg.MaxTextBytes),
		an:        an,
		idf:       idf,
		idfN:      -1,
		nodes:     []node{{}}, // the virtual root
		children:  make(map[uint64]uint32),
		bySig:     make(map[[2]uint64]uint32),
		nearBySig: make(map[[2]uint64]uint32),
	}
	return d, nil
}

// Config returns the configuration the detector was built with.
func (d *Detector) Config() Config { return d.s.Config }

// termWeight is the weight of a term for the document being added.
type termWeight Detector

func (t *termWeight) weight(id uint32, term string) float64 {
	d := (*Detector)(t)
	if int(id) < len(d.wstamp) && d.wstamp[id] == d.gen {
		return d.wdoc[id]
	}
	var w float64
	switch {
	case d.idf == nil:
		w = d.onlineWeight(id)
	case d.idfN >= 0: // frozen table: cached
		if int(id) < len(d.wcache) && !math.IsNaN(d.wcache[id]) {
			w = d.wcache[id]
		} else {
			w = d.idf.Weight(term)
			d.wcache = growNaN(d.wcache, int(id)+1)
			d.wcache[id] = w
		}
	default:
		w = d.idf.Weight(term)
	}
	if int(id) >= len(d.wstamp) {
		n := max(int(id)+1, 2*len(d.wstamp))
		d.wstamp = grow(d.wstamp, n)
		d.wdoc = grow(d.wdoc, n)
	}
	d.wstamp[id], d.wdoc[id] = d.gen, w
	return w
}

func (t *termWeight) key(_ uint32, w float64) float64 { return w }

func grow[T any](s []T, n int) []T {
	if n <= len(s) {
		return s
	}
	return append(s, make([]T, n-len(s))...)
}

func growNaN(s []float64, n int) []float64 {
	for len(s) < n {
		s = append(s, math.NaN())
	}
	return s
}

// onlineWeight is log(1 + N/df) of the online table; df ≥ 1 for every term
// of the document being added, which is counted first.
func (d *Detector) onlineWeight(id uint32) float64 {
	if d.nDocs == 0 {
		return 0
	}
	df := int64(1)
	if int(id) < len(d.df) && d.df[id] > 0 {
		df = d.df[id]
	}
	return math.Log1p(float64(d.nDocs) / float64(df))
}

// weightNow is idf(term) as a reader sees it (no cache writes).
func (d *Detector) weightNow(id uint32) float64 {
	if d.idf == nil {
		return d.onlineWeight(id)
	}
	if d.idfN >= 0 && int(id) < len(d.wcache) && !math.IsNaN(d.wcache[id]) {
		return d.wcache[id]
	}
	return d.idf.Weight(d.an.TermOf(id))
}

// prepare starts a new Add: a new scratch generation, the online idf
// counts of doc, and the frozen-table cache.
func (d *Detector) prepare(doc *textproc.Document) {
	d.gen++
	if d.gen == 0 { // wrapped: reset every stamp
		clear(d.stamp)
		clear(d.wstamp)
		clear(d.seen)
		d.gen = 1
	}
	if d.idf == nil {
		d.nDocs++
		for _, t := range doc.Tokens {
			if int(t.ID) >= len(d.seen) {
				n := max(int(t.ID)+1, 2*len(d.seen))
				d.seen = grow(d.seen, n)
				d.df = grow(d.df, n)
			}
			if d.seen[t.ID] != d.gen {
				d.seen[t.ID] = d.gen
				d.df[t.ID]++
			}
		}
		return
	}
	if d.idf.Frozen() {
		if n := d.idf.N(); n != d.idfN {
			d.idfN = n
			d.wcache = d.wcache[:0]
		}
	} else {
		d.idfN = -1
	}
}

// Add analyses doc, scores it against the tree and inserts it (Varol 2012
// Alg. 1-3), and returns the live documents that contain it, strongest
// first, with Score = CS(C, doc)/SCS(doc) > ETL (which can exceed 1: a
// container may share more with doc than doc shares with itself, §3.1).
// Containments of earlier documents by doc are recorded and appear in their
// Containers.
//
// Add time is O(L + Σ visitor-list lengths over the ≤ PSC·DT nodes of each
// sentence), L the text length; each list holds at most NodeLimit entries,
// so Add is O(L + s·PSC·DT·NodeLimit) for s sentences, plus the output.
// A copy of a live document's content ([CollapseExact]) costs O(L) plus
// the output.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.docs.Check(doc); err != nil {
		return nil, err
	}
	// Window: the oldest documents leave before the new one is scored.
	for d.s.Window > 0 && d.docs.Len() >= d.s.Window && d.head < len(d.queue) {
		d.evictOldest()
	}
	ad := d.an.Analyze(doc.Text)
	d.prepare(ad)
	d.s.build(&d.buf, ad, (*termWeight)(d))
	idx, err := d.docs.Add(doc)
	if err != nil {
		return nil, err
	}
	d.stats.Added++
	if int(idx) >= len(d.docGroup) {
		d.docGroup = grow(d.docGroup, int(idx)+1)
		d.docSpans = grow(d.docSpans, int(idx)+1)
		d.docOrd = grow(d.docOrd, int(idx)+1)
		d.docNear = grow(d.docNear, int(idx)+1)
	}
	d.docOrd[idx] = d.nextOrd
	d.queue = append(d.queue, queued{ord: d.nextOrd, idx: idx})
	d.nextOrd++
	d.docGroup[idx] = noGroup
	d.docNear[idx] = noGroup
	d.docSpans[idx] = append(d.docSpans[idx][:0], d.buf.spans...)
	if d.buf.n() == 0 {
		return nil, nil // no indexable terms: matches nothing
	}
	sig := d.buf.sig
	if d.s.Collapse != CollapseOff {
		if g, ok := d.bySig[sig]; ok {
			d.stats.Collapsed++
			d.join(g, idx)
			return d.matches(idx), nil
		}
		if nr, ok := d.nearBySig[sig]; ok {
			d.stats.Collapsed++
			d.stats.NearCollapsed++
			d.joinNear(nr, idx)
			return d.matches(idx), nil
		}
	}
	scs := d.probe()
	if d.s.Collapse == CollapseNear {
		if r, fwd, rev, ok := d.nearest(scs); ok {
			d.stats.Collapsed++
			d.stats.NearCollapsed++
			nr := d.newNear(r, sig, fwd, rev)
			d.joinNear(nr, idx)
			return d.matches(idx), nil
		}
	}
	g := d.newGroup()
	gr := &d.groups[g]
	gr.sig = sig
	gr.scs = scs
	d.join(g, idx)
	d.commit(g)
	d.decide(g)
	if d.s.Collapse != CollapseOff {
		if _, taken := d.bySig[sig]; !taken {
			d.bySig[sig] = g
		}
	}
	return d.matches(idx), nil
}

// nearest returns the group of the tree the document just probed is a
// near-duplicate of ([CollapseNear]): the touched group with the largest
// min(CS/SCS(d), CS/SCS(R)), both above ETL and at least the collapse
// threshold; ties go to the lowest group index (d.touched is sorted).
func (d *Detector) nearest(scs float64) (r uint32, fwd, rev float64, ok bool) {
	if scs <= 0 {
		return 0, 0, 0, false
	}
	best := math.Inf(-1)
	for _, j := range d.touched {
		o := &d.groups[j]
		if o.scs <= 0 {
			continue
		}
		cs := d.acc[j]
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
func (d *Detector) newNear(r uint32, sig [2]uint64, fwd, rev float64) uint32 {
	var nr uint32
	if n := len(d.freeNears); n > 0 {
		nr = d.freeNears[n-1]
		d.freeNears = d.freeNears[:n-1]
	} else {
		d.nears = append(d.nears, nearContent{})
		nr = uint32(len(d.nears) - 1)
	}
	b := &d.buf
	d.nears[nr] = nearContent{
		g: r, fwd: fwd, rev: rev, sig: sig,
		terms: slices.Clone(b.terms),
		off:   slices.Clone(b.off),
		sent:  slices.Clone(b.sent),
	}
	gr := &d.groups[r]
	gr.near = append(gr.near, nr)
	d.nearBySig[sig] = nr
	return nr
}

// joinNear adds document idx to near content nr, keeping members sorted
// by ID.
func (d *Detector) joinNear(nr, idx uint32) {
	x := &d.nears[nr]
	x.members = d.insertSorted(x.members, idx)
	d.docNear[idx] = nr
	d.docGroup[idx] = x.g
	gr := &d.groups[x.g]
	gr.nearDocs = d.insertSorted(gr.nearDocs, idx)
}

func (d *Detector) newGroup() uint32 {
	if n := len(d.freeGroups); n > 0 {
		g := d.freeGroups[n-1]
		d.freeGroups = d.freeGroups[:n-1]
		return g
	}
	d.groups = append(d.groups, group{})
	g := uint32(len(d.groups) - 1)
	d.acc = append(d.acc, 0)
	d.stamp = append(d.stamp, 0)
	return g
}

// join adds document idx to group g, keeping members sorted by ID.
func (d *Detector) join(g, idx uint32) {
	gr := &d.groups[g]
	gr.members = d.insertSorted(gr.members, idx)
	d.docGroup[idx] = g
}

// insertSorted inserts document idx into members, sorted by ID.
func (d *Detector) insertSorted(members []uint32, idx uint32) []uint32 {
	id := d.docs.ID(idx)
	k, _ := slices.BinarySearchFunc(members, id, func(m uint32, id string) int {
		return cmp.Compare(d.docs.ID(m), id)
	})
	return slices.Insert(members, k, idx)
}

// probe is the scoring half of Alg. 1 step 4 with Alg. 2-3 for the
// document in d.buf: every sequence walks the tree from the root without
// changing it, and every earlier visitor of an active node gains the
// node's impact, as if the document had been added to the visitor list
// first (ALGORITHMS.md §7 fix 1: never itself): a node whose list would
// pass NodeLimit with it would be deactivated by that visit and scores
// nothing (fix 4). It fills d.acc for the groups in d.touched (sorted),
// records the node of every visit in d.visits (0 past the existing
// nodes) and returns the document's SCS. [Detector.commit] then inserts
// the document; the result is the one of Alg. 2 walking and inserting at
// once, since a document's own visits never score.
func (d *Detector) probe() float64 {
	d.touched = d.touched[:0]
	d.visits = d.visits[:0]
	d.cur = Stats{}
	b := &d.buf
	pairwise := d.s.Mode == ModePairwise
	selfTree := 0.0
	for k := range b.n() {
		ids, ws := b.seq(k)
		c := uint32(0)
		for i, id := range ids {
			// Alg. 3: improvement ← word.idfValue × depth^DSP.
			imp := ws[i] * d.s.pow[i+1]
			selfTree += imp
			if c != noGroup {
				if ch, ok := d.children[childKey(c, id)]; ok {
					c = ch
				} else {
					c = noGroup // absent: so is every deeper node
				}
			}
			if c == noGroup {
				d.visits = append(d.visits, 0)
				continue
			}
			d.visits = append(d.visits, c)
			nd := &d.nodes[c]
			if !nd.active || len(nd.vis) >= d.s.limit {
				continue
			}
			for _, v := range nd.vis {
				// IncreaseSimilarity(d_i, d_j, word, depth): cs[i][j] += imp.
				// The symmetric cs[j][i] is the same number, kept once.
				inc := imp
				if pairwise {
					inc *= float64(v.n)
				}
				if d.stamp[v.g] != d.gen {
					d.stamp[v.g] = d.gen
					d.acc[v.g] = 0
					d.touched = append(d.touched, v.g)
				}
				d.acc[v.g] += inc
				d.cur.Increments++
			}
		}
	}
	d.cur.Candidates = len(d.touched)
	d.stats.Increments += d.cur.Increments
	d.stats.Candidates += d.cur.Candidates
	slices.Sort(d.touched) // deterministic edge order
	// SCS with the scoring the tree applies (ALGORITHMS.md §7 "SCS
	// consistency"): a copy of this document visiting its nodes gains, per
	// visit, the node's impact once (ModeTree: a visitor set) or times this
	// document's count there (ModePairwise: Eq. 3.3 truncated at DT).
	if pairwise || d.s.SCSPairs {
		return d.pairSelf()
	}
	return selfTree
}

// commit inserts the probed document as group g (Alg. 2 lines 1-22
// without the scoring, done by probe): every sequence walks the tree,
// creating missing nodes, and g joins the visitor list of every active
// node it visits; a list passing NodeLimit deactivates its node.
func (d *Detector) commit(g uint32) {
	b := &d.buf
	gr := &d.groups[g]
	gr.ends = gr.ends[:0]
	gr.sent = append(gr.sent[:0], b.sent...)
	p := 0
	for k := range b.n() {
		ids, _ := b.seq(k)
		c := uint32(0)
		for _, id := range ids {
			if n := d.visits[p]; n != 0 {
				c = n
			} else {
				c = d.child(c, id)
			}
			p++
			d.enter(c, g)
		}
		gr.ends = append(gr.ends, c)
	}
}

// decide is Alg. 3 lines 6-15 for the new group g against every group the
// probe touched: both containment directions.
func (d *Detector) decide(g uint32) {
	gr := &d.groups[g]
	etl := d.s.etl
	for _, j := range d.touched {
		cs := d.acc[j]
		other := &d.groups[j]
		// if cs[i][j] > ETL × scs[i]: Containers(d_i) ∪= {d_j}
		if gr.scs > 0 && cs > etl*gr.scs {
			gr.containers = append(gr.containers, edge{j, cs / gr.scs})
			other.contains = append(other.contains, g)
			d.stats.Edges++
		}
		// if cs[j][i] > ETL × scs[j]: Containers(d_j) ∪= {d_i}
		if other.scs > 0 && cs > etl*other.scs {
			other.containers = append(other.containers, edge{g, cs / other.scs})
			gr.contains = append(gr.contains, j)
			d.stats.Edges++
		}
	}
}

// pairSelf returns Σ_p v(p)²·imp(p) over the distinct prefixes p of the
// sequences in d.buf, v(p) being how many sequences start with p: the
// ModePairwise self-similarity (Eq. 3.3 truncated at DT). Sorted
// lexicographically, the sequences sharing a prefix are contiguous.
func (d *Detector) pairSelf() float64 {
	b := &d.buf
	n := b.n()
	d.order = d.order[:0]
	for k := range n {
		d.order = append(d.order, k)
	}
	slices.SortFunc(d.order, func(x, y int) int {
		a, _ := b.seq(x)
		c, _ := b.seq(y)
		return slices.Compare(a, c)
	})
	s := 0.0
	for depth := 1; depth <= d.s.dt; depth++ {
		for i := 0; i < n; {
			ids, ws := b.seq(d.order[i])
			if len(ids) < depth {
				i++
				continue
			}
			j := i + 1
			for j < n {
				o, _ := b.seq(d.order[j])
				if len(o) < depth || !slices.Equal(o[:depth], ids[:depth]) {
					break
				}
				j++
			}
			v := float64(j - i)
			s += v * v * ws[depth-1] * d.s.pow[depth]
			i = j
		}
	}
	return s
}

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
		return nil
	}
	slices.SortStableFunc(runs, func(a, b run) int { return cmp.Compare(b.score, a.score) })
	n := 0
	for _, r := range runs {
		for _, l := range r.lists {
			n += len(l)
		}
	}
	limit := d.s.MaxResults
	if limit > 0 {
		n = min(n, limit+1)
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
	if len(out) == 0 {
		return nil
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
		return nil, nil
	}
	return d.matches(idx), nil
}

// Remove forgets the document id (the time window of Varol et al. 2011
// §3.3). The last document of a content frees its visitor entries, its
// stored relations, and every tree node no live document visits any more,
// so memory follows the live set. Remove time is O(s·PSC·DT·NodeLimit +
// relations) for s sentences. It returns an error wrapping
// [detector.ErrUnknownID] or [detector.ErrClosed].
func (d *Detector) Remove(id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Remove(id)
	if err != nil {
		return err
	}
	d.forget(idx)
	return nil
}

// Expire removes every live document added before position pos, where the
// n-th successful Add (counting from 0) has position n: a time window that
// keeps the documents newer than a caller-given position (Varol et al. 2011
// §3.3, "a time window concept, which makes older documents to be removed
// from the corpus tree"). It returns the number of documents removed, or
// an error wrapping [detector.ErrClosed]. Expire time is O(removed
// documents × Remove).
func (d *Detector) Expire(pos uint64) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.docs.Closed() {
		return 0, fmt.Errorf("codet: Expire(%d): %w", pos, detector.ErrClosed)
	}
	n := 0
	for d.head < len(d.queue) && d.queue[d.head].ord < pos {
		if d.evictOldest() {
			n++
		}
	}
	return n, nil
}

// Position returns the position the next successful Add will have (the
// number of documents added so far), for [Detector.Expire].
func (d *Detector) Position() uint64 {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.nextOrd
}

// evictOldest pops the oldest queue entry and removes its document if it
// is still the live document of that entry. It reports whether it removed
// one.
func (d *Detector) evictOldest() bool {
	q := d.queue[d.head]
	d.head++
	if d.head > 1024 && d.head*2 > len(d.queue) {
		d.queue = append(d.queue[:0], d.queue[d.head:]...)
		d.head = 0
	}
	if !d.docs.Live(q.idx) || d.docOrd[q.idx] != q.ord {
		return false // removed by the caller since
	}
	if _, err := d.docs.Remove(d.docs.ID(q.idx)); err != nil {
		return false
	}
	d.forget(q.idx)
	return true
}

// forget drops document idx from its group (or near content), a near
// content when it was its last document, and the group from the tree when
// it has neither live documents nor near contents left.
func (d *Detector) forget(idx uint32) {
	g, nr := d.docGroup[idx], d.docNear[idx]
	d.docGroup[idx] = noGroup
	d.docNear[idx] = noGroup
	d.docSpans[idx] = nil
	if g == noGroup {
		return
	}
	gr := &d.groups[g]
	if nr != noGroup {
		x := &d.nears[nr]
		x.members = deleteFirst(x.members, idx)
		gr.nearDocs = deleteFirst(gr.nearDocs, idx)
		if len(x.members) > 0 {
			return
		}
		gr.near = deleteFirst(gr.near, nr)
		if s, ok := d.nearBySig[x.sig]; ok && s == nr {
			delete(d.nearBySig, x.sig)
		}
		d.nears[nr] = nearContent{}
		d.freeNears = append(d.freeNears, nr)
	} else {
		gr.members = deleteFirst(gr.members, idx)
	}
	if len(gr.members) > 0 || len(gr.near) > 0 {
		return // the content stays, for its members or near contents
	}
	d.purge(g, gr.ends)
	for _, e := range gr.containers {
		o := &d.groups[e.g]
		o.contains = deleteFirst(o.contains, g)
	}
	for _, a := range gr.contains {
		o := &d.groups[a]
		o.containers = slices.DeleteFunc(o.containers, func(e edge) bool { return e.g == g })
	}
	d.stats.Edges -= len(gr.containers) + len(gr.contains)
	if s, ok := d.bySig[gr.sig]; ok && s == g {
		delete(d.bySig, gr.sig)
	}
	d.groups[g] = group{}
	d.freeGroups = append(d.freeGroups, g)
}

func deleteFirst(s []uint32, v uint32) []uint32 {
	if k := slices.Index(s, v); k >= 0 {
		return slices.Delete(s, k, k+1)
	}
	return s
}

// Matched returns the sentences of the document contained that were found
// in the document container: the byte offsets (into the text given to Add)
// of every sentence of contained that shares a scored prefix with a
// sentence of container, with the fraction of its self-similarity found,
// ordered by Start. It works for any two live documents, whether or not
// container ⊇ contained was decided. Matched time is O((|S_A| + |S_C|)·DT).
// It returns an error wrapping [detector.ErrUnknownID] or
// [detector.ErrClosed].
func (d *Detector) Matched(container, contained string) ([]Span, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	ci, err := d.docs.Lookup("Matched", container)
	if err != nil {
		return nil, err
	}
	ai, err := d.docs.Lookup("Matched", contained)
	if err != nil {
		return nil, err
	}
	if d.docGroup[ci] == noGroup || d.docGroup[ai] == noGroup || ci == ai {
		return nil, nil
	}
	// The prefixes of the container's sequences, by hash: a sequence of A
	// shares a prefix of length L with some sequence of C iff its prefix of
	// length L is in the set (prefix-closed).
	onC := make(map[[2]uint64]struct{})
	cTerms, _ := d.sequencesOf(ci)
	for _, seq := range cTerms {
		h := prefixSeed
		for _, t := range seq {
			h = prefixHash(h, t)
			onC[h] = struct{}{}
		}
	}
	spans := d.docSpans[ai]
	best := make([]float64, len(spans)/2)
	aTerms, aSent := d.sequencesOf(ai)
	for k, seq := range aTerms {
		self, found := 0.0, 0.0
		matching := true
		h := prefixSeed
		for i, t := range seq {
			imp := d.weightNow(t) * d.s.pow[i+1]
			self += imp
			h = prefixHash(h, t)
			if _, ok := onC[h]; ok && matching {
				found += imp
			} else {
				matching = false
			}
		}
		if self > 0 && found > 0 {
			o := aSent[k]
			best[o] = max(best[o], found/self)
		}
	}
	var out []Span
	for o, sc := range best {
		if sc > 0 {
			out = append(out, Span{Start: int(spans[2*o]), End: int(spans[2*o+1]), Score: sc})
		}
	}
	return out, nil
}

var prefixSeed = [2]uint64{0x9e3779b97f4a7c15, 0xc2b2ae3d27d4eb4f}

func prefixHash(h [2]uint64, t uint32) [2]uint64 {
	return [2]uint64{hashx.Combine(h[0], uint64(t)), hashx.Combine(h[1], uint64(t)+0x27d4eb2f165667c5)}
}

// sequencesOf returns the term sequences of live document idx and the
// sentence ordinal of each: read up the tree from its group's sequence
// ends, or from its near content.
func (d *Detector) sequencesOf(idx uint32) ([][]uint32, []uint32) {
	if nr := d.docNear[idx]; nr != noGroup {
		x := &d.nears[nr]
		out := make([][]uint32, len(x.off)-1)
		for k := range out {
			out[k] = x.terms[x.off[k]:x.off[k+1]]
		}
		return out, x.sent
	}
	gr := &d.groups[d.docGroup[idx]]
	out := make([][]uint32, len(gr.ends))
	for k, e := range gr.ends {
		var seq []uint32
		for c := e; c != 0; c = d.nodes[c].parent {
			seq = append(seq, d.nodes[c].term)
		}
		slices.Reverse(seq)
		out[k] = seq
	}
	return out, gr.sent
}

// Stats returns the index's counters and sizes. It is O(nodes).
func (d *Detector) Stats() Stats {
	d.mu.RLock()
	defer d.mu.RUnlock()
	st := d.stats
	st.Docs = d.docs.Len()
	st.Groups = len(d.groups) - len(d.freeGroups)
	st.Near = len(d.nears) - len(d.freeNears)
	st.Nodes = len(d.nodes) - 1 - len(d.freeNodes)
	for i := 1; i < len(d.nodes); i++ {
		st.Visitors += len(d.nodes[i].vis)
	}
	return st
}

// Close releases the index. It is idempotent and returns nil; every later
// call returns an error wrapping [detector.ErrClosed].
func (d *Detector) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.docs.Close() {
		d.nodes, d.freeNodes, d.children = nil, nil, nil
		d.groups, d.freeGroups, d.bySig = nil, nil, nil
		d.nears, d.freeNears, d.nearBySig, d.docNear = nil, nil, nil, nil
		d.docGroup, d.docSpans, d.docOrd, d.queue = nil, nil, nil, nil
		d.acc, d.stamp, d.touched = nil, nil, nil
	}
	return nil
}
