// The one switch for neardup's long tests: soaks,
// Config sweeps over whole collections, whole-collection round trips and
// reference-equivalence sweeps. The README's `go test ./...` leaves them
// out, or runs them on a sample of a collection, unless the environment
// variable NEARDUP_LONG is set (NEARDUP_LONG=1; .ci/run sets it).
//
// Go's test cache records the variables a test reads, so a cached
// result of a run without NEARDUP_LONG never answers a run with it.

package dataset

import (
	"os"
	"strconv"
)

// LongEnv names the environment variable that turns the long tests on.
const LongEnv = "NEARDUP_LONG"

// LongEnabled reports whether the long tests run: LongEnv is set to anything but
// "" or "0".
func LongEnabled() bool {
	v := os.Getenv(LongEnv)
	return v != "" && v != "0"
}

// SkipLong skips tb, with a message naming LongEnv, unless the long tests run.
// It is the guard of every long test.
func SkipLong(tb TB) {
	tb.Helper()
	if !LongEnabled() {
		tb.Skipf("skipping long test %s: set %s=1 to run it", tb.Name(), LongEnv)
	}
}

// LongSize returns full when the long tests run and sample otherwise: the size
// of a test that checks a property on a sample of a collection by default
// and on all of it with NEARDUP_LONG.
func LongSize(sample, full int) int {
	if LongEnabled() {
		return full
	}
	return sample
}

// SkipSoak guards a heap soak or report: it skips tb unless the long
// tests run, and under the race detector, whose shadow memory is not the
// program's heap and which slows a soak tenfold.
func SkipSoak(tb TB) {
	tb.Helper()
	SkipLong(tb)
	if RaceEnabled {
		tb.Skipf("skipping soak %s under -race: it measures the live heap, which the race detector inflates", tb.Name())
	}
}

// LongCount returns the number LongEnv is set to when that is above 1, else def:
// the size of a soak or long sweep, so that NEARDUP_LONG=1000000 runs a
// soak of a million Adds where NEARDUP_LONG=1 runs def.
func LongCount(def int) int {
	if n, err := strconv.Atoi(os.Getenv(LongEnv)); err == nil && n > 1 {
		return n
	}
	return def
}
