//go:build !unix

package runtime

import "time"

// processCPU cannot tell here: the checkpointer then pauses divergo's
// samples whenever the recorders are still (cpuWatch).
func processCPU() time.Duration { return 0 }
