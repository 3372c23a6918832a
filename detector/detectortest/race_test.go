//go:build race

package detectortest_test

const raceEnabled = true
