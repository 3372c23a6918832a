//go:build !race

package codet_test

const raceEnabled = false
