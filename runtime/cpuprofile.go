package runtime

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"
	"sync"
	"time"

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
// They are recorded beside the trace by default (run-1.dvt →
// run-1.cpu.pprof); DIVERGO_CPUPROFILE=PATH records them there, =off none.
// The program cannot tell: the samples are read by a goroutine Go counts
// as its own (cpusampler.go), so runtime.NumGoroutine, runtime.Stack and
// the goroutine profile are as plain; a profile the program starts, from
// its instrumented code or from net/http/pprof's handler (libprofile.go),
// gets the profiler and its samples, and divergo's resume after it
// (StartCPUProfile below); go test -cpuprofile's profile is the test's
// (cpuProfilePath); while every recorded goroutine is blocked the sampler
// pauses, so that Go reports a deadlock (pauseCPUProfile). Never in a
// child process of a recorded one, nor for a trace that goes to a device.
//
// The file is created when the profiler writes it, when recording ends:
// a program that leaves by an os.Exit the recorder does not see leaves
// no empty file beside its trace.

var cpuProf struct {
	mu sync.Mutex
	w  *lazyFile
	// user is set while the program's own profile runs (StartCPUProfile):
	// its samples are teed into ours, a segment of its own.
	user *bytes.Buffer
	// paused: ours is stopped while every recorded goroutine is blocked
	// (pauseCPUProfile).
	paused bool
	// ours is divergo's samples so far, one profile, rewritten at each
	// stop, and theirs the copies of the program's profiles: the file is
	// ours then theirs, so that a run whose program profiles nothing
	// itself has one profile beside its trace, which go tool pprof reads.
	ours, theirs []byte
}

// cpuProfilePath is where the CPU samples go, "" for none. A test binary
// run with -test.cpuprofile starts Go's profiler from package testing,
// which is not instrumented, after the recorder starts: the test's profile
// is the one it asked for, so divergo records none.
func cpuProfilePath() string {
	if testCPUProfile(os.Args[1:]) {
		return ""
	}
	switch v := os.Getenv("DIVERGO_CPUPROFILE"); v {
	case "off", "0":
		return ""
	case "", "1", "on":
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

// startCPUProfile starts divergo's sampler if asked to. A profiler
// already running (the program cannot have started it yet; a test binary's
// -cpuprofile can) is left alone.
func startCPUProfile() {
	p := cpuProfilePath()
	if p == "" {
		return
	}
	cpuProf.mu.Lock()
	cpuProf.w = &lazyFile{path: p}
	startSampler()
	cpuProf.mu.Unlock()
}

// stopCPUProfile stops the sampler, which writes the samples out, when
// the trace is completed (under sess.mu, once).
func stopCPUProfile() {
	cpuProf.mu.Lock()
	defer cpuProf.mu.Unlock()
	w := cpuProf.w
	if w == nil {
		return
	}
	if cpuProf.user == nil && !cpuProf.paused {
		// The program's profile, when it runs one, is left running: stopping
		// it would write its file, which the plain program never does if it
		// does not stop it. Our samples before it are in the file.
		writeOurs(stopSampler())
	}
	cpuProf.w = nil
	if err := w.close(); err != nil {
		fmt.Fprintf(os.Stderr, "divergo: no CPU samples: %v\n", err)
	}
}

// writeSegment puts divergo's samples so far, a profile, in its file
// (under cpuProf.mu).
func writeOurs(data []byte) {
	if len(data) > 0 && cpuProf.w != nil {
		cpuProf.ours = data
		cpuProf.w.rewrite(cpuProf.ours, cpuProf.theirs)
	}
}

// writeTheirs adds a copy of the program's profile to divergo's file, a
// segment of its own (under cpuProf.mu).
func writeTheirs(data []byte) {
	if len(data) > 0 && cpuProf.w != nil {
		cpuProf.theirs = append(cpuProf.theirs, data...)
		cpuProf.w.rewrite(cpuProf.ours, cpuProf.theirs)
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

// rewrite makes the file's content parts, in order.
func (l *lazyFile) rewrite(parts ...[]byte) {
	if l.f != nil {
		if _, err := l.f.Seek(0, io.SeekStart); err != nil {
			l.err = err
			return
		}
		if err := l.f.Truncate(0); err != nil {
			l.err = err
			return
		}
	}
	for _, p := range parts {
		if len(p) > 0 {
			if _, err := l.Write(p); err != nil {
				return
			}
		}
	}
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

// Go has one CPU profiler per process, so a program that starts its own
// while divergo's runs would be refused ("cpu profiling already in use").
// The instrumenter sends the program's pprof.StartCPUProfile and
// StopCPUProfile here (instrument/ops.go). With divergo's profile running,
// StartCPUProfile stops divergo's sampler, writing its samples so far,
// and starts the program's profile with a writer that gives the program
// every byte, as plain, and keeps a copy; StopCPUProfile stops it, which
// writes the program's profile, adds the copy to divergo's file and starts
// divergo's sampler again. The file beside the trace is then a sequence of
// gzipped profiles, divergo's first, which divergo wait merges. Without
// divergo's samples both are pprof's.

// StartCPUProfile replaces the program's pprof.StartCPUProfile.
func StartCPUProfile(w io.Writer) error {
	cpuProf.mu.Lock()
	defer cpuProf.mu.Unlock()
	if cpuProf.w == nil || cpuProf.user != nil {
		return pprof.StartCPUProfile(w)
	}
	if !cpuProf.paused {
		writeOurs(stopSampler()) // our segment so far, into our file
	}
	cpuProf.paused = false
	buf := &bytes.Buffer{}
	if err := pprof.StartCPUProfile(teeWriter{w, buf}); err != nil {
		startSampler()
		return err
	}
	cpuProf.user = buf
	return nil
}

// StopCPUProfile replaces the program's pprof.StopCPUProfile.
func StopCPUProfile() {
	cpuProf.mu.Lock()
	defer cpuProf.mu.Unlock()
	pprof.StopCPUProfile()
	buf := cpuProf.user
	cpuProf.user = nil
	if buf == nil || cpuProf.w == nil {
		return
	}
	writeTheirs(buf.Bytes())
	startSampler()
}

// teeWriter writes to the program's writer, as pprof would, and to a copy;
// the program sees its writer's own results.
type teeWriter struct {
	w    io.Writer
	copy *bytes.Buffer
}

func (t teeWriter) Write(b []byte) (int, error) {
	t.copy.Write(b)
	return t.w.Write(b)
}

// The sampler's reader is a goroutine that waits for samples in a way Go
// counts as running, so while it runs Go never finds every goroutine
// asleep: a deadlocked program recorded with samples would hang instead of
// dying of Go's deadlock report. The checkpointer (blocked.go) knows when
// every recorded goroutine is blocked, or none has recorded anything for
// a while and the process uses no CPU time (cpuWatch); before it waits
// for one to resume it pauses the sampler, which writes the samples so
// far and lets its goroutine end, so that Go reports a deadlock as it does
// plain, and when one resumes it starts the sampler again. The program's
// own profile, when it runs one, is left alone: it would hang plain too.

// waitResumed waits, for the checkpointer, until a goroutine resumes
// (ckptWake). A wait longer than idleWait with divergo's sampler on pauses
// it, or Go could not report a deadlock; a shorter one, the stall of a
// pipeline, leaves it running: a pause writes the samples so far and a
// restart makes the Go runtime allocate its sample buffer again.
func waitResumed() {
	if samplerRunning() {
		t := time.NewTimer(idleWait)
		select {
		case <-ckptWake:
			t.Stop()
			return
		case <-t.C:
		}
	}
	paused := pauseCPUProfile()
	<-ckptWake
	if paused {
		resumeCPUProfile()
	}
}

// idleWait is how long the program is blocked before divergo's sampler
// pauses; Go's deadlock report comes that much later than plain.
const idleWait = 50 * time.Millisecond

// samplerRunning reports whether divergo's sampler runs.
func samplerRunning() bool {
	cpuProf.mu.Lock()
	defer cpuProf.mu.Unlock()
	return cpuProf.w != nil && cpuProf.user == nil && !cpuProf.paused
}

// pauseCPUProfile stops divergo's profiler, and reports whether it did.
func pauseCPUProfile() bool {
	cpuProf.mu.Lock()
	defer cpuProf.mu.Unlock()
	if cpuProf.w == nil || cpuProf.user != nil || cpuProf.paused {
		return false
	}
	writeOurs(stopSampler())
	cpuProf.paused = true
	return true
}

// resumeCPUProfile starts divergo's profiler again after a pause.
func resumeCPUProfile() {
	cpuProf.mu.Lock()
	defer cpuProf.mu.Unlock()
	if !cpuProf.paused || cpuProf.w == nil {
		return
	}
	cpuProf.paused = false
	startSampler()
}

// testCPUProfile reports whether args ask a test binary for a CPU profile
// (go test -cpuprofile passes -test.cpuprofile=FILE).
func testCPUProfile(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if name, _, _ := strings.Cut(a, "="); name == "test.cpuprofile" {
			return true
		}
	}
	return false
}
