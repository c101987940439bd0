//go:build linux

package runtime

import (
	"bytes"
	"io"
	"os"
	"runtime/debug"

	"github.com/divergo/divergo/internal/trace"
)

// A process that dies of a fatal error (all goroutines asleep, concurrent
// map writes, out of memory) or of a panic the recorder does not see
// (in a goroutine code that is not instrumented started) writes no end:
// its trace is completed from its arena, which cannot say what it died
// of. Go can say it: debug.SetCrashOutput has the Go runtime copy what it
// prints as it dies, after standard error, to a file of the recorder's
// beside the trace (crashPath). The completion reads the start of that
// file: "panic: v" is a panic, with its words; "SIGQUIT: quit" a signal Go
// died of with a traceback; a traceback alone is a fatal error. Go copies
// what it prints only from the moment it starts dying, after the line
// "fatal error: concurrent map writes" (Go 1.26, runtime.writeErrData):
// the words of a fatal error are not in the file, and the ending names
// the two that its traceback tells apart, a deadlock (no goroutine was
// running) and a map accessed concurrently (the running goroutine died in
// the maps' fatal), and leaves other fatal errors without words. A file
// that is empty (SIGKILL, a signal Go dies of without a word) leaves the
// run killed. A run that writes its end removes the file, as it removes
// its arena.
//
// The program sees one more open file, and replaces the copy with its own
// if it calls debug.SetCrashOutput itself (it is one per process): its
// crash output then goes where it says, and its ending reads killed.

// crashPath is where the crash output of the run recording the trace at
// path goes.
func crashPath(path string) string { return path + ".crash" }

// maxCrashLine bounds what the completion reads of a crash file.
const maxCrashLine = 4 << 10

// openCrash has the Go runtime copy its crash output to crashPath(path).
func openCrash(path string) {
	p := crashPath(path)
	os.Remove(p)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return
	}
	defer f.Close() // SetCrashOutput keeps a duplicate of its descriptor
	if debug.SetCrashOutput(f, debug.CrashOptions{}) != nil {
		os.Remove(p)
	}
}

// crashEnding is the ending of a run killed with its arena: end (killed,
// or what the arena's header said) unless the crash file beside the trace
// at path says it was a fatal error or a panic.
func crashEnding(path string, end trace.Ending) trace.Ending {
	if end.Kind != trace.EndKilled {
		return end
	}
	f, err := os.Open(crashPath(path))
	if err != nil {
		return end
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, maxCrashLine))
	b = bytes.TrimLeft(b, "\n")
	line, rest, _ := bytes.Cut(b, []byte("\n"))
	switch {
	case len(line) == 0:
		return end
	case bytes.HasPrefix(line, []byte("panic: ")):
		return trace.Ending{Kind: trace.EndPanic, Code: 2, Message: string(line[len("panic: "):])}
	case bytes.HasPrefix(line, []byte("SIG")):
		return trace.Ending{Kind: trace.EndKilled, Message: string(line)}
	case !bytes.HasPrefix(line, []byte("goroutine ")):
		return end
	}
	fatal := trace.Ending{Kind: trace.EndFatal, Code: 2}
	switch top, _, _ := bytes.Cut(rest, []byte("(")); {
	case !bytes.HasSuffix(line, []byte("[running]:")):
		fatal.Message = "all goroutines are asleep - deadlock!"
	case string(top) == "internal/runtime/maps.fatal":
		fatal.Message = "concurrent map access"
	}
	return fatal
}
