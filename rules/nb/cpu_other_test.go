//go:build !unix

package nb_test

import "time"

// cpuTime is 0 where the process's CPU time is not measured.
func cpuTime() time.Duration { return 0 }
