package mrcosine

import "github.com/seed-9ef9c1df/neardup/internal/engine"

// buckets maps (band, key) to the groups holding that band key: an
// engine.Postings per band.
type buckets struct {
	bands []engine.Postings
}

// get returns the list of (b, key), nil if none, using one for a key of
// one group (see engine.Postings.Read).
func (t *buckets) get(b uint32, key uint64, one *[1]uint32) []uint32 {
	if int(b) >= len(t.bands) {
		return nil
	}
	return t.bands[b].Get(key, one)
}

// add records g under (b, key).
func (t *buckets) add(b uint32, key uint64, g uint32) {
	for int(b) >= len(t.bands) {
		t.bands = append(t.bands, engine.Postings{})
	}
	t.bands[b].Add(key, g)
}

// remove deletes g from the list of (b, key), and the key when its list
// becomes empty.
func (t *buckets) remove(b uint32, key uint64, g uint32) {
	if int(b) < len(t.bands) {
		t.bands[b].Remove(key, g)
		t.bands[b].Shrink()
	}
}
