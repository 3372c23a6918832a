package simhash

import (
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/copyheap"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
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
// The members of a larger group are a binary min-heap by ID in gs, keyed
// by the representative, so that the k smallest IDs are read in
// O(k log k) however large the group.
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

	gs copyheap.Groups // representative → the members of groups of two or more
}

func newState(cfg Config, online, own bool) (*state, error) {
	ix, err := NewIndex(cfg.k(), cfg.Blocks)
	if err != nil {
		return nil, err
	}
	docs := docset.New("simhash", cfg.MaxTextBytes)
	return &state{
		docs:   docs,
		index:  ix,
		exact:  make(map[hashx.Digest][]uint32),
		online: online,
		own:    own,
		gs:     copyheap.New(docs),
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
		st.gs.Join(r, r, idx) // O(log c) for c members
		return
	}
	if has {
		st.index.Add(idx, fp)
	}
	if st.byDigest(has) {
		st.exact[dig] = append(st.exact[dig], idx)
	}
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
	if st.gs.Size(r) == 1 {
		if has {
			// The representative is in the Index exactly while its group
			// is live (TestIndexInStep).
			st.index.Remove(idx, fp)
		}
		if st.byDigest(has) {
			docset.DeletePosting(st.exact, dig, idx)
		}
		return
	}
	rest, alone := st.gs.Leave(r, idx)
	if idx != r {
		return
	}
	// The representative leaves: the member with the smallest ID stands
	// for the group.
	nr := st.gs.Min(r, rest)
	if has {
		st.index.Remove(r, fp)
		st.index.Add(nr, fp)
	}
	if st.byDigest(has) {
		l := st.exact[dig]
		l[slices.Index(l, r)] = nr
	}
	if !alone {
		st.gs.Rekey(r, nr)
	}
}

// matches returns the live documents other than skip related to a
// document of key (fp, has, dig, hasDig): the groups of equal digest
// (Score 1) and those within distance K of fp, at most limit of them by
// detector.SortMatches. Scores are taken from the highest down, and at
// each score every group gives at most as many of its smallest IDs as
// places remain, so a group of c copies costs time in the cap, not in c.
func (st *state) matches(fp uint64, has bool, dig hashx.Digest, hasDig bool, skip uint32, limit int) []detector.Match {
	var cands []copyheap.Candidate
	var seen map[uint32]bool
	if hasDig {
		for _, r := range st.exact[dig] {
			if seen == nil {
				seen = map[uint32]bool{}
			}
			seen[r] = true
			cands = append(cands, copyheap.Candidate{Group: r, Score: 1})
		}
	}
	if has {
		for _, n := range st.index.Query(fp, nil) {
			if !seen[n.ID] {
				cands = append(cands, copyheap.Candidate{Group: n.ID, Score: 1 - float64(n.Distance)/64})
			}
		}
	}
	return st.gs.Collect(cands, itself, skip, limit)
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
		all = st.gs.AppendMembers(all, r, r)
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

// itself is the member of a group of one: its representative.
func itself(r uint32) uint32 { return r }
