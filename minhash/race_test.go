//go:build race

package minhash

const raceEnabled = true
