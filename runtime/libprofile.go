package runtime

import (
	"io"
	_ "unsafe" // go:linkname
)

// Code divergo does not compile starts CPU profiles too: net/http/pprof's
// /debug/pprof/profile handler calls pprof.StartCPUProfile, which Go would
// refuse while divergo's samples are read (the Go runtime would also print
// "cannot set cpu profile rate" on the program's stderr). The instrumenter
// overlays net/http/pprof's sources with a copy whose two calls go through
// the variables below (instrument/stdhooks.go), which send them to
// StartCPUProfile and StopCPUProfile as an instrumented call is sent: the
// handler gets its profile, and divergo's samples resume after it. The
// copy declares the same variables by the same names; the linker keeps
// one of each, so a binary that links net/http/pprof without the recorder
// finds them nil and calls runtime/pprof itself.

//go:linkname libStartCPUProfile runtime.divergoStartCPUProfile
var libStartCPUProfile func(io.Writer) error

//go:linkname libStopCPUProfile runtime.divergoStopCPUProfile
var libStopCPUProfile func()

func init() {
	libStartCPUProfile, libStopCPUProfile = StartCPUProfile, StopCPUProfile
}
