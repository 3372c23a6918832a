//go:build race

package simhash

const raceEnabled = true
