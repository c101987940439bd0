package compare

import (
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// Trace is what the comparison reads of one run. The trace file reader
// provides it (see [FromReader]); tests build it in memory.
type Trace interface {
	// Graph is the program's TBB graph embedded in the trace.
	Graph() *tbb.Graph
	// Goroutines lists the goroutines recorded, in any order.
	Goroutines() []Goroutine
	// Events opens the event stream of one goroutine. The comparison reads
	// it once, front to back; if the reader is an io.Closer it is closed.
	Events(id uint64) (EventReader, error)
}

// Goroutine is one recorded goroutine and where it was spawned.
type Goroutine struct {
	ID      uint64
	Parent  uint64 // 0 for a goroutine not started by a recorded go statement (main)
	Site    uint32 // block holding the go statement
	Ordinal uint32 // 1 for the parent's first spawn at Site
	// FirstBlock is the first block the goroutine executed, when HasFirst.
	// Goroutines started by code divergo did not instrument (errgroup's
	// Group.Go) have no site or ordinal; they are matched by it.
	FirstBlock uint32
	HasFirst   bool
	// Creator is the function that started a goroutine of no parent in
	// code that is not instrumented, when the trace knows it
	// (trace.Origin.Creator): such goroutines are matched and named by it
	// and what they ran.
	Creator string
	// GoID is the Go runtime's goroutine id, 0 when not known. The Go
	// runtime numbers goroutines as they are created, so among goroutines
	// that uninstrumented code started it is the order of their go
	// statements more often than the order they reached instrumented code
	// in, which the scheduler decides.
	GoID uint64
	// Path is the goroutine's name as the trace gives it
	// (trace.GoroutineInfo.Path), which show and wait print too: the
	// report names goroutines by it, so that one goroutine has one name in
	// every command. "" in a trace made without one: then its spawn path
	// as compare builds it ("main > go main.go:12#1").
	Path string
	// Unfinished: the goroutine had not returned when the program exited
	// (main returned while it was running or blocked), so its events stop
	// wherever the exit caught it.
	Unfinished bool
}

// EventReader reads a goroutine's events in order, in batches, so that the
// comparison pays one interface call per batch and not per event. Read
// fills buf and returns how many events it stored; it returns 0 and io.EOF
// at the end of the stream.
type EventReader interface {
	Read(buf []trace.Event) (int, error)
}
