package shingle

// RaceEnabled reports whether the test binary runs under the race detector.
const RaceEnabled = raceEnabled

// UseReleaseBounds makes a SpotSigs detector prune with the reference
// release's two unsound bounds, to measure the pairs they drop.
func UseReleaseBounds(d *Detector) { d.ix.spot.releaseBounds = true }
