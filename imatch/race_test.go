//go:build race

package imatch

const raceEnabled = true
