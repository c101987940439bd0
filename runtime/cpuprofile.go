package runtime

import (
	"fmt"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/divergo/divergo/internal/trace"
)

// Go's CPU samples beside the trace. A trace times blocks, not statements:
// between two timestamps a goroutine's time is spread over the blocks it
// ran by their instruction counts, and a block's time is reported at its
// first line. A call into code that is not instrumented (sha256.Sum256)
// is one instruction of its block, so two heavy calls on lines 18 and 19
// of a block that begins at line 17 were both reported at line 17.
// SIGPROF samples, 100 a second, say which line of the block the
// goroutine was on; waittime splits each block's time over its lines by
// them (docs/ARCHITECTURE.md, "Time per statement").
//
// DIVERGO_CPUPROFILE=on (or 1) records them beside the trace (run-1.dvt →
// run-1.cpu.pprof), a path records there; unset or off, none, because the
// program would notice: Go has one CPU profiler per process, so a program
// that starts its own (pprof.StartCPUProfile, net/http/pprof's
// /debug/pprof/profile) would get "cpu profiling already in use", and the
// profiler's goroutine keeps a deadlocked program from being reported
// (TestDeadlockReported hung). Never in a child process of a recorded one,
// nor for a trace that goes to a device.
//
// The file is created when the profiler writes it, when recording ends:
// a program that leaves by an os.Exit the recorder does not see leaves
// no empty file beside its trace.

var cpuProf struct{ w *lazyFile }

// cpuProfilePath is where the CPU samples go, "" for none.
func cpuProfilePath() string {
	switch v := os.Getenv("DIVERGO_CPUPROFILE"); v {
	case "", "off", "0":
		return ""
	case "1", "on":
		if sess.child || strings.HasPrefix(sess.path, "/dev/") {
			return ""
		}
		return trace.CPUProfileBeside(sess.path)
	default:
		if sess.child {
			return ""
		}
		return v
	}
}

// startCPUProfile starts Go's CPU profiler if asked to. A profiler already
// running (the program cannot have started it yet; a test binary's
// -cpuprofile can) is left alone.
func startCPUProfile() {
	p := cpuProfilePath()
	if p == "" {
		return
	}
	w := &lazyFile{path: p}
	if err := pprof.StartCPUProfile(w); err != nil {
		return
	}
	cpuProf.w = w
}

// stopCPUProfile stops the profiler, which writes the samples out, when
// the trace is completed (under sess.mu, once).
func stopCPUProfile() {
	w := cpuProf.w
	if w == nil {
		return
	}
	cpuProf.w = nil
	pprof.StopCPUProfile()
	if err := w.close(); err != nil {
		fmt.Fprintf(os.Stderr, "divergo: no CPU samples: %v\n", err)
	}
}

// lazyFile creates its file at the first write.
type lazyFile struct {
	path string
	f    *os.File
	err  error
}

func (l *lazyFile) Write(b []byte) (int, error) {
	if l.f == nil && l.err == nil {
		l.f, l.err = trace.CreateFile(l.path)
	}
	if l.err != nil {
		return 0, l.err
	}
	return l.f.Write(b)
}

func (l *lazyFile) close() error {
	if l.f == nil {
		return l.err
	}
	if err := l.f.Close(); err != nil {
		return err
	}
	return l.err
}
