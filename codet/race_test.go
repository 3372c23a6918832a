//go:build race

package codet_test

// raceEnabled reports whether the tests run under the race detector, which
// makes the quality runs over whole collections too slow for CI.
const raceEnabled = true
