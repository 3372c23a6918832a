package shingle

import "github.com/seed-9ef9c1df/neardup/internal/engine"

// RaceEnabled reports whether the test binary runs under the race detector.
const RaceEnabled = raceEnabled

// UseReleaseBounds makes a SpotSigs detector prune with the reference
// release's two unsound bounds, to measure the pairs they drop. Call it
// before any other call.
func UseReleaseBounds(d *Detector) {
	d.e.Inspect(func(ix engine.Index[features], _ int) { ix.(*spotIndex).releaseBounds = true })
}

// OnTurn makes d call f each time an Add registers its document or a
// Remove takes effect, under the exclusive lock, in that order (the
// linearisation of concurrent calls). Call it before any other call.
func OnTurn(d *Detector, f func(remove bool, id string)) {
	nd, err := newDetector(d.cfg, f)
	if err != nil {
		panic(err) // unreachable: d's Config is valid
	}
	*d = *nd
}
