//go:build race

package mrcosine

// raceEnabled skips the all-pairs quality measurements under the race
// detector, which slows them tenfold; `go test ./mrcosine/` runs them.
const raceEnabled = true
