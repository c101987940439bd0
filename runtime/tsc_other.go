//go:build !amd64

package runtime

const haveTSC = false

func rdtsc() int64 { return nanotime() }

func invariantTSC() bool { return false }
