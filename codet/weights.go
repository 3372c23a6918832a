package codet

// Term weights and the per-goroutine analysis state: a frozen idf table (a
// caller's, or the embedded reference table of the language) read outside
// the detector's lock, or the online table of the stream (Varol 2012
// Eq. 2.1, §5.1.3) kept under it.

import (
	"math"
	"sync/atomic"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// worker is the state of one Add outside the lock: an analyzer (one per
// concurrent Add), the sequences it builds, and caches by the analyzer's
// local term IDs, gid mapping them to detector term IDs until the
// vocabulary is compacted (worker.epoch).
type worker struct {
	an     *textproc.Analyzer
	buf    seqBuf
	wcache []float64 // frozen-table weight by local ID; NaN = not cached
	thash  []uint64  // term hash by local ID; 0 = not cached
	gid    []uint32  // detector term ID + 1 by local ID; 0 = not known
	fw     frozenWeights
	lw     lockedWeights
	epoch  uint64 // the detector's vocabulary epoch gid is valid for
	adds   int    // documents analysed
	// After [Detector.resolveTerms]: buf.terms holds detector term IDs but at
	// the positions in pending, whose terms the vocabulary lacked; local
	// keeps the local IDs of every position, for the positions pending and
	// for a vocabulary compacted meanwhile.
	resolved bool
	local    []uint32
	pending  []int32
	// vis are visitor entries allocated outside the exclusive lock, one
	// for each node the Add may create ([Detector.newChild]).
	vis []visitor
	// chunk is an empty chunk of the node store, allocated outside the
	// exclusive lock when the tree is about to need one.
	chunk  []node
	sink   uint32  // see [Detector.warm]
	warmer descent // [Detector.warm]'s scratch
}

// visSlab is the number of visitor entries a worker allocates at once for
// the nodes its Adds create.
const visSlab = 1 << 9

// spareVisitors makes sure w holds a visitor entry for every position of
// its sequences (at most one node each), allocating outside the lock.
func (w *worker) spareVisitors() {
	if n := len(w.buf.terms); len(w.vis) < n {
		w.vis = make([]visitor, max(visSlab, n))
	}
}

// workerAdds is the number of documents after which a worker is
// replaced: its analyzer's vocabulary and caches hold every term it ever
// saw, and would grow for good in a stream of ever new terms.
const workerAdds = 1 << 13

// frozen returns the worker's weighter for a frozen table (a pointer into
// the worker, so passing it as an interface does not allocate).
func (w *worker) frozen(idf *textproc.IDF) *frozenWeights {
	w.fw = frozenWeights{w, idf}
	return &w.fw
}

// locked returns the worker's weighter under the lock of d.
func (w *worker) locked(d *index) *lockedWeights {
	w.lw = lockedWeights{w, d}
	return &w.lw
}

// workers keeps the idle workers (an [engine.Pool]: at most
// 4·GOMAXPROCS) and drops those not worth keeping (see keep).
type workers struct {
	pool engine.Pool[*worker]
	cfg  textproc.Config
	// vocab is the detector's vocabulary size, updated under the
	// detector's lock (atomically, as put reads it outside).
	vocab atomic.Int64
}

// newWorkers returns the workers of a detector whose analyzers run cfg.
func newWorkers(cfg textproc.Config) *workers {
	p := &workers{cfg: cfg}
	p.pool = engine.Pool[*worker]{
		New: func() (*worker, error) {
			an, err := textproc.NewAnalyzer(p.cfg)
			if err != nil {
				return nil, err
			}
			return &worker{an: an}, nil
		},
		Keep: p.keep,
	}
	return p
}

// vocabCap is the analyzer vocabulary size above which a worker is not
// kept: four times the detector's vocabulary (which holds only the terms
// of sentence prefixes, with frozen weights), plus slack.
func (p *workers) vocabCap() int { return 4*int(p.vocab.Load()) + compactSlack }

// keep says whether w is worth keeping: not after workerAdds documents,
// nor once its vocabulary or buffers grew past their caps (they only
// grow).
func (p *workers) keep(w *worker) bool {
	return w.adds < workerAdds && w.an.VocabularySize() <= p.vocabCap() &&
		cap(w.buf.terms) <= scratchCap && cap(w.buf.tok) <= scratchCap
}

// get returns an idle worker, or a new one.
func (p *workers) get() (*worker, error) { return p.pool.Get() }

// put counts the document w served and keeps w for reuse if it is worth
// keeping.
func (p *workers) put(w *worker) {
	w.adds++
	p.pool.Put(w)
}

// drop forgets the idle workers, for good (the detector is closed).
func (p *workers) drop() { p.pool.Close() }

// termHash is the 64-bit hash of a term that content signatures are
// made of. It is odd, so never 0, which [worker.hash] reads as not cached.
func termHash(term string) uint64 { return hashtab.String64(term, 0x5bd1e995) | 1 }

// hash is a 64-bit hash of a term, by local ID: the content signature
// must not depend on which analyzer saw the text.
func (w *worker) hash(id uint32, term string) uint64 {
	if int(id) < len(w.thash) && w.thash[id] != 0 {
		return w.thash[id]
	}
	h := termHash(term)
	if int(id) >= len(w.thash) {
		w.thash = grow(w.thash, max(int(id)+1, 2*len(w.thash)))
	}
	w.thash[id] = h
	return h
}

// frozenWeights weighs terms with a frozen table, cached by local ID: safe
// outside the detector's lock (the table never changes).
type frozenWeights struct {
	w   *worker
	idf *textproc.IDF
}

func (f *frozenWeights) weight(id uint32, term string) float64 {
	w := f.w
	if int(id) < len(w.wcache) && !math.IsNaN(w.wcache[id]) {
		return w.wcache[id]
	}
	v := f.idf.Weight(term)
	if int(id) >= len(w.wcache) {
		w.wcache = growNaN(w.wcache, max(int(id)+1, 2*len(w.wcache)))
	}
	w.wcache[id] = v
	return v
}

func (f *frozenWeights) hash(id uint32, term string) uint64 { return f.w.hash(id, term) }

// lockedWeights weighs terms under the detector's lock: with the online
// table (the document's own terms counted first) or with a caller's table
// that is not frozen (read as it is now).
type lockedWeights struct {
	w *worker
	d *index
}

func (l *lockedWeights) weight(id uint32, term string) float64 {
	if l.d.idf != nil {
		return l.d.idf.Weight(term)
	}
	return l.d.onlineWeight(l.w.gid[id] - 1)
}

func (l *lockedWeights) hash(id uint32, term string) uint64 { return l.w.hash(id, term) }

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

// intern returns the detector's term ID of term, adding it to the
// vocabulary if new. The caller holds the lock.
func (d *index) intern(term string) uint32 {
	id, ok := d.vocab[term]
	if !ok {
		id = uint32(len(d.terms))
		d.vocab[term] = id
		d.terms = append(d.terms, term)
	}
	return id
}

// globalID returns the detector's term ID of the worker's local ID id,
// through the worker's cache. The caller holds the lock.
func (d *index) globalID(w *worker, id uint32) uint32 {
	if int(id) < len(w.gid) && w.gid[id] != 0 {
		return w.gid[id] - 1
	}
	g := d.intern(w.an.TermOf(id))
	w.cache(id, g)
	return g
}

// known returns the detector term ID of the worker's local ID id and true
// when the vocabulary holds its term, through the worker's cache, and the
// term when it was read; it interns nothing.
func (d *index) known(w *worker, id uint32) (g uint32, term string, ok bool) {
	if int(id) < len(w.gid) && w.gid[id] != 0 {
		return w.gid[id] - 1, "", true
	}
	term = w.an.TermOf(id)
	if g, ok = d.vocab[term]; ok {
		w.cache(id, g)
	}
	return g, term, ok
}

// cache records g as the detector term ID of the worker's local ID id
// (gid holds it plus one, 0 meaning not known).
func (w *worker) cache(id, g uint32) {
	if int(id) >= len(w.gid) {
		w.gid = grow(w.gid, max(int(id)+1, 2*len(w.gid)))
	}
	w.gid[id] = g + 1
}

// resolveTerms rewrites the sequences of w.buf to detector term IDs where
// the vocabulary holds the term, under the shared lock, and notes the
// other positions in w.pending: only new terms are interned under the
// exclusive lock ([Detector.globalize]), in lock order, so the IDs are
// those of sequential Adds. It changes nothing of d.
func (d *index) resolveTerms(w *worker) {
	if w.epoch != d.epoch { // the vocabulary was compacted
		clear(w.gid)
		w.epoch = d.epoch
	}
	w.local = append(w.local[:0], w.buf.terms...)
	w.pending = w.pending[:0]
	for i, id := range w.buf.terms {
		g, _, ok := d.known(w, id)
		if !ok {
			w.pending = append(w.pending, int32(i))
			g = noTerm // a new term, in no node
		}
		w.buf.terms[i] = g
	}
	w.resolved = true
	d.warm(w)
}

// noTerm marks, after [Detector.resolveTerms], a position whose term the
// vocabulary lacks.
const noTerm = ^uint32(0)

// warm walks the tree along the sequences of w.buf as [descent.run] does,
// reading the table slots, the nodes and the heads of their visitor
// lists, so that the exclusive section finds them in the cache. It
// changes nothing (the sum it keeps makes the reads happen). The caller
// holds the shared lock.
func (d *index) warm(w *worker) {
	var sink uint32
	_, s := w.warmer.run(&d.children, &w.buf, func(_ int32, c uint32) {
		nd := d.nodes.at(c)
		sink += nd.refs
		if len(nd.vis) > 0 {
			sink += nd.vis[0].n
		}
	})
	w.sink += sink + s
}

// globalize rewrites the sequences of w.buf from local to detector term
// IDs: after [Detector.resolveTerms], those of the positions pending (or all,
// if the vocabulary was compacted since), interning the new terms. The
// caller holds the lock and has checked w.epoch.
func (d *index) globalize(w *worker) {
	if w.resolved {
		w.resolved = false
		for _, i := range w.pending {
			w.buf.terms[i] = d.globalID(w, w.local[i])
		}
		return
	}
	for i, id := range w.buf.terms {
		w.buf.terms[i] = d.globalID(w, id)
	}
}

// countOnline counts doc in the online table (each distinct term once),
// interning its terms. The caller holds the lock.
func (d *index) countOnline(w *worker, doc *textproc.Document) {
	d.nDocs++
	d.nextGen()
	for _, t := range doc.Tokens {
		g := d.globalID(w, t.ID)
		if int(g) >= len(d.seen) {
			n := max(int(g)+1, 2*len(d.seen))
			d.seen = grow(d.seen, n)
			d.df = grow(d.df, n)
		}
		if d.seen[g] != d.gen {
			d.seen[g] = d.gen
			d.df[g]++
		}
	}
}

// onlineWeight is log(1 + N/df) of the online table for a detector term
// ID; df ≥ 1 for every term of the document being added, which is counted
// first.
func (d *index) onlineWeight(id uint32) float64 {
	if d.nDocs == 0 {
		return 0
	}
	df := int64(1)
	if int(id) < len(d.df) && d.df[id] > 0 {
		df = d.df[id]
	}
	return math.Log1p(float64(d.nDocs) / float64(df))
}

// weightNow is idf(term) of a detector term ID as a reader sees it.
func (d *index) weightNow(id uint32) float64 {
	if d.idf == nil {
		return d.onlineWeight(id)
	}
	return d.idf.Weight(d.terms[id])
}
