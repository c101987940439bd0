package runtime

const haveTSC = true

// rdtsc reads the time-stamp counter.
func rdtsc() int64

func cpuid(leaf uint32) (eax, edx uint32)

// invariantTSC reports CPUID's invariant-TSC bit (leaf 0x80000007, EDX bit
// 8): the counter runs at a constant rate in every power state.
func invariantTSC() bool {
	if max, _ := cpuid(0x80000000); max < 0x80000007 {
		return false
	}
	_, edx := cpuid(0x80000007)
	return edx&(1<<8) != 0
}
