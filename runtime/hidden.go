package runtime

import _ "unsafe" // go:linkname

// The recorder's own goroutines (the writer, the checkpointer, and the
// short-lived ones of goid detection and of the previous trace's removal)
// start at the functions below, whose symbols are named in the Go
// runtime's namespace. The Go runtime takes every goroutine whose start
// function's name begins with "runtime." for one of its own, as it does
// its collector's workers (isSystemGoroutine in runtime/traceback.go), and
// leaves those out of runtime.NumGoroutine, runtime.Stack(buf, true), the
// goroutine profile and the tracebacks of a crash or a deadlock report. A
// recorded program then counts and lists the goroutines its plain build
// does, and a goleak-style check passes recorded as it does plain.
//
// Each is a function of no arguments, started as "go f()": a go statement
// with arguments starts a wrapper named after the function holding the
// statement, which the Go runtime would count. What they need is in
// package variables, set before the go statement. The names are pushed
// symbols of this package (the linker restricts only references to
// symbols defined in the standard library), and are distinct from every
// name the Go runtime defines. TestHiddenGoroutines fails if a toolchain
// stops treating them as its own.

//go:linkname hiddenWriter runtime.divergoWriter
func hiddenWriter() { writeJobs() }

//go:linkname hiddenCheckpointer runtime.divergoCheckpointer
func hiddenCheckpointer() { checkpointer() }

//go:linkname hiddenGoidSample runtime.divergoGoidSample
func hiddenGoidSample() { goidSample() }

//go:linkname hiddenCloseOld runtime.divergoCloseOld
func hiddenCloseOld() { closeOld() }

//go:linkname hiddenProfiler runtime.divergoProfiler
func hiddenProfiler() { readSamples() }

// Go runs f as the goroutine c was spawned for, between its Start and
// Done. The instrumenter rewrites a go statement whose callee takes and
// returns nothing (go worker(), go s.loop()) to go Go(c, f): the compiler
// starts that goroutine at a wrapper of its own (a go statement with
// arguments), which tracebacks leave out as they do every wrapper, and this
// function's symbol is named in the Go runtime's namespace, which they
// leave out too. A panic in f then prints f's frame right above "created
// by", as the plain build's does, where a function literal around the call
// added a frame of its own (and shifted the numbers of the literals after
// it). The goroutine still counts as the program's: it starts at the
// wrapper, not here. A callee with arguments still needs a literal to hold
// them, and shows that literal's frame.
//
//go:linkname Go runtime.divergoGo
func Go(c *Child, f func()) {
	c.Start()
	defer c.Done()
	f()
}
