package runtime

import goruntime "runtime"

// How a run ends, as the program sees it. An ending that the recorder
// sees (main's return, OsExit, a panic nothing recovers) completes the
// trace before the process dies; two things make that cut lose nothing
// and change nothing the program shows.
//
// Goroutines that start after the cut. finish cuts every live
// goroutine's stream at one moment; a goroutine that registers after it
// (started by a goroutine still running, while the dying one writes the
// index) would run, print, and not be in the trace. So an ending that
// kills the process sets sess.exiting under the registry's lock, in the
// same critical section that lists the live goroutines, and a goroutine
// that registers after it parks for good before it runs anything of the
// program (register): it is either in the cut or does nothing. That is a
// schedule the plain program has too, the one where the exit came first,
// and the process dies a moment later. A test's panic does not park:
// testing runs the test's cleanups, instrumented code, before it ends
// the process; nor does the test timeout's cut, after which tests may
// still finish and the binary exit normally.
//
// A panic's output. A deferred call that recovers a panic to complete
// the trace and panics again with the same value makes Go print
// "panic: v [recovered, repanicked]" and the deferred call's frames: not
// what the plain program prints. So Done does not recover: it asks
// whether its goroutine is panicking (panicking), completes the trace,
// and returns, and the panic goes on as it was, printed by Go as in the
// plain build.

// panicking reports whether the deferred call that calls it (its caller)
// runs because its goroutine panics: a deferred call run by a panic is
// called by the Go runtime's gopanic, one run at a return by the function
// that returns, and one run by runtime.Goexit by Goexit. It costs a
// stack walk of two frames, at a goroutine's end only.
func panicking() bool { return panickingBelow(1) }

// panickingBelow is panicking for a deferred call n frames above its
// caller (inlined frames count): 1 when the deferred call calls it.
func panickingBelow(n int) bool {
	var pcs [1]uintptr
	// Skip runtime.Callers, panickingBelow, and the n frames up to the
	// deferred call: the frame that called the deferred call.
	if goruntime.Callers(2+n+1, pcs[:]) == 0 {
		return false
	}
	f, _ := goruntime.CallersFrames(pcs[:]).Next()
	return f.Function == "runtime.gopanic"
}
