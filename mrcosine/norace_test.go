//go:build !race

package mrcosine

const raceEnabled = false
