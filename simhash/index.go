package simhash

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// Index limits.
const (
	// maxTables bounds C(Blocks, Blocks−K), the number of permuted tables.
	maxTables = 1024
	// defaultMaxBlocks: by default the index uses K+1 blocks while a block
	// is at least 5 bits wide (K ≤ 11); beyond that K+1 tables each match
	// ≥ 1/32 of the fingerprints and one scan is cheaper.
	defaultMaxBlocks = 12
	// bufDiv sizes each table's sorted insertion buffer: it is merged
	// into the main array when it exceeds max(bufMin, main/bufDiv).
	bufDiv = 16
	// deadID marks a removed entry of a main array until compaction.
	deadID = math.MaxUint32
)

// Tuning of the online index (variables so that tests can shrink them).
var (
	// pendMax is how many recent insertions stay unsorted (scanned
	// linearly by each query) before they are sorted into the tables.
	pendMax = 256
	// bufMin is the smallest buffer size that triggers a merge.
	bufMin = 4096
)

// move is one block of a table's bit permutation.
type move struct {
	src, dst uint // shifts
	mask     uint64
}

// layout is the table design of an index (Manku et al. 2007 §3).
type layout struct {
	k, blocks int
	perms     [][]move // per table
	prefix    []int    // per table: leading bits that must match
}

// indexLayout designs the tables for radius k with the given number of
// blocks (0: derived). Pigeonhole (Manku et al. 2007 §3.1): split the 64
// bits into m blocks; two fingerprints within distance k differ in at most k
// blocks, so at least m−k blocks agree. One table per choice of m−k blocks,
// with those blocks moved to the leading bits, finds every such pair by an
// exact match on its p leading bits. With m ≤ k no block is certain to
// agree and the single table has p = 0: every query scans everything.
func indexLayout(k, blocks int) (layout, error) {
	if blocks == 0 {
		blocks = defaultBlocks(k)
	}
	if blocks < 1 || blocks > 64 {
		return layout{}, fmt.Errorf("Blocks (%d) must be in [1, 64]", blocks)
	}
	keyBlocks := max(blocks-k, 0)
	if n := binomial(blocks, keyBlocks); n > maxTables {
		return layout{}, fmt.Errorf("Blocks (%d) with K (%d) needs C(%d, %d) = %d tables, more than %d", blocks, k, blocks, keyBlocks, n, maxTables)
	}
	// Block b covers bits [lo[b], lo[b]+width[b]), block 0 the most
	// significant; the first 64 mod m blocks are one bit wider (Manku's
	// 13,13,13,13,12 for m = 5).
	width := make([]int, blocks)
	lo := make([]int, blocks)
	top := 64
	for b := range blocks {
		width[b] = 64 / blocks
		if b < 64%blocks {
			width[b]++
		}
		top -= width[b]
		lo[b] = top
	}
	l := layout{k: k, blocks: blocks}
	combo := make([]int, keyBlocks)
	for i := range combo {
		combo[i] = i
	}
	for {
		order := slices.Clone(combo)
		for b := range blocks {
			if !slices.Contains(combo, b) {
				order = append(order, b)
			}
		}
		var perm []move
		dst, p := 64, 0
		for i, b := range order {
			dst -= width[b]
			perm = append(perm, move{src: uint(lo[b]), dst: uint(dst), mask: 1<<uint(width[b]) - 1})
			if i < keyBlocks {
				p += width[b]
			}
		}
		l.perms = append(l.perms, perm)
		l.prefix = append(l.prefix, p)
		// Next combination in lexicographic order.
		i := keyBlocks - 1
		for i >= 0 && combo[i] == blocks-keyBlocks+i {
			i--
		}
		if i < 0 {
			break
		}
		combo[i]++
		for j := i + 1; j < keyBlocks; j++ {
			combo[j] = combo[j-1] + 1
		}
	}
	return l, nil
}

// defaultBlocks is the number of blocks used for radius k when none is
// given: k+1 while blocks are at least 5 bits wide, else 1 (one scanned
// table).
func defaultBlocks(k int) int {
	if k+1 <= defaultMaxBlocks {
		return k + 1
	}
	return 1
}

func binomial(n, k int) int {
	r := uint64(1)
	for i := range k {
		hi, lo := bits.Mul64(r, uint64(n-i))
		r, _ = bits.Div64(hi, lo, uint64(i+1))
	}
	return int(min(r, math.MaxInt64))
}

func permute(perm []move, fp uint64) uint64 {
	var out uint64
	for _, m := range perm {
		out |= (fp >> m.src & m.mask) << m.dst
	}
	return out
}

// table is one permuted sorted table: main and buf are sorted by (permuted
// fingerprint, ID); main may hold removed entries (ID deadID).
type table struct {
	perm          []move
	prefix        int
	main, buf     []uint64
	mainID, bufID []uint32
	scratch       []entry
}

// sortedRun is one sorted array of a table and the IDs beside it.
type sortedRun struct {
	vs  []uint64
	ids []uint32
}

// runs returns the table's two sorted arrays, main and buf.
func (tb *table) runs() [2]sortedRun { return [2]sortedRun{{tb.main, tb.mainID}, {tb.buf, tb.bufID}} }

type entry struct {
	v  uint64
	id uint32
}

// compareEntry orders entries by value, then ID (written out: it runs
// under the Detector's exclusive lock, for every insertion's flush).
func compareEntry(a, b entry) int {
	switch {
	case a.v < b.v:
		return -1
	case a.v > b.v:
		return 1
	case a.id < b.id:
		return -1
	case a.id > b.id:
		return 1
	}
	return 0
}

// Neighbor is a stored fingerprint found by [Index.Query].
type Neighbor struct {
	ID       uint32
	Distance int
}

// Index finds every stored fingerprint within Hamming distance K of a query:
// the permuted sorted tables of Manku, Jain, Das Sarma (WWW 2007 §3), kept
// online. It is exact: Query returns precisely the stored fingerprints at
// distance ≤ K, never an approximation.
//
// Each table stores every fingerprint with its bits permuted so that the
// table's key blocks lead, sorted; a query probes each table for the range
// of entries sharing its p leading bits (two binary searches) and checks
// the distance of each. Insertions gather in a small unsorted list (scanned
// by every query), then in a sorted buffer per table, which is merged into
// the main array when it reaches 1/16 of it; removals mark entries, which
// are dropped when a quarter of an array is dead.
//
// Query time is O(t·(log n + n/2^p)) for t tables of p-bit keys and n
// fingerprints (Manku's "2^{d−p} fingerprints per probe"), plus a scan of at
// most 256 recent insertions. Add is amortised O(t·(16 + n/4096)) memory
// moves; memory is 12 bytes per fingerprint and table.
//
// An Index is not safe for concurrent use: Query may run concurrently with
// other Queries, but Add and Remove need exclusive access.
type Index struct {
	lay    layout
	tables []table
	pend   []entry // unpermuted
	dead   int     // removed entries still in the main arrays
	n      int
	// scanMax is the most entries nearest scans rather than probes:
	// scanPerProbe per probe of its multi-probe search.
	scanMax int
}

// scanPerProbe is how many entries a scan reads in the time of one probe
// of nearest's multi-probe search: BenchmarkNearestPlan (4 tables of
// 16-bit keys, 548 probes) found the scan cheaper at 20,000 random
// fingerprints and dearer at 80,000.
const scanPerProbe = 64

// NewIndex returns an empty index for radius k (0 ≤ k ≤ MaxK) over the given
// number of blocks m: C(m, m−k) tables with keys of about 64·(m−k)/m bits
// (Manku's designs for k = 3: m = 4 gives 4 tables of 16-bit keys, m = 5
// gives 10 tables of 25–26 bits, m = 6 gives 20 tables of 31–33 bits). More
// tables cost memory and probes, and visit fewer candidates per probe. blocks
// = 0 derives m = k+1 (the fewest tables) for k ≤ 11, and m = 1 (a single
// table scanned in full, which is cheaper than many tables of tiny keys)
// beyond. It returns an error wrapping detector.ErrInvalidConfig when k or
// blocks is out of range or the design needs more than 1024 tables.
func NewIndex(k, blocks int) (*Index, error) {
	if k < 0 || k > MaxK {
		return nil, fmt.Errorf("simhash: NewIndex: K (%d) must be in [0, %d]: %w", k, MaxK, detector.ErrInvalidConfig)
	}
	l, err := indexLayout(k, blocks)
	if err != nil {
		return nil, fmt.Errorf("simhash: NewIndex: %v: %w", err, detector.ErrInvalidConfig)
	}
	ix := &Index{lay: l, tables: make([]table, len(l.perms))}
	for i, p := range l.prefix {
		ix.tables[i] = table{perm: l.perms[i], prefix: p}
		ix.scanMax += scanPerProbe * (1 + p + p*(p-1)/2)
	}
	return ix, nil
}

// K returns the index's radius.
func (ix *Index) K() int { return ix.lay.k }

// Len returns the number of stored fingerprints.
func (ix *Index) Len() int { return ix.n }

// Add stores fingerprint fp under id. It does not check that id is new: a
// repeated (id, fp) is stored twice (Len counts both, and Remove takes one
// at a time) but reported once. Add panics if id is math.MaxUint32, which
// the index reserves.
func (ix *Index) Add(id uint32, fp uint64) {
	if id == deadID {
		panic("simhash: Index.Add: id math.MaxUint32 is reserved")
	}
	ix.pend = append(ix.pend, entry{v: fp, id: id})
	ix.n++
	if len(ix.pend) >= pendMax {
		ix.flush()
	}
}

// flush sorts the pending insertions into every table's buffer.
func (ix *Index) flush() {
	for t := range ix.tables {
		tb := &ix.tables[t]
		tb.scratch = tb.scratch[:0]
		for _, e := range ix.pend {
			tb.scratch = append(tb.scratch, entry{v: permute(tb.perm, e.v), id: e.id})
		}
		slices.SortFunc(tb.scratch, compareEntry)
		tb.buf, tb.bufID = mergeInto(tb.buf, tb.bufID, tb.scratch)
		if len(tb.buf) > max(bufMin, len(tb.main)/bufDiv) {
			tb.mergeBuf()
		}
	}
	ix.pend = ix.pend[:0]
	if len(ix.tables) > 0 && len(ix.tables[0].buf) == 0 {
		ix.dead = 0 // mergeBuf dropped the dead entries
	}
}

// mergeInto merges the sorted entries es into the sorted arrays (vs, ids),
// in place from the back.
func mergeInto(vs []uint64, ids []uint32, es []entry) ([]uint64, []uint32) {
	i, j := len(vs)-1, len(es)-1
	vs = slices.Grow(vs, len(es))[:len(vs)+len(es)]
	ids = slices.Grow(ids, len(es))[:len(ids)+len(es)]
	for k := len(vs) - 1; j >= 0; k-- {
		if i >= 0 && compareEntry(entry{vs[i], ids[i]}, es[j]) > 0 {
			vs[k], ids[k] = vs[i], ids[i]
			i--
		} else {
			vs[k], ids[k] = es[j].v, es[j].id
			j--
		}
	}
	return vs, ids
}

// mergeBuf merges the buffer into a new main array, dropping dead entries.
func (tb *table) mergeBuf() {
	n := 0
	for _, id := range tb.mainID {
		if id != deadID {
			n++
		}
	}
	vs := make([]uint64, 0, n+len(tb.buf))
	ids := make([]uint32, 0, n+len(tb.buf))
	i, j := 0, 0
	for i < len(tb.main) || j < len(tb.buf) {
		if i < len(tb.main) && tb.mainID[i] == deadID {
			i++
			continue
		}
		if j == len(tb.buf) || i < len(tb.main) && compareEntry(entry{tb.main[i], tb.mainID[i]}, entry{tb.buf[j], tb.bufID[j]}) < 0 {
			vs, ids = append(vs, tb.main[i]), append(ids, tb.mainID[i])
			i++
		} else {
			vs, ids = append(vs, tb.buf[j]), append(ids, tb.bufID[j])
			j++
		}
	}
	tb.main, tb.mainID = vs, ids
	tb.buf, tb.bufID = tb.buf[:0], tb.bufID[:0]
}

// Remove deletes fingerprint fp stored under id and reports whether it was
// there.
//
// The deletions here are not posting-list deletions (engine.DeletePosting):
// each table is a pair of sorted parallel arrays searched by binary search,
// so an entry leaves its buffer by an order-keeping slices.Delete and its
// main array by a tombstone (deadID) that the next merge drops.
func (ix *Index) Remove(id uint32, fp uint64) bool {
	if i := slices.Index(ix.pend, entry{v: fp, id: id}); i >= 0 {
		ix.pend = slices.Delete(ix.pend, i, i+1)
		ix.n--
		return true
	}
	if len(ix.tables) == 0 {
		return false
	}
	// Every table holds the entry in the same part (buffer or main).
	inBuf, found := false, false
	for t := range ix.tables {
		tb := &ix.tables[t]
		v := permute(tb.perm, fp)
		if i, ok := find(tb.buf, tb.bufID, v, id); ok {
			tb.buf = slices.Delete(tb.buf, i, i+1)
			tb.bufID = slices.Delete(tb.bufID, i, i+1)
			inBuf, found = true, true
			continue
		}
		if i, ok := find(tb.main, tb.mainID, v, id); ok {
			tb.mainID[i] = deadID
			found = true
		}
	}
	if !found {
		return false
	}
	ix.n--
	if !inBuf {
		ix.dead++
		if main := len(ix.tables[0].main); ix.dead > main/4 {
			for t := range ix.tables {
				ix.tables[t].mergeBuf()
			}
			ix.dead = 0
		}
	}
	return true
}

// find returns the position of (v, id) in sorted arrays.
func find(vs []uint64, ids []uint32, v uint64, id uint32) (int, bool) {
	i, _ := slices.BinarySearch(vs, v)
	for ; i < len(vs) && vs[i] == v; i++ {
		if ids[i] == id {
			return i, true
		}
	}
	return 0, false
}

// Query appends to dst every stored fingerprint within distance K of fp,
// each once, ordered by distance then ID, and returns the extended slice.
// Query does not allocate when dst has room.
func (ix *Index) Query(fp uint64, dst []Neighbor) []Neighbor {
	return ix.within(fp, ix.lay.k, 0, dst)
}

// within is Query for the radius k, probing in each table the keys within
// flips bits of fp's as well (multi-probe, Lv, Josephson, Wang, Charikar,
// Li 2007, "Multi-probe LSH: efficient indexing for high-dimensional
// similarity search", VLDB, §4): with k = 64 it keeps every entry its
// probes meet. A table of a p-bit key costs 1 + p + p(p−1)/2 probes at
// flips = 2.
func (ix *Index) within(fp uint64, k, flips int, dst []Neighbor) []Neighbor {
	start := len(dst)
	for _, e := range ix.pend {
		if d := bits.OnesCount64(e.v ^ fp); d <= k {
			dst = append(dst, Neighbor{ID: e.id, Distance: d})
		}
	}
	for t := range ix.tables {
		tb := &ix.tables[t]
		q := permute(tb.perm, fp)
		low := uint64(1)<<uint(64-tb.prefix) - 1 // bits below the key
		probe := func(key uint64) {
			lo, hi := key&^low, key|low
			dst = scan(dst, tb.main, tb.mainID, q, lo, hi, k)
			dst = scan(dst, tb.buf, tb.bufID, q, lo, hi, k)
		}
		probe(q)
		for i := range tb.prefix {
			if flips == 0 {
				break
			}
			bi := uint64(1) << uint(63-i)
			probe(q ^ bi)
			if flips < 2 {
				continue
			}
			for j := i + 1; j < tb.prefix; j++ {
				probe(q ^ bi ^ uint64(1)<<uint(63-j))
			}
		}
	}
	found := dst[start:]
	if len(found) > 1 {
		// A neighbour agreeing on more than m−k blocks is found by
		// several tables, and a repeated (id, fp) is stored twice:
		// each is reported once, whatever the tables.
		slices.SortFunc(found, func(a, b Neighbor) int {
			return cmp.Or(cmp.Compare(a.Distance, b.Distance), cmp.Compare(a.ID, b.ID))
		})
		found = slices.Compact(found)
		dst = dst[:start+len(found)]
	}
	return dst
}

// nearest returns the k entries nearest to fp, by distance then ID, with
// the ties of the k-th. Query's probes find every entry within K: when k
// entries are, that is all. Otherwise an index of at most scanMax entries
// (or of one table without a key) is scanned whole, the k-th distance
// counted first: the exact k nearest. A larger one is probed at keys
// within rankFlips bits of fp's in each table (multi-probe), which misses
// entries that agree with fp on no table's key.
func (ix *Index) nearest(fp uint64, k int) []Neighbor {
	near := ix.Query(fp, nil)
	switch {
	case len(near) >= k:
	case len(ix.tables) == 1 && ix.tables[0].prefix == 0, ix.n <= ix.scanMax:
		near = ix.all(fp, ix.kth(fp, k), near[:0])
	default:
		near = ix.within(fp, 64, rankFlips, near[:0])
	}
	if len(near) > k {
		last := near[k-1].Distance // keep the ties of the k-th
		near = near[:k+sort.Search(len(near)-k, func(i int) bool { return near[k+i].Distance > last })]
	}
	return near
}

// all appends to dst every live entry within distance r of fp, ordered by
// distance then ID: a scan of the first table.
func (ix *Index) all(fp uint64, r int, dst []Neighbor) []Neighbor {
	start := len(dst)
	for _, e := range ix.pend {
		if d := bits.OnesCount64(e.v ^ fp); d <= r {
			dst = append(dst, Neighbor{ID: e.id, Distance: d})
		}
	}
	tb := &ix.tables[0]
	q := permute(tb.perm, fp)
	dst = scan(dst, tb.main, tb.mainID, q, 0, math.MaxUint64, r)
	dst = scan(dst, tb.buf, tb.bufID, q, 0, math.MaxUint64, r)
	found := dst[start:]
	slices.SortFunc(found, func(a, b Neighbor) int {
		return cmp.Or(cmp.Compare(a.Distance, b.Distance), cmp.Compare(a.ID, b.ID))
	})
	return dst
}

// kth returns the distance from fp of the k-th nearest live entry of an
// index with one table (64 when it holds fewer than k).
func (ix *Index) kth(fp uint64, k int) int {
	var count [65]int
	for _, e := range ix.pend {
		count[bits.OnesCount64(e.v^fp)]++
	}
	tb := &ix.tables[0]
	q := permute(tb.perm, fp)
	for _, part := range tb.runs() {
		for i, v := range part.vs {
			if part.ids[i] != deadID {
				count[bits.OnesCount64(v^q)]++
			}
		}
	}
	for d, n := range count {
		if k -= n; k <= 0 {
			return d
		}
	}
	return 64
}

// lookup appends to dst the IDs stored with fingerprint fp exactly: a scan
// of the recent insertions and two binary searches in the first table,
// O(256 + log n + matches).
func (ix *Index) lookup(fp uint64, dst []uint32) []uint32 {
	for _, e := range ix.pend {
		if e.v == fp {
			dst = append(dst, e.id)
		}
	}
	if len(ix.tables) == 0 {
		return dst
	}
	tb := &ix.tables[0]
	v := permute(tb.perm, fp)
	for _, part := range tb.runs() {
		i, _ := slices.BinarySearch(part.vs, v)
		for ; i < len(part.vs) && part.vs[i] == v; i++ {
			if part.ids[i] != deadID {
				dst = append(dst, part.ids[i])
			}
		}
	}
	return dst
}

// scan appends the entries of the sorted array in [lo, hi] within distance
// k of q.
func scan(dst []Neighbor, vs []uint64, ids []uint32, q, lo, hi uint64, k int) []Neighbor {
	i := 0
	if lo > 0 {
		i, _ = slices.BinarySearch(vs, lo)
	}
	for ; i < len(vs) && vs[i] <= hi; i++ {
		if d := bits.OnesCount64(vs[i] ^ q); d <= k && ids[i] != deadID {
			dst = append(dst, Neighbor{ID: ids[i], Distance: d})
		}
	}
	return dst
}
