package simhash

import (
	"cmp"
	"maps"
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
	"github.com/seed-9ef9c1df/neardup/internal/matches"
	"github.com/seed-9ef9c1df/neardup/internal/postings"
)

// noDoc is no document (Query of a text whose ID is not live).
const noDoc = math.MaxUint32

// state is a Detector's index of its live documents. The Detector guards it
// with its lock; ReadFrom builds a fresh one and swaps it in whole.
//
// Exact copies. Documents with the same terms in the same order (equal
// content digests) and the same fingerprint, or the same lack of one, are
// indistinguishable to every later answer: they form a group, represented
// in the Index and in the digest map by one member, its representative
// (rep). A further copy is one heap insertion; no table of the Index and
// no digest list grows. A group of one is its own representative and costs
// nothing beyond the per-document arrays, which every member keeps (a
// member finds its group by looking its own fingerprint and digest up).
// The members of a larger group are a binary min-heap by ID in heaps, so
// that the k smallest IDs are read in O(k log k) however large the group.
type state struct {
	docs   *docset.Set
	index  *Index                    // group representatives with a fingerprint
	exact  map[hashx.Digest][]uint32 // representatives of the groups matched by digest
	online bool                      // every group is in exact (fingerprints can change)
	own    bool                      // the Detector owns its table: packed is kept

	// By dense document index.
	fps    []uint64
	has    []bool // the document has a fingerprint
	digest []hashx.Digest
	hasDig []bool   // the document has terms (and so a digest and a group)
	handle []int32  // the document's handle in the Detector's own table
	packed []string // own table only: its distinct terms, packed (shared with the table and its copies)

	heaps map[uint32][]uint32 // representative → all members, a heap by ID (groups of two or more)
	pos   map[uint32]uint32   // members of those groups → position in the heap

	// The most keys heaps and pos have held since they were last rebuilt:
	// Go maps keep their buckets when keys are deleted.
	heapsPeak, posPeak int
}

func newState(cfg Config, online, own bool) (*state, error) {
	ix, err := NewIndex(cfg.k(), cfg.Blocks)
	if err != nil {
		return nil, err
	}
	return &state{
		docs:   docset.New("simhash", cfg.MaxTextBytes),
		index:  ix,
		exact:  make(map[hashx.Digest][]uint32),
		online: online,
		own:    own,
		heaps:  make(map[uint32][]uint32),
		pos:    make(map[uint32]uint32),
	}, nil
}

// byDigest reports whether a group with (or without) a fingerprint is
// matched, and found, through the digest map: all groups when fingerprints
// can change (equal texts may then have different fingerprints), and the
// groups without a fingerprint otherwise.
func (st *state) byDigest(has bool) bool { return st.online || !has }

// grow extends the per-document arrays to the docset's capacity.
func (st *state) grow() {
	n := st.docs.Cap()
	if n <= len(st.fps) {
		return
	}
	st.fps = append(st.fps, make([]uint64, n-len(st.fps))...)
	st.has = append(st.has, make([]bool, n-len(st.has))...)
	st.digest = append(st.digest, make([]hashx.Digest, n-len(st.digest))...)
	st.hasDig = append(st.hasDig, make([]bool, n-len(st.hasDig))...)
	st.handle = append(st.handle, make([]int32, n-len(st.handle))...)
	if st.own {
		st.packed = append(st.packed, make([]string, n-len(st.packed))...)
	}
}

// find returns the representative of the live group whose key is (fp,
// has, dig): O(1) through the digest map, or one exact Index lookup.
func (st *state) find(fp uint64, has bool, dig hashx.Digest) (uint32, bool) {
	if st.byDigest(has) {
		for _, r := range st.exact[dig] {
			if st.has[r] == has && st.fps[r] == fp {
				return r, true
			}
		}
		return 0, false
	}
	var buf [8]uint32
	for _, r := range st.index.lookup(fp, buf[:0]) {
		if st.digest[r] == dig {
			return r, true
		}
	}
	return 0, false
}

// groupOf returns the representative of the group of the live document
// idx, which has terms.
func (st *state) groupOf(idx uint32) uint32 {
	r, _ := st.find(st.fps[idx], st.has[idx], st.digest[idx])
	return r
}

// insert registers the live document idx: its arrays, and its group,
// which it joins (a heap insertion) or creates (one Index insertion, one
// digest-list entry).
func (st *state) insert(idx uint32, fp uint64, has bool, dig hashx.Digest, hasDig bool, h int32, packed string) {
	st.grow()
	st.fps[idx], st.has[idx], st.handle[idx] = fp, has, h
	st.digest[idx], st.hasDig[idx] = dig, hasDig
	if st.own {
		st.packed[idx] = packed
	}
	if !hasDig {
		return // no terms: no group, matches nothing
	}
	if r, ok := st.find(fp, has, dig); ok {
		st.join(r, idx)
		return
	}
	if has {
		st.index.Add(idx, fp)
	}
	if st.byDigest(has) {
		st.exact[dig] = append(st.exact[dig], idx)
	}
}

// join adds idx to the group of representative r: O(log c) for c members.
func (st *state) join(r, idx uint32) {
	h, ok := st.heaps[r]
	if !ok {
		h = []uint32{r}
		st.pos[r] = 0
	}
	h = append(h, idx)
	st.up(h, len(h)-1)
	st.heaps[r] = h
	st.heapsPeak = max(st.heapsPeak, len(st.heaps))
	st.posPeak = max(st.posPeak, len(st.pos))
}

// remove forgets the live document idx and returns its handle in the own
// table. A member of a larger group leaves its heap in O(log c); when it
// was the representative, another member takes its place in the Index
// and the digest list. The last member takes the group out of both.
func (st *state) remove(idx uint32) int32 {
	h := st.handle[idx]
	if st.hasDig[idx] {
		st.leave(idx)
	}
	st.fps[idx], st.has[idx], st.hasDig[idx], st.digest[idx], st.handle[idx] = 0, false, false, hashx.Digest{}, -1
	if st.own {
		st.packed[idx] = ""
	}
	return h
}

func (st *state) leave(idx uint32) {
	fp, has, dig := st.fps[idx], st.has[idx], st.digest[idx]
	r := st.groupOf(idx)
	hp, ok := st.heaps[r]
	if !ok { // a group of one
		if has {
			// The representative is in the Index exactly while its group
			// is live (TestIndexInStep).
			st.index.Remove(idx, fp)
		}
		if st.byDigest(has) {
			postings.Delete(st.exact, dig, idx)
		}
		return
	}
	i := int(st.pos[idx])
	delete(st.pos, idx)
	last := len(hp) - 1
	if i != last {
		hp[i] = hp[last]
	}
	hp = hp[:last]
	if i < len(hp) {
		st.down(hp, i)
		st.up(hp, i)
	}
	nr := r
	if idx == r {
		// The representative leaves: the heap's root stands for the group.
		nr = hp[0]
		if has {
			st.index.Remove(r, fp)
			st.index.Add(nr, fp)
		}
		if st.byDigest(has) {
			l := st.exact[dig]
			l[slices.Index(l, r)] = nr
		}
		delete(st.heaps, r)
	}
	if len(hp) == 1 {
		delete(st.heaps, nr)
		delete(st.pos, hp[0])
		st.heaps = shrink(st.heaps, &st.heapsPeak)
		st.pos = shrink(st.pos, &st.posPeak)
		return
	}
	if cap(hp) > 64 && len(hp) < cap(hp)/4 {
		hp = slices.Clone(hp) // the end of a flood gives its memory back
	}
	st.heaps[nr] = hp
}

// less orders documents by ID.
func (st *state) less(a, b uint32) bool { return st.docs.ID(a) < st.docs.ID(b) }

// up moves h[i] towards the root while it is smaller than its parent,
// keeping the positions.
func (st *state) up(h []uint32, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !st.less(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		st.pos[h[i]] = uint32(i)
		i = p
	}
	st.pos[h[i]] = uint32(i)
}

// down moves h[i] away from the root while a child is smaller.
func (st *state) down(h []uint32, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if r := c + 1; r < len(h) && st.less(h[r], h[c]) {
			c = r
		}
		if !st.less(h[c], h[i]) {
			break
		}
		h[i], h[c] = h[c], h[i]
		st.pos[h[i]] = uint32(i)
		i = c
	}
	st.pos[h[i]] = uint32(i)
}

// size returns the members of the group of representative r.
func (st *state) size(r uint32) int {
	if h, ok := st.heaps[r]; ok {
		return len(h)
	}
	return 1
}

// members appends the members of the group of representative r, unordered.
func (st *state) members(dst []uint32, r uint32) []uint32 {
	if h, ok := st.heaps[r]; ok {
		return append(dst, h...)
	}
	return append(dst, r)
}

// smallest appends a Match of the given score for each of the n members
// with the smallest IDs of the group of representative r, skip left out.
// It walks the heap from its root with a frontier of the positions whose
// parents were taken: O(n log n), whatever the group's size.
func (st *state) smallest(dst []detector.Match, r uint32, n int, skip uint32, score float64) []detector.Match {
	h, ok := st.heaps[r]
	if !ok {
		if r != skip && n > 0 {
			dst = append(dst, detector.Match{ID: st.docs.ID(r), Score: score})
		}
		return dst
	}
	if n >= len(h) {
		for _, o := range h {
			if o != skip {
				dst = append(dst, detector.Match{ID: st.docs.ID(o), Score: score})
			}
		}
		return dst
	}
	front := frontier{st: st, h: h}
	front.push(0)
	for taken := 0; taken < n && len(front.at) > 0; {
		p := front.pop()
		if h[p] != skip {
			dst = append(dst, detector.Match{ID: st.docs.ID(h[p]), Score: score})
			taken++
		}
		for c := 2*p + 1; c <= 2*p+2 && c < len(h); c++ {
			front.push(c)
		}
	}
	return dst
}

// frontier is a min-heap of positions of the heap h, by the ID there.
type frontier struct {
	st *state
	h  []uint32
	at []int
}

func (f *frontier) less(i, j int) bool { return f.st.less(f.h[f.at[i]], f.h[f.at[j]]) }

func (f *frontier) push(p int) {
	f.at = append(f.at, p)
	for i := len(f.at) - 1; i > 0; {
		q := (i - 1) / 2
		if !f.less(i, q) {
			break
		}
		f.at[i], f.at[q] = f.at[q], f.at[i]
		i = q
	}
}

func (f *frontier) pop() int {
	top := f.at[0]
	last := len(f.at) - 1
	f.at[0] = f.at[last]
	f.at = f.at[:last]
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(f.at) {
			break
		}
		if r := c + 1; r < len(f.at) && f.less(r, c) {
			c = r
		}
		if !f.less(c, i) {
			break
		}
		f.at[i], f.at[c] = f.at[c], f.at[i]
		i = c
	}
	return top
}

// candidate is a live group related to a document, with its score.
type candidate struct {
	rep   uint32
	score float64
}

// matches returns the live documents other than skip related to a
// document of key (fp, has, dig, hasDig): the groups of equal digest
// (Score 1) and those within distance K of fp, at most limit of them by
// detector.SortMatches. Scores are taken from the highest down, and at
// each score every group gives at most as many of its smallest IDs as
// places remain, so a group of c copies costs time in the cap, not in c.
func (st *state) matches(fp uint64, has bool, dig hashx.Digest, hasDig bool, skip uint32, limit int) []detector.Match {
	var cands []candidate
	var seen map[uint32]bool
	if hasDig {
		for _, r := range st.exact[dig] {
			if seen == nil {
				seen = map[uint32]bool{}
			}
			seen[r] = true
			cands = append(cands, candidate{r, 1})
		}
	}
	if has {
		for _, n := range st.index.Query(fp, nil) {
			if !seen[n.ID] {
				cands = append(cands, candidate{n.ID, 1 - float64(n.Distance)/64})
			}
		}
	}
	slices.SortStableFunc(cands, func(a, b candidate) int { return cmp.Compare(b.score, a.score) })
	skipRep := uint32(noDoc)
	if skip != noDoc && st.hasDig[skip] {
		skipRep = st.groupOf(skip)
	}
	var out []detector.Match
	for i := 0; i < len(cands) && len(out) < limit; {
		j := i
		for j < len(cands) && cands[j].score == cands[i].score {
			j++
		}
		room := limit - len(out)
		for _, c := range cands[i:j] {
			n := room
			if c.rep == skipRep && n < st.size(c.rep) {
				n++ // skip takes no place
			}
			out = st.smallest(out, c.rep, n, skip, c.score)
		}
		i = j
	}
	return matches.Top(out, limit)
}

// copies returns the IDs of the live documents with the same terms as the
// live document idx, in ascending order, idx left out: the members of its
// group, and (when fingerprints can change) of the groups of equal digest
// whose fingerprints differ from its own.
func (st *state) copies(idx uint32) []string {
	if !st.hasDig[idx] {
		return []string{}
	}
	var reps []uint32
	if st.byDigest(st.has[idx]) {
		reps = st.exact[st.digest[idx]]
	} else {
		reps = []uint32{st.groupOf(idx)}
	}
	var all []uint32
	for _, r := range reps {
		all = st.members(all, r)
	}
	out := make([]string, 0, len(all))
	for _, o := range all {
		if o != idx {
			out = append(out, st.docs.ID(o))
		}
	}
	slices.Sort(out)
	return out
}

// minShrink is the least peak size at which a map is rebuilt.
const minShrink = 1024

// shrink returns m rebuilt at its size when it holds under a quarter of
// its peak keys, resetting the peak; otherwise m. A rebuild copies at most
// a third of the keys deleted since the last, O(1) amortised per deletion.
func shrink[K comparable, V any](m map[K]V, peak *int) map[K]V {
	if *peak < minShrink || len(m) >= *peak/4 {
		return m
	}
	*peak = len(m)
	out := make(map[K]V, len(m))
	maps.Copy(out, m)
	return out
}
