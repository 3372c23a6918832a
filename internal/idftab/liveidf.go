// A Table is a detector's own online IDF table over its live
// documents: a document is counted when it is added and uncounted when it
// is removed, so a term leaves the table when the last live document that
// has it goes (its document frequency is a reference count), and memory
// follows the live set rather than everything ever seen.
//
// The table is built for the one serial step of a detector's Add that
// counts the document: counting a document of u distinct terms returns
// their document frequencies after the count, so that the detector weighs
// the terms (logarithms, selection, signing) after the step, in parallel
// with the next Add's. With a [Cache] (per term ID of the caller's
// interned vocabulary) a term already seen costs one increment through a
// pointer, no hashing; a term the caller sees for the first time is looked
// up (and, new to the table, entered with a count of 0) before the serial
// step, by [Table.Resolve], under the term map's own lock, so that the
// serial step itself touches no map.
//
// Go maps do not shrink, so after a large share of the counted term
// occurrences leave (a document of a million distinct tokens removed, say)
// the table is rebuilt from the live documents; the rebuild costs
// O(live term occurrences) and happens only when those are under a quarter
// of their peak since the last rebuild, so its cost is amortised over the
// removals that made it due.

package idftab

import (
	"encoding/binary"
	"strings"
	"sync"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// rebuildFloor is the peak of counted term occurrences below which the
// table is never rebuilt (a variable so that tests can shrink it).
var rebuildFloor = 1 << 16

// cell is the document frequency of one term of the table. A cell leaves
// the table when its frequency falls to 0 and is marked gone; it is never
// counted again (a later document of the term gets a new cell), so a
// [Cache] that still points to it looks the term up afresh. A cell of
// frequency 0 that is not gone was entered by [Table.Resolve] for a
// document about to be counted: it is in the map but not in the table
// ([Table.Peek] and [Table.IDF] read it as absent).
type cell struct {
	df   int64 // guarded by Table.mu
	gone bool  // guarded by Table.mu
}

// Table is an online IDF table over the live documents of a detector. Each
// counted document has a handle, which the detector keeps to uncount it.
// Count, AddPacked and Remove must not run concurrently with each other
// (the engine serialises them in a Counter's turn); N, Peek, IDF and Live may
// be called at any time.
type Table struct {
	smooth bool

	// mu guards the counts (n and every cell's df and gone): writers hold
	// it while they change them, readers to read them. The term map is
	// guarded by termsMu, taken after mu when both are held.
	mu      sync.RWMutex
	termsMu sync.Mutex
	terms   map[string]*cell // term → its cell
	n       int64            // documents counted
	docs    []string         // per handle: the document's distinct terms, packed; "" when free
	free    []int32          // free handles
	live    int              // term occurrences counted (sum over live documents of their distinct terms)
	peak    int              // the largest live since the last rebuild
	unpack  []string
	ver     uint64        // changes with every count and uncount
	view    *textproc.IDF // IDF's copy, of version viewV
	viewV   uint64
}

// Cache remembers the table's cell of each term a caller has counted or
// looked up, by the caller's term ID (the IDs of one analyzer's interned
// vocabulary). A Cache belongs to one caller at a time (a detector's
// Signer) and to one Table; replace it by a zero Cache when the caller's
// term IDs change meaning (a Signer whose vocabulary starts afresh drops
// its Cache with it). The zero Cache is empty and ready to use.
type Cache struct {
	cells []*cell
}

// Grow extends the cache to term IDs below n.
func (c *Cache) Grow(n int) {
	if n > len(c.cells) {
		c.cells = append(c.cells, make([]*cell, n-len(c.cells))...)
	}
}

// Bytes returns the memory the cache holds, for tests.
func (c *Cache) Bytes() int { return 8 * cap(c.cells) }

// Terms are the distinct terms of one document as a detector counts or
// weighs them.
type Terms struct {
	Terms []string // each once
	// IDs, when Cache is set, gives each term's ID in the Cache (as long
	// as Terms).
	IDs   []uint32
	Cache *Cache
}

// New returns an empty table; smooth selects log(1 + N/df) for the table
// [Table.IDF] returns (see textproc.NewIDF).
func New(smooth bool) *Table {
	return &Table{smooth: smooth, terms: map[string]*cell{}}
}

// Pack returns the form of a document's distinct terms that AddPacked
// keeps. It does not touch the table, so a detector calls it before taking
// the turn that orders its table updates.
func Pack(terms []string) string {
	n := 0
	for _, w := range terms {
		n += snapshot.UvarintLen(uint64(len(w))) + len(w)
	}
	var b strings.Builder
	b.Grow(n) // one allocation, which String returns without a copy
	var lb [binary.MaxVarintLen64]byte
	for _, w := range terms {
		b.Write(binary.AppendUvarint(lb[:0], uint64(len(w))))
		b.WriteString(w)
	}
	return b.String()
}

// Add counts a document whose distinct terms are terms (each once) and
// returns its handle for Remove, or -1 for a document without terms, which
// is not counted.
func (t *Table) Add(terms []string) int32 {
	return t.AddPacked(terms, Pack(terms))
}

// AddPacked is Add with the terms already packed (packed == Pack(terms)).
func (t *Table) AddPacked(terms []string, packed string) int32 {
	h, _, _ := t.Count(Terms{Terms: terms}, packed, nil)
	return h
}

// Resolve fills ts.Cache with the cell of each of ts.Terms it does not
// hold yet, entering a term new to the table with a count of 0, so that
// the Count of the document that follows touches no map. It takes only
// the term map's lock, for each term it looks up, so it runs in parallel
// with Count and with other Resolves; call it outside the turn. It does
// nothing without a Cache.
func (t *Table) Resolve(ts Terms) {
	if ts.Cache == nil {
		return
	}
	cells := ts.Cache.cells
	for i, w := range ts.Terms {
		if cells[ts.IDs[i]] == nil {
			cells[ts.IDs[i]] = t.cellFor(w)
		}
	}
}

// Count counts a document whose distinct terms are ts.Terms (each once;
// packed == Pack(ts.Terms)), and returns its handle for Remove (-1 for a
// document without terms, which is not counted), the number of documents
// counted now, and df with the document frequency of each term after the
// count appended, in the order of ts.Terms. Its time is one increment per
// term whose cell ts.Cache holds (see [Table.Resolve]), and one map
// lookup per other term.
func (t *Table) Count(ts Terms, packed string, df []int64) (int32, int64, []int64) {
	if len(ts.Terms) == 0 {
		return -1, t.N(), df
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var cells []*cell
	if ts.Cache != nil {
		cells = ts.Cache.cells
	}
	for i, w := range ts.Terms {
		var c *cell
		if cells != nil {
			if c = cells[ts.IDs[i]]; c == nil || c.gone {
				c = t.cellFor(w)
				cells[ts.IDs[i]] = c
			}
		} else {
			c = t.cellFor(w)
		}
		c.df++
		df = append(df, c.df)
	}
	t.n++
	t.ver++
	t.view = nil
	h, ok := hashtab.Pop(&t.free)
	if !ok {
		h = int32(len(t.docs))
		t.docs = append(t.docs, "")
	}
	t.docs[h] = packed
	t.live += len(ts.Terms)
	t.peak = max(t.peak, t.live)
	return h, t.n, df
}

// cellFor returns the cell of term w, a new one (frequency 0) if w has
// none. It takes only the term map's lock.
func (t *Table) cellFor(w string) *cell {
	t.termsMu.Lock()
	defer t.termsMu.Unlock()
	c := t.terms[w]
	if c == nil {
		c = &cell{}
		t.terms[strings.Clone(w)] = c // no reference into the caller's text
	}
	return c
}

// lookup returns the cell of term w, or nil. t.mu is held (read or write).
func (t *Table) lookup(w string) *cell {
	t.termsMu.Lock()
	defer t.termsMu.Unlock()
	return t.terms[w]
}

// drop takes the cell c of term w out of the map and marks it gone. t.mu
// is held for writing.
func (t *Table) drop(w string, c *cell) {
	c.gone = true
	t.termsMu.Lock()
	if t.terms[w] == c {
		delete(t.terms, w)
	}
	t.termsMu.Unlock()
}

// Forget takes out of the map the cells ts.Cache holds for ts.Terms that
// are still at a count of 0: those Resolve entered for a document that was
// then refused. A cell another Resolve found meanwhile is gone for it too,
// and its Count looks the term up again.
func (t *Table) Forget(ts Terms) {
	if ts.Cache == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, w := range ts.Terms {
		if c := ts.Cache.cells[ts.IDs[i]]; c != nil && c.df == 0 && !c.gone {
			t.drop(w, c)
		}
	}
}

// Peek returns the number of documents counted and appends to df the
// document frequency of each of ts.Terms (0 for a term not in the table),
// as they are at one moment, without counting anything. ts.Cache, when
// set, is only read.
func (t *Table) Peek(ts Terms, df []int64) (int64, []int64) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	for i, w := range ts.Terms {
		var c *cell
		if ts.Cache != nil {
			c = ts.Cache.cells[ts.IDs[i]]
		}
		if c == nil || c.gone {
			c = t.lookup(w)
		}
		if c == nil {
			df = append(df, 0)
		} else {
			df = append(df, c.df)
		}
	}
	return t.n, df
}

// N returns the number of documents counted.
func (t *Table) N() int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.n
}

// Remove uncounts the document of handle h (nothing for -1), and rebuilds
// the table when it has become mostly empty space.
func (t *Table) Remove(h int32) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if h < 0 || int(h) >= len(t.docs) || t.docs[h] == "" {
		return
	}
	t.unpack = Unpack(t.unpack[:0], t.docs[h])
	for _, w := range t.unpack {
		c := t.lookup(w)
		if c == nil {
			continue // cannot happen: every counted term has a cell
		}
		if c.df--; c.df <= 0 {
			t.drop(w, c)
		}
	}
	t.n = max(t.n-1, 0)
	t.ver++
	t.view = nil
	t.live -= len(t.unpack)
	t.docs[h] = ""
	t.free = append(t.free, h)
	clear(t.unpack)
	t.unpack = t.unpack[:0]
	if t.peak > rebuildFloor && t.peak > 4*t.live {
		t.rebuild()
	}
}

// Live returns the number of counted term occurrences.
func (t *Table) Live() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.live
}

// IDF returns a copy of the table as it is now: frozen, smoothed as New
// was told, with N and the document frequencies of the live documents. The
// copy is kept until the table changes, so calls in between cost nothing;
// the first call after a change costs O(distinct terms).
func (t *Table) IDF() *textproc.IDF {
	t.mu.RLock()
	if t.view != nil && t.viewV == t.ver {
		v := t.view
		t.mu.RUnlock()
		return v
	}
	counts := map[string]int64{}
	t.termsMu.Lock()
	for w, c := range t.terms {
		if c.df > 0 {
			counts[w] = c.df
		}
	}
	t.termsMu.Unlock()
	n, ver := t.n, t.ver
	t.mu.RUnlock()
	v, err := textproc.NewIDFFromCounts(n, counts, t.smooth)
	if err != nil {
		// Cannot happen: every frequency is in [1, N]. An empty table
		// is the safe answer.
		v = textproc.NewIDF(t.smooth)
	}
	v.Freeze()
	t.mu.Lock()
	if t.ver == ver {
		t.view, t.viewV = v, ver
	}
	t.mu.Unlock()
	return v
}

// rebuild replaces the term map by one of its live terms' size (Go
// maps never shrink), and renumbers nothing: handles and the cells of
// live terms stay valid. Cells at a count of 0 (entered by a Resolve whose
// document is not counted yet) are dropped: their Count looks them up
// again. t.mu is held for writing.
func (t *Table) rebuild() {
	t.termsMu.Lock()
	live := 0
	for _, c := range t.terms {
		if c.df > 0 {
			live++
		}
	}
	fresh := make(map[string]*cell, live)
	for w, c := range t.terms {
		if c.df > 0 {
			fresh[w] = c
		} else {
			c.gone = true
		}
	}
	t.terms = fresh
	t.termsMu.Unlock()
	t.peak = t.live
	t.unpack = nil
	t.view = nil
	// Let go of a handle table a burst of documents grew: trailing free
	// handles are dropped (the free list keeps the others).
	n := len(t.docs)
	for n > 0 && t.docs[n-1] == "" {
		n--
	}
	if n < len(t.docs) {
		t.docs = append([]string(nil), t.docs[:n]...)
		kept := t.free[:0]
		for _, h := range t.free {
			if int(h) < n {
				kept = append(kept, h)
			}
		}
		t.free = append([]int32(nil), kept...)
	}
}

// Unpack appends the terms of a list Pack made to dst (substrings of p).
// It trusts p: other strings may make it panic.
func Unpack(dst []string, p string) []string {
	for len(p) > 0 {
		l, k := binary.Uvarint([]byte(p[:min(len(p), binary.MaxVarintLen64)]))
		p = p[k:]
		dst = append(dst, p[:l])
		p = p[l:]
	}
	return dst
}
