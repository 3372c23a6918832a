//go:build !race

package detectortest_test

const raceEnabled = false
