//go:build unix

package peerbench

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user + system) the process has used so
// far, all threads included (GC workers too), or 0 if unknown.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
