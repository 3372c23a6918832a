package shingle

// RaceEnabled reports whether the test binary runs under the race detector.
const RaceEnabled = raceEnabled
