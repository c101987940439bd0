package runtime

import (
	goruntime "runtime"
	"runtime/metrics"
	"time"
	"unsafe"
)

// divergo's CPU samples come from Go's profiler without runtime/pprof's
// writer: the recorder sets the rate itself (runtime.SetCPUProfileRate)
// and reads the samples in a goroutine of its own, hidden from the
// program as its writer is (hidden.go), then writes them as a pprof
// profile (pprofenc.go). pprof.StartCPUProfile would read them in a
// goroutine starting at runtime/pprof.profileWriter, which Go counts as
// the program's: one more for runtime.NumGoroutine, runtime.Stack and the
// goroutine profile, which a goleak-style check or a program printing its
// goroutine count would see. The profiler is otherwise the same one, at
// the same rate, and shared with the program's own as before
// (cpuprofile.go).

// sampleHz is the sampling rate, pprof.StartCPUProfile's.
const sampleHz = 100

// readProfile is runtime/pprof's reader of the profiler's samples, which
// the Go runtime provides to it by name.
//
//go:linkname readProfile runtime/pprof.readProfile
func readProfile() ([]uint64, []unsafe.Pointer, bool)

// samples are the running sampler's; its reader writes them until it has
// read the end of the profile and closed done.
var samples struct {
	done   chan struct{}
	hz     uint64
	counts map[string]uint64 // stack (its PCs' bytes) → samples, since recording began
	start  time.Time
	fresh  bool // a sample since the last profile
}

// cpuWatch says whether the program computes, while divergo's samples
// are read: a goroutine runs in code that may record nothing (a loop in a
// function with no change point, a library's hashing), so the program is
// not blocked even if its recorders are still, and the sampler must go
// on. The profiler's reader cannot say it: the Go runtime wakes it only
// when its buffer is half full. The program computes unless, at each of
// the checkpointer's last idleLooks looks, no goroutine but the
// checkpointer was running or ready to run (Go's scheduler metrics): the
// state of the scheduler, not the CPU time the process got, which on a
// loaded machine can be next to none for a goroutine that runs.
type cpuWatch struct {
	idle int // looks in a row with nothing else to run
	m    [2]metrics.Sample
}

// idleLooks is how many looks of the checkpointer (pollEvery apart) must
// find nothing else to run before divergo's sampler pauses.
const idleLooks = 5

// busy reports whether the program computed lately.
func (w *cpuWatch) busy() bool {
	if !samplerRunning() {
		return false
	}
	if w.m[0].Name == "" {
		w.m[0].Name = "/sched/goroutines/running:goroutines"
		w.m[1].Name = "/sched/goroutines/runnable:goroutines"
	}
	metrics.Read(w.m[:])
	n := uint64(0)
	for _, s := range w.m {
		if s.Value.Kind() == metrics.KindUint64 {
			n += s.Value.Uint64()
		}
	}
	if n > 1 { // the checkpointer runs
		w.idle = 0
		return true
	}
	w.idle++
	return w.idle < idleLooks
}

// startSampler turns Go's profiler on and starts the reader (under
// cpuProf.mu). Nothing else profiles: the program's own profile stops
// ours first (cpuprofile.go).
func startSampler() {
	samples.done = make(chan struct{})
	samples.hz = sampleHz
	if samples.counts == nil {
		samples.counts = map[string]uint64{}
		samples.start = time.Now()
	}
	goruntime.SetCPUProfileRate(sampleHz)
	go hiddenProfiler()
}

// stopSampler turns the profiler off, waits for the reader to drain it and
// returns every sample since recording began, its pauses' included, as
// one gzipped profile (under cpuProf.mu): nil when there is no new one
// since the last and the file has them, else a profile even with none,
// so that a run has its samples beside its trace however short it was.
func stopSampler() []byte {
	goruntime.SetCPUProfileRate(0)
	<-samples.done
	if !samples.fresh && cpuProf.w != nil && cpuProf.w.f != nil {
		return nil
	}
	samples.fresh = false
	return encodeProfile(samples.counts, samples.hz, samples.start, time.Now())
}

// readSamples reads the profiler until it is turned off, counting samples
// by stack. The first record is the rate; a record of no samples and a
// one-word stack says how many the profiler lost, which are dropped.
func readSamples() {
	defer close(samples.done)
	first := true
	for {
		if goruntime.GOOS == "darwin" || goruntime.GOOS == "ios" {
			time.Sleep(100 * time.Millisecond) // readProfile does not block there
		}
		data, _, eof := readProfile()
		for len(data) >= 3 && data[0] >= 3 && data[0] <= uint64(len(data)) {
			n, count, stk := data[0], data[2], data[3:data[0]]
			data = data[n:]
			if first {
				first = false
				if count > 0 {
					samples.hz = count
				}
				continue
			}
			if count == 0 || len(stk) == 0 {
				continue
			}
			samples.counts[stackKey(stk)] += count
			samples.fresh = true
		}
		if eof {
			return
		}
	}
}

// stackKey is the bytes of a stack's PCs, a map key.
func stackKey(stk []uint64) string {
	return string(unsafe.Slice((*byte)(unsafe.Pointer(&stk[0])), len(stk)*8))
}

// keyStack is the stack of a stackKey.
func keyStack(k string) []uintptr {
	ws := make([]uint64, len(k)/8)
	if len(ws) > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&ws[0])), len(ws)*8), k)
	}
	pcs := make([]uintptr, len(ws))
	for i, w := range ws {
		pcs[i] = uintptr(w)
	}
	return pcs
}
