//go:build !unix

package peerbench

import "time"

// cpuTime is unknown on this platform: the cpu-ns/doc metric reads 0.
func cpuTime() time.Duration { return 0 }
