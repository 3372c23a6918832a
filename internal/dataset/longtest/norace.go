//go:build !race

package longtest

// RaceEnabled reports whether the binary was built with -race.
const RaceEnabled = false
