package shingle

import (
	"cmp"
	"slices"
)

// view prepares q to search for a text of raw multiset hashes, cnt (hashes
// ascending) under the state an Add of it would leave, without changing
// the index: N one higher, the text's signatures one document more
// frequent, and so the band's edges and the places of the signatures
// at them moved as insert would move them. It records the places that
// change (q.over) and the resulting changes of the masses of the groups
// holding them (q.delta), and returns the text's signature IDs (those
// the index does not know numbered after its own), its mass and rescue.
// A text too short to be counted has mass −1. pre, when not nil, holds
// the IDs of the signatures found by resolve. Its cost is an Add's: O(n)
// plus the postings of the signatures whose place changes.
func (x *spotIndex) view(hashes []uint64, cnt []uint32, pre []uint32, q *spotQuery) (sigs, counts []uint32, a int, rescued bool) {
	if !x.countable(cnt) {
		return nil, nil, -1, false
	}
	if q.over == nil {
		q.over, q.delta, q.isA = map[uint32]uint8{}, map[uint32][2]int32{}, map[uint32]bool{}
	}
	clear(q.over)
	clear(q.delta)
	clear(q.isA)
	// The text's signature IDs, sorted, carrying the counts.
	q.sigs, q.ord = q.sigs[:0], q.ord[:0]
	next := uint32(len(x.df))
	for i, h := range hashes {
		var s uint32
		ok := false
		if pre != nil {
			s = pre[i]
			ok = s != noSig
		} else {
			s, ok = x.ids.Get(h)
		}
		if !ok {
			s = next
			next++
		}
		q.sigs = append(q.sigs, s)
		q.ord = append(q.ord, i)
	}
	slices.SortFunc(q.ord, func(i, j int) int { return cmp.Compare(q.sigs[i], q.sigs[j]) })
	sigs, counts = make([]uint32, len(q.ord)), make([]uint32, len(q.ord))
	for k, i := range q.ord {
		sigs[k], counts[k] = q.sigs[i], cnt[i]
	}
	lo0, hi0 := x.lo, x.hi
	lo, hi := x.boundsNear(x.n+1, x.lo, x.hi)
	move := func(s uint32, to uint8) {
		from := x.place[s]
		if from == to {
			return
		}
		q.over[s] = to
		for _, b := range x.post.of(s) {
			c := int32(x.count(b, s))
			dd := q.delta[b]
			switch from {
			case sigBand:
				dd[0] -= c
			case sigAbove:
				dd[1] -= c
			}
			switch to {
			case sigBand:
				dd[0] += c
			case sigAbove:
				dd[1] += c
			}
			q.delta[b] = dd
		}
	}
	for _, s := range sigs {
		q.isA[s] = true
		if int(s) >= len(x.df) {
			q.over[s] = placeAt(1, lo, hi)
			continue
		}
		move(s, placeAt(int(x.df[s])+1, lo, hi))
	}
	visit := func(from, to int) {
		for df := max(from, 1); df <= to && df < len(x.byDF); df++ {
			for _, s := range x.byDF[df] {
				if !q.isA[s] {
					move(s, placeAt(df, lo, hi))
				}
			}
		}
	}
	visit(min(lo, lo0), max(lo, lo0)-1)
	visit(min(hi, hi0)+1, max(hi, hi0))
	band, above := 0, 0
	p := placer{place: x.place, over: q.over}
	for k, s := range sigs {
		switch p.at(s) {
		case sigBand:
			band += int(counts[k])
		case sigAbove:
			above += int(counts[k])
		}
	}
	a, rescued = x.massOf(band, above)
	return sigs, counts, a, rescued
}

// placer reads signatures' places: from place, except those over names
// (a Query's state). A zero placer counts every signature.
type placer struct {
	place []uint8
	over  map[uint32]uint8
}

func (p placer) at(s uint32) uint8 {
	if p.over != nil {
		if v, ok := p.over[s]; ok {
			return v
		}
	}
	return p.place[s]
}

// counts reports whether signature s is in the filtered multiset of a
// document that is rescued or not.
func (p placer) counts(s uint32, rescued bool) bool {
	return p.place == nil || in(p.at(s), rescued)
}
