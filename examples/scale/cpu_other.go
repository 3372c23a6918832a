//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package main

import "time"

// cpuSeconds returns wall seconds since the program started: this system
// offers no getrusage, so the figures are wall time (one goroutine adds).
func cpuSeconds() float64 { return time.Since(start).Seconds() }

var start = time.Now()
