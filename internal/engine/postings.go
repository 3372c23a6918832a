package engine

import (
	"iter"
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// DeletePosting removes v from the posting list of k in m, and drops k when its
// list becomes empty, so the map shrinks with the live set. The order of the
// remaining entries is not kept (the last entry moves into the gap): use it
// where lists are sets.
func DeletePosting[K, V comparable](m map[K][]V, k K, v V) {
	p := m[k]
	if i := slices.Index(p, v); i >= 0 {
		p[i] = p[len(p)-1]
		p = p[:len(p)-1]
	}
	if len(p) == 0 {
		delete(m, k)
		return
	}
	m[k] = p
}

// Postings is an inverted index from a 64-bit feature to the documents
// (or groups) holding it, as plain integer slices: the posting lists of
// shingle's containment index and mrcosine's LSH bands. Most features
// occur in one document only, so a feature's first document is kept in
// the table value itself (flagged by single) and a slice is allocated only
// for a second one. Lists are sets: a removal moves the last entry into
// the gap.
//
// The table ([hashtab.Map]) follows the live features down by itself;
// once removals leave the features a quarter of their peak, Shrink
// renumbers the lists so that their headers are given back too. The zero
// Postings is empty. It is not safe for concurrent use; readers may share
// it while nothing changes it.
type Postings struct {
	ids hashtab.Map // feature → list ID, or single|document
	DocLists
	peak int // ids.Len() at its largest since the last renumbering
}

const single = 1 << 31

// minRenumber is the number of features below which Shrink renumbers only
// an emptied index: a small index costs little, and renumbering it often
// would.
const minRenumber = 1 << 12

// Lookup returns the entry of f (absent is reported as 0 documents): pass
// it to EntryLen and Read to avoid a second probe.
func (p *Postings) Lookup(f uint64) (v uint32, ok bool) {
	return p.ids.Get(f)
}

// EntryLen returns the number of documents of an entry from Lookup.
func (p *Postings) EntryLen(v uint32, ok bool) int {
	switch {
	case !ok:
		return 0
	case v&single != 0:
		return 1
	}
	return len(p.lists[v])
}

// Read returns the documents of an entry from Lookup, using one for a
// feature of one document, so that searches sharing the Postings read
// them with scratch of their own. The slice is valid until the Postings
// change.
func (p *Postings) Read(v uint32, ok bool, one *[1]uint32) []uint32 {
	switch {
	case !ok:
		return nil
	case v&single != 0:
		one[0] = v &^ single
		return one[:]
	}
	return p.lists[v]
}

// Get returns the documents of f, as Read does.
func (p *Postings) Get(f uint64, one *[1]uint32) []uint32 {
	v, ok := p.ids.Get(f)
	return p.Read(v, ok, one)
}

// Len returns the number of features.
func (p *Postings) Len() int { return p.ids.Len() }

// Slots returns the slots of the feature table, for tests of memory.
func (p *Postings) Slots() int { return p.ids.Slots() }

// All yields every feature with its documents, in no particular order. The
// Postings must not change during the iteration.
func (p *Postings) All() iter.Seq2[uint64, []uint32] {
	return func(yield func(uint64, []uint32) bool) {
		var one [1]uint32
		for f, v := range p.ids.All() {
			if !yield(f, p.Read(v, true, &one)) {
				return
			}
		}
	}
}

// Reserve makes room for n more features, so that a large document's
// insertion grows the table once.
func (p *Postings) Reserve(n int) {
	p.ids.Reserve(n)
}

// Add records doc, below 2^31, under f, which does not hold it.
func (p *Postings) Add(f uint64, doc uint32) {
	v, ok := p.ids.Ref(f)
	switch {
	case !ok:
		*v = single | doc
		p.peak = max(p.peak, p.ids.Len())
	case *v&single != 0:
		*v = p.Pair(*v&^single, doc)
	default:
		p.lists[*v] = append(p.lists[*v], doc)
	}
}

// Remove deletes doc from f's list (order within a list is not kept).
func (p *Postings) Remove(f uint64, doc uint32) {
	v, ok := p.ids.Get(f)
	if !ok {
		return
	}
	if v&single != 0 {
		if v&^single == doc {
			p.ids.Delete(f)
		}
		return
	}
	switch n, one := p.Drop(v, doc); n {
	case 0:
		p.ids.Delete(f)
	case 1:
		p.ids.Set(f, single|one)
	}
}

// Shrink renumbers the lists once the live features are fewer than a
// quarter of the peak (call it after removals), or none is left, so that
// the list headers follow them down as the table does. Its cost is
// amortised over those removals.
func (p *Postings) Shrink() {
	if p.ids.Len() == 0 {
		p.DocLists, p.peak = DocLists{}, 0
		return
	}
	if p.peak < minRenumber || p.ids.Len() >= p.peak/4 {
		return
	}
	var multi []uint64 // features of two or more documents
	for f, v := range p.ids.All() {
		if v&single == 0 {
			multi = append(multi, f)
		}
	}
	lists := make([][]uint32, 0, len(multi))
	for _, f := range multi {
		v, _ := p.ids.Ref(f)
		lists = append(lists, p.lists[*v])
		*v = uint32(len(lists) - 1)
	}
	p.lists, p.free, p.peak = lists, nil, p.ids.Len()
}

// DocLists are the lists of two or more documents of a posting index
// ([Postings], and shingle's SpotSigs signatures), by list ID; freed IDs,
// and their small arrays, are reused.
type DocLists struct {
	lists [][]uint32
	free  []uint32
}

// List returns list v.
func (l *DocLists) List(v uint32) []uint32 { return l.lists[v] }

// Append appends doc to list v.
func (l *DocLists) Append(v, doc uint32) { l.lists[v] = append(l.lists[v], doc) }

// Lists returns the number of list IDs in use or free, for tests.
func (l *DocLists) Lists() int { return len(l.lists) }

// Pair returns the ID of a new list holding a and b.
func (l *DocLists) Pair(a, b uint32) uint32 {
	id, ok := hashtab.Pop(&l.free)
	if !ok {
		id = uint32(len(l.lists))
		l.lists = append(l.lists, nil)
	}
	l.lists[id] = append(l.lists[id][:0], a, b)
	return id
}

// Drop deletes doc from list v (the last entry moves into its place) and
// returns how many entries are left, and the one left when it is one. A
// list left with fewer than two is released, its entry to be kept by the
// caller; a large array that is less than a quarter used is given back.
func (l *DocLists) Drop(v, doc uint32) (n int, one uint32) {
	list := l.lists[v]
	if i := slices.Index(list, doc); i >= 0 {
		list[i] = list[len(list)-1]
		list = list[:len(list)-1]
	}
	if len(list) < 2 {
		if len(list) == 1 {
			one = list[0]
		}
		l.release(v)
		return len(list), one
	}
	if cap(list) > 64 && len(list) < cap(list)/4 {
		list = slices.Clip(slices.Clone(list))
	}
	l.lists[v] = list
	return len(list), 0
}

// release returns list v to the free list; a small array stays for reuse.
func (l *DocLists) release(v uint32) {
	if cap(l.lists[v]) > 8 {
		l.lists[v] = nil
	} else {
		l.lists[v] = l.lists[v][:0]
	}
	l.free = append(l.free, v)
}
