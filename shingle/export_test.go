package shingle

// RaceEnabled reports whether the test binary runs under the race detector.
const RaceEnabled = raceEnabled

// UseReleaseBounds makes a SpotSigs detector prune with the reference
// release's two unsound bounds, to measure the pairs they drop.
func UseReleaseBounds(d *Detector) { d.ix.spot.releaseBounds = true }

// OnTurn makes d call f in every exclusive turn that adds or removes a
// document, in the order of the turns (the linearisation of concurrent
// calls). Set it before any call.
func OnTurn(d *Detector, f func(remove bool, id string)) { d.turn = f }
