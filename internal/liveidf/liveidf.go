// Package liveidf keeps a detector's own online IDF table over its live
// documents: a document is counted when it is added and uncounted when it
// is removed, so a term leaves the table when the last live document that
// has it goes (its document frequency is a reference count), and memory
// follows the live set rather than everything ever seen.
//
// Go maps do not shrink, so after a large share of the counted term
// occurrences leave (a document of a million distinct tokens removed, say)
// the table is rebuilt from the live documents; the rebuild costs
// O(live term occurrences) and happens only when those are under a quarter
// of their peak since the last rebuild, so its cost is amortised over the
// removals that made it due.
package liveidf

import (
	"encoding/binary"
	"strings"
	"sync/atomic"

	"github.com/seed-9ef9c1df/neardup/internal/hashx"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// rebuildFloor is the peak of counted term occurrences below which the
// table is never rebuilt (a variable so that tests can shrink it).
var rebuildFloor = 1 << 16

// Table is an online IDF table over the live documents of a detector. Each
// counted document has a handle, which the detector keeps to uncount it.
// Add and Remove must not run concurrently with each other (the detector
// serialises them); IDF may be called at any time, and the textproc.IDF it
// returns is safe to read concurrently.
type Table struct {
	smooth bool
	idf    atomic.Pointer[textproc.IDF]
	docs   []string // per handle: the document's distinct terms, packed; "" when free
	free   []int32  // free handles
	live   int      // term occurrences counted (sum over live documents of their distinct terms)
	peak   int      // the largest live since the last rebuild
	unpack []string
}

// New returns an empty table; smooth selects log(1 + N/df) (see
// textproc.NewIDF).
func New(smooth bool) *Table {
	t := &Table{smooth: smooth}
	t.idf.Store(textproc.NewIDF(smooth))
	return t
}

// IDF returns the current table. It is replaced by a compact copy when the
// table is rebuilt, so callers must not keep it across Remove.
func (t *Table) IDF() *textproc.IDF { return t.idf.Load() }

// Pack returns the form of a document's distinct terms that AddPacked
// keeps. It does not touch the table, so a detector calls it before taking
// the turn that orders its table updates.
func Pack(terms []string) string {
	n := 0
	for _, w := range terms {
		n += len(w) + binary.MaxVarintLen32
	}
	buf := make([]byte, 0, n)
	for _, w := range terms {
		buf = hashx.AppendField(buf, w)
	}
	return string(buf)
}

// Add counts a document whose distinct terms are terms (each once) and
// returns its handle for Remove, or -1 for a document without terms, which
// is not counted.
func (t *Table) Add(terms []string) int32 {
	return t.AddPacked(terms, Pack(terms))
}

// AddPacked is Add with the terms already packed (packed == Pack(terms)).
func (t *Table) AddPacked(terms []string, packed string) int32 {
	if len(terms) == 0 {
		return -1
	}
	count(t.IDF(), terms, +1)
	var h int32
	if k := len(t.free); k > 0 {
		h = t.free[k-1]
		t.free = t.free[:k-1]
	} else {
		h = int32(len(t.docs))
		t.docs = append(t.docs, "")
	}
	t.docs[h] = packed
	t.live += len(terms)
	t.peak = max(t.peak, t.live)
	return h
}

// Remove uncounts the document of handle h (nothing for -1), and rebuilds
// the table when it has become mostly empty space.
func (t *Table) Remove(h int32) {
	if h < 0 || int(h) >= len(t.docs) || t.docs[h] == "" {
		return
	}
	t.unpack = unpack(t.unpack[:0], t.docs[h])
	count(t.IDF(), t.unpack, -1)
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
func (t *Table) Live() int { return t.live }

// rebuild replaces the table by a fresh one counting the live documents,
// and renumbers nothing: handles stay valid. Terms are copied, so that the
// new table does not keep removed documents' packed terms alive.
func (t *Table) rebuild() {
	fresh := textproc.NewIDF(t.smooth)
	for _, p := range t.docs {
		if p == "" {
			continue
		}
		t.unpack = unpack(t.unpack[:0], p)
		for j, w := range t.unpack {
			t.unpack[j] = strings.Clone(w)
		}
		count(fresh, t.unpack, +1)
	}
	clear(t.unpack)
	t.unpack = nil
	t.idf.Store(fresh)
	t.peak = t.live
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

// count counts (delta +1) or uncounts (-1) one document of distinct terms
// in idf. A document of a million terms costs later calls nothing extra:
// textproc.IDF drops a scratch set that large after the call.
func count(idf *textproc.IDF, terms []string, delta int) {
	if delta < 0 {
		_ = idf.RemoveDocument(terms)
		return
	}
	_ = idf.AddDocument(terms) // our table is never frozen
}

// unpack appends the terms of a packed list to dst (substrings of p).
func unpack(dst []string, p string) []string {
	for len(p) > 0 {
		l, k := binary.Uvarint([]byte(p[:min(len(p), binary.MaxVarintLen64)]))
		p = p[k:]
		dst = append(dst, p[:l])
		p = p[l:]
	}
	return dst
}
