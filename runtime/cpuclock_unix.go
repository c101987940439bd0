//go:build unix

package runtime

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used, user and system, 0
// when it cannot tell.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
