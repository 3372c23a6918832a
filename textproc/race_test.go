//go:build race

package textproc

// raceEnabled reports whether the tests run under the race detector, whose
// sync.Pool drops items at random (so pooled paths allocate).
const raceEnabled = true
