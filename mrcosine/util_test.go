package mrcosine

import (
	"math"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

func pow(x float64, n int) float64 { return math.Pow(x, float64(n)) }
func acos(x float64) float64       { return math.Acos(x) }

// testIndex returns the detector's index (nil after Close), for tests
// that read it while no call runs, and the engine's group slots.
func (d *Detector) testIndex() (*index, int) {
	var ix *index
	var slots int
	d.e.Inspect(func(x engine.Index[sig], n int) {
		ix, _ = x.(*index)
		slots = n
	})
	return ix, slots
}

// encode returns the payloads of the two snapshot sections and the
// number of live documents.
func (d *Detector) encode() (groups, zero []byte, n int, err error) {
	secs, n, err := d.e.SectionList()
	if err != nil {
		return nil, nil, 0, err
	}
	return secs[0], secs[1], n, nil
}

// decode decodes the payloads of the two sections as ReadFrom does,
// without installing them, and returns the number of documents they hold.
func (d *Detector) decode(groups, zero []byte) (int, error) {
	return d.e.DecodeSectionList([][]byte{groups, zero})
}

// ix returns the detector's index (nil after Close).
func (d *Detector) ix() *index {
	ix, _ := d.testIndex()
	return ix
}

// header is the snapshot header the detector writes and expects.
func (d *Detector) header() snapshot.Header {
	return snapshot.Header{Kind: snapshotKind, KindVersion: snapshotVersion, Config: d.cfg,
		Tables: map[string]uint64{refTable: d.ref.fingerprint()}}
}
