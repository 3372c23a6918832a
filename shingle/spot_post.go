package shingle

import (
	"math"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
)

// sigPosts is SpotSigs' inverted index: by signature ID, the counted
// groups holding the signature, each once. Most signatures are held by one
// group only, so that group is kept in first itself and a slice is
// allocated only for a second one: 4 bytes a signature where a slice
// header per signature took 24, which every growth of the per-ID arrays
// copied and every collection scanned, and one allocation per new
// signature, both in the Add's exclusive turn. Group indexes are below
// 2^31 (dense, as the docsets issue them).
type sigPosts struct {
	first           []uint32 // by signature ID: postEmpty, the one group, or postMany|list ID
	engine.DocLists          // lists of two or more groups, unordered
}

const (
	postMany  = 1 << 31
	postEmpty = math.MaxUint32
)

// ids returns the number of signature IDs.
func (p *sigPosts) ids() int { return len(p.first) }

// grow adds a signature ID, with no group.
func (p *sigPosts) grow() { p.first = append(p.first, postEmpty) }

// of returns the groups holding signature s. The slice aliases the index:
// valid, and not to be written, until the index changes.
func (p *sigPosts) of(s uint32) []uint32 {
	switch v := p.first[s]; {
	case v == postEmpty:
		return nil
	case v&postMany != 0:
		return p.List(v &^ postMany)
	default:
		return p.first[s : s+1 : s+1]
	}
}

// add records group g under signature s, which does not hold it.
func (p *sigPosts) add(s, g uint32) {
	switch v := p.first[s]; {
	case v == postEmpty:
		p.first[s] = g
	case v&postMany != 0:
		p.Append(v&^postMany, g)
	default:
		p.first[s] = postMany | p.Pair(v, g)
	}
}

// remove deletes group g from signature s's list. The last group of a
// list moves into g's place, as the slices of a posting list always did.
func (p *sigPosts) remove(s, g uint32) {
	switch v := p.first[s]; {
	case v == postEmpty:
	case v&postMany == 0:
		if v == g {
			p.first[s] = postEmpty
		}
	default:
		switch n, one := p.Drop(v&^postMany, g); n {
		case 0:
			p.first[s] = postEmpty
		case 1:
			p.first[s] = one
		}
	}
}
