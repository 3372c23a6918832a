package minhash

import "github.com/seed-9ef9c1df/neardup/internal/engine"

// liveStats returns the statistics d weighs by: its online ones (those of
// its current index) or those given to NewWithStats.
func (d *Detector) liveStats() *Stats {
	if !d.a.online {
		return d.a.stats
	}
	var st *Stats
	d.e.Inspect(func(ix engine.Index[sketch], _ int) {
		if c, ok := ix.(*countedIndex); ok {
			st = c.stats
		}
	})
	return st
}

// inspect calls fn under the Detector's lock with its index (its counted
// index's in Weighted mode with online statistics; nil after Close).
func (d *Detector) inspect(fn func(ix *index, c *countedIndex)) {
	d.e.Inspect(func(x engine.Index[sketch], _ int) {
		switch x := x.(type) {
		case *countedIndex:
			fn(x.index, x)
		case *index:
			fn(x, nil)
		default:
			fn(nil, nil)
		}
	})
}
