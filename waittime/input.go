package waittime

import (
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// Trace is what [Analyze] reads: the program's graph, its goroutines and
// each goroutine's events in the order it executed them. internal/trace's
// reader satisfies it through an adapter; tests use in-memory fakes.
type Trace interface {
	Graph() *tbb.Graph
	Goroutines() []Goroutine
	// Events returns an iterator over the events of goroutine id. Analyze
	// opens the iterators of all goroutines at once and reads them in step.
	Events(id uint64) (EventIter, error)
}

// EventIter iterates over one goroutine's events.
type EventIter interface {
	// Next returns the next event, or false at the end or on error.
	Next() (trace.Event, bool)
	// Err returns the error that ended the iteration, if any.
	Err() error
}

// Goroutine describes one goroutine of a trace.
type Goroutine struct {
	ID      uint64
	Parent  uint64 // 0 for the root goroutine
	Site    int    // block of the go statement that started it; -1 for the root
	Ordinal uint32 // 1 for the parent's first spawn at Site
	Start   int64  // ns since the trace's start; -1 when not recorded
	End     int64  // ns since the trace's start; -1 when not recorded
}
