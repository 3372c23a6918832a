//go:build race

package shingle

const raceEnabled = true
