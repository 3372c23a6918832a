package codet

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
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
	// Added counts documents added; Collapsed those represented by an
	// identical live document instead of being inserted.
	Added, Collapsed int
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

	docGroup []uint32   // per dense index: its group, or noGroup
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
	visits  []uint32
	vimp    []float64
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
		s:        s,
		docs:     docset.New("codet", cfg.MaxTextBytes),
		an:       an,
		idf:      idf,
		idfN:     -1,
		nodes:    []node{{}}, // the virtual root
		children: make(map[uint64]uint32),
		bySig:    make(map[[2]uint64]uint32),
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
	}
	d.docOrd[idx] = d.nextOrd
	d.queue = append(d.queue, queued{ord: d.nextOrd, idx: idx})
	d.nextOrd++
	d.docGroup[idx] = noGroup
	d.docSpans[idx] = append(d.docSpans[idx][:0], d.buf.spans...)
	if d.buf.n() == 0 {
		return nil, nil // no indexable terms: matches nothing
	}
	sig := d.buf.sig
	if d.s.Collapse == CollapseExact {
		if g, ok := d.bySig[sig]; ok {
			d.stats.Collapsed++
			d.join(g, idx)
			return d.matches(g, idx), nil
		}
	}
	g := d.newGroup()
	gr := &d.groups[g]
	gr.sig = sig
	d.join(g, idx)
	d.insert(g)
	if d.s.Collapse == CollapseExact {
		if _, taken := d.bySig[sig]; !taken {
			d.bySig[sig] = g
		}
	}
	return d.matches(g, idx), nil
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
	id := d.docs.ID(idx)
	k, _ := slices.BinarySearchFunc(gr.members, id, func(m uint32, id string) int {
		return cmp.Compare(d.docs.ID(m), id)
	})
	gr.members = slices.Insert(gr.members, k, idx)
	d.docGroup[idx] = g
}

// insert is Alg. 1 step 4 with Alg. 2-3 for the new group g: every
// sequence walks the tree from the root, creating missing nodes and
// increasing the similarity of g with every earlier visitor; then both
// containment directions are decided (Alg. 3 lines 6-15).
func (d *Detector) insert(g uint32) {
	d.touched = d.touched[:0]
	d.visits = d.visits[:0]
	d.vimp = d.vimp[:0]
	d.cur = Stats{}
	b := &d.buf
	gr := &d.groups[g]
	gr.ends = gr.ends[:0]
	gr.sent = append(gr.sent[:0], b.sent...)
	selfTree := 0.0
	for k := range b.n() {
		ids, ws := b.seq(k)
		c := uint32(0)
		for i, id := range ids {
			c = d.child(c, id)
			depth := i + 1
			// Alg. 3: improvement ← word.idfValue × depth^DSP.
			imp := ws[i] * d.s.pow[depth]
			d.visit(c, g, imp)
			selfTree += imp
			d.visits = append(d.visits, c)
			d.vimp = append(d.vimp, imp)
		}
		d.groups[g].ends = append(d.groups[g].ends, c)
	}
	gr = &d.groups[g]
	// SCS with the scoring the tree applies (ALGORITHMS.md §7 "SCS
	// consistency"): a copy of this document visiting its nodes gains, per
	// visit, the node's impact once (ModeTree: a visitor set) or times this
	// document's count there (ModePairwise: Eq. 3.3 truncated at DT).
	if d.s.Mode == ModePairwise || d.s.SCSPairs {
		gr.scs = d.pairSelf()
	} else {
		gr.scs = selfTree
	}
	d.cur.Candidates = len(d.touched)
	d.stats.Increments += d.cur.Increments
	d.stats.Candidates += d.cur.Candidates
	slices.Sort(d.touched) // deterministic edge order
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

// pairSelf returns Σ_n v(n)²·imp(n) over the nodes of the last insertion.
func (d *Detector) pairSelf() float64 {
	type vi struct {
		n   uint32
		imp float64
	}
	tmp := make([]vi, len(d.visits))
	for i := range d.visits {
		tmp[i] = vi{d.visits[i], d.vimp[i]}
	}
	slices.SortFunc(tmp, func(a, b vi) int { return cmp.Compare(a.n, b.n) })
	s := 0.0
	for i := 0; i < len(tmp); {
		j := i
		for j < len(tmp) && tmp[j].n == tmp[i].n {
			j++
		}
		v := float64(j - i)
		s += v * v * tmp[i].imp
		i = j
	}
	return s
}

// matches returns the containers of group g for document idx: the members
// of every container group, and the other members of g (identical content:
// CS/SCS = 1).
func (d *Detector) matches(g, idx uint32) []detector.Match {
	gr := &d.groups[g]
	type run struct {
		g     uint32
		score float64
	}
	runs := make([]run, 0, len(gr.containers)+1)
	for _, e := range gr.containers {
		runs = append(runs, run{e.g, e.score})
	}
	if len(gr.members) > 1 && gr.scs > 0 {
		runs = append(runs, run{g, 1})
	}
	if len(runs) == 0 {
		return nil
	}
	slices.SortFunc(runs, func(a, b run) int { return cmp.Compare(b.score, a.score) })
	n := 0
	for _, r := range runs {
		n += len(d.groups[r.g].members)
	}
	limit := d.s.MaxResults
	if limit > 0 {
		n = min(n, limit+1)
	}
	out := make([]detector.Match, 0, n)
	for i := 0; i < len(runs); {
		j := i + 1
		for j < len(runs) && runs[j].score == runs[i].score {
			j++
		}
		start := len(out)
		for _, r := range runs[i:j] {
			for _, m := range d.groups[r.g].members {
				if m == idx {
					continue
				}
				if limit > 0 && j-i == 1 && len(out) == limit {
					break // one group's members are already sorted by ID
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
	g := d.docGroup[idx]
	if g == noGroup {
		return nil, nil
	}
	return d.matches(g, idx), nil
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

// forget drops document idx from its group, and the group from the tree
// when it was the last live document of that content.
func (d *Detector) forget(idx uint32) {
	g := d.docGroup[idx]
	d.docGroup[idx] = noGroup
	d.docSpans[idx] = nil
	if g == noGroup {
		return
	}
	gr := &d.groups[g]
	if k := slices.Index(gr.members, idx); k >= 0 {
		gr.members = slices.Delete(gr.members, k, k+1)
	}
	if len(gr.members) > 0 {
		return
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
// container ⊇ contained was decided. Matched time is O(|S_A|·|S_C|·DT).
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
	gc, ga := d.docGroup[ci], d.docGroup[ai]
	if gc == noGroup || ga == noGroup || ci == ai {
		return nil, nil
	}
	// Nodes on the container's paths: prefix-closed, so a sequence of A
	// shares a prefix of length L with some sequence of C iff its node at
	// depth L is in the set.
	onC := make(map[uint32]struct{})
	for _, e := range d.groups[gc].ends {
		for c := e; c != 0; c = d.nodes[c].parent {
			if _, ok := onC[c]; ok {
				break
			}
			onC[c] = struct{}{}
		}
	}
	spans := d.docSpans[ai]
	best := make([]float64, len(spans)/2)
	var path []uint32
	ga2 := &d.groups[ga]
	for k, e := range ga2.ends {
		path = path[:0]
		for c := e; c != 0; c = d.nodes[c].parent {
			path = append(path, c)
		}
		slices.Reverse(path)
		self, found := 0.0, 0.0
		matching := true
		for _, c := range path {
			nd := &d.nodes[c]
			imp := d.weightNow(nd.term) * d.s.pow[nd.depth]
			self += imp
			if _, ok := onC[c]; ok && matching {
				found += imp
			} else {
				matching = false
			}
		}
		if self > 0 && found > 0 {
			o := ga2.sent[k]
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

// Stats returns the index's counters and sizes. It is O(nodes).
func (d *Detector) Stats() Stats {
	d.mu.RLock()
	defer d.mu.RUnlock()
	st := d.stats
	st.Docs = d.docs.Len()
	st.Groups = len(d.groups) - len(d.freeGroups)
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
		d.docGroup, d.docSpans, d.docOrd, d.queue = nil, nil, nil, nil
		d.acc, d.stamp, d.touched = nil, nil, nil
	}
	return nil
}
