// Package longtest holds the one switch for neardup's long tests: soaks,
// Config sweeps over whole collections, whole-collection round trips and
// reference-equivalence sweeps. The README's `go test ./...` leaves them
// out, or runs them on a sample of a collection, unless the environment
// variable NEARDUP_LONG is set (NEARDUP_LONG=1; .ci/run sets it).
//
// It is a leaf package (it imports no neardup package), so that the
// internal tests of every package, package detector's included, can call
// it. Go's test cache records the variables a test reads, so a cached
// result of a run without NEARDUP_LONG never answers a run with it.
package longtest

import (
	"os"
	"strconv"
	"testing"
)

// Env names the environment variable that turns the long tests on.
const Env = "NEARDUP_LONG"

// Enabled reports whether the long tests run: Env is set to anything but
// "" or "0".
func Enabled() bool {
	v := os.Getenv(Env)
	return v != "" && v != "0"
}

// Skip skips tb, with a message naming Env, unless the long tests run.
// It is the guard of every long test.
func Skip(tb testing.TB) {
	tb.Helper()
	if !Enabled() {
		tb.Skipf("skipping long test %s: set %s=1 to run it", tb.Name(), Env)
	}
}

// Size returns full when the long tests run and sample otherwise: the size
// of a test that checks a property on a sample of a collection by default
// and on all of it with NEARDUP_LONG.
func Size(sample, full int) int {
	if Enabled() {
		return full
	}
	return sample
}

// SkipSoak guards a heap soak or report: it skips tb unless the long
// tests run, and under the race detector, whose shadow memory is not the
// program's heap and which slows a soak tenfold.
func SkipSoak(tb testing.TB) {
	tb.Helper()
	Skip(tb)
	if RaceEnabled {
		tb.Skipf("skipping soak %s under -race: it measures the live heap, which the race detector inflates", tb.Name())
	}
}

// Count returns the number Env is set to when that is above 1, else def:
// the size of a soak or long sweep, so that NEARDUP_LONG=1000000 runs a
// soak of a million Adds where NEARDUP_LONG=1 runs def.
func Count(def int) int {
	if n, err := strconv.Atoi(os.Getenv(Env)); err == nil && n > 1 {
		return n
	}
	return def
}
