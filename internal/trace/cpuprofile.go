package trace

import "strings"

// CPUProfileBeside is where a recorded run writes Go's CPU samples, by
// default, beside its trace dvt: run-1.dvt → run-1.cpu.pprof (the runtime's
// DIVERGO_CPUPROFILE; waittime splits a block's time over its lines by
// them).
func CPUProfileBeside(dvt string) string {
	return strings.TrimSuffix(dvt, ".dvt") + ".cpu.pprof"
}
