//go:build !unix

package load

import "time"

// cpuTime is 0 where this process's CPU time is not measured.
func cpuTime() time.Duration { return 0 }
