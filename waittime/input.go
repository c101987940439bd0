package waittime

import (
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// Trace is what [Analyze] reads: the program's graph, its goroutines and
// each goroutine's events in the order it executed them. A
// *[trace.Reader] is one; tests use in-memory fakes.
type Trace interface {
	Graph() *tbb.Graph
	// Goroutines lists the goroutines with their spawn path (names in
	// reports), start and end times.
	Goroutines() []trace.GoroutineInfo
	// Events returns an iterator over the events of goroutine id. Analyze
	// opens the iterators of all goroutines at once and reads them in step.
	Events(id uint64) (trace.EventIter, error)
}

var _ Trace = (*trace.Reader)(nil)
