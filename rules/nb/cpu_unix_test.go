//go:build unix

package nb_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system, GC included) the test process
// has used so far, or 0 where the system does not say: on a machine
// shared with other work a benchmark's wall time says more about the
// others than about the code, its CPU time much less.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
