//go:build race

package dataset

// RaceEnabled reports whether the binary was built with -race.
const RaceEnabled = true
