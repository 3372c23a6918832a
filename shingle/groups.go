package shingle

import (
	"github.com/seed-9ef9c1df/neardup/internal/engine"
)

// noGroup marks features that are not a stored group's (a searched text)
// and the absence of a group.
const noGroup = engine.NoGroup

// hit is a group found by a search, with the score each of its members
// gets.
type hit = engine.Candidate

// copyKeys finds a text's group of exact copies (engine.Finder): the key
// of its features (the hash of the feature set and size, or SpotSigs'
// token digest) → the live groups with that key, which same then tells
// apart. For SpotSigs it also gives the exact duplicates: the release
// reports a pair whose contents hash alike whatever their signatures
// (SpotSigs.java deduplicateIndex: counter.SHA1.equals(counter2.SHA1)).
type copyKeys struct {
	keys map[uint64][]uint32
	peak int
	// noGroups puts every document in a group of its own, as the index
	// was before exact copies were grouped: the reference of tests (never
	// set otherwise).
	noGroups bool
}

// add records the new group g of key k.
func (c *copyKeys) add(k uint64, g uint32) {
	if c.keys == nil {
		c.keys = map[uint64][]uint32{}
	}
	c.keys[k] = append(c.keys[k], g)
	c.peak = max(c.peak, len(c.keys))
}

// drop forgets the group g of key k, whose last member left.
func (c *copyKeys) drop(k uint64, g uint32) {
	engine.DeletePosting(c.keys, k, g)
	c.keys = engine.ShrinkMap(c.keys, &c.peak)
}

// find returns the live group of f's key whose features same says are
// f's.
func (c *copyKeys) find(f *features, groups *engine.Groups[features], same func(g *features, f *features) bool) (uint32, bool) {
	if c.noGroups {
		return 0, false
	}
	for _, g := range c.keys[f.key] {
		if same(groups.Features(g), f) {
			return g, true
		}
	}
	return 0, false
}
