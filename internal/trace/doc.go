// Package trace is the divergo trace file format: the event table shared by
// the runtime that records and the tools that read, a [Writer] used by the
// runtime, and a streaming [Reader] used by show, compare and waittime.
//
// The byte layout is specified in docs/FORMAT.md; this comment is the API.
//
// # Reading
//
//	r, err := trace.Open("run-1.dvt")
//	if err != nil { ... }           // one line, says where: "reading chunk at offset 4711: ..."
//	defer r.Close()
//	g := r.Graph()                  // the embedded TBB graph, hash checked
//	for _, gi := range r.Goroutines() {
//		it, err := r.Events(gi.ID)  // streams one goroutine, chunk by chunk
//		if err != nil { ... }
//		for it.Next() {
//			ev := it.Event()
//			...
//		}
//		if err := it.Err(); err != nil { ... }
//	}
//
// Consumers that read every event of long streams (compare) use
// [Reader.EventReader] instead: its ReadEvents decodes a chunk's events
// straight into the caller's buffer, one call per batch, not per event,
// and [EventReader.Raw] hands out the undecoded bytes for a consumer that
// recognises events by them (two streams' equal bytes are equal events),
// which consumes what it took with [EventReader.Skip].
//
// Memory is proportional to the number of goroutines and chunks, never to the
// number of events: [Reader.Events] reads one chunk at a time, and several
// iterators may run at once (in different goroutines). [Reader.Truncated]
// reports a file without its index (the program was killed): the reader then
// scanned the file and serves every whole chunk up to the cut.
//
// Goroutines are identified by the recorder id the runtime gave them (main
// is 1) and named by spawn path ([GoroutineInfo.Path]): "main" for the
// goroutine that ran main.main, and for a child its parent's path, "/", the
// name of the function it started in, "@", the file:line of the go
// statement, "#", and its ordinal among the parent's spawns at that site:
// "main/worker@pool.go:23#3".
//
// # Writing synthetic traces in tests
//
// Other packages' tests build real files from event lists with [WriteFile]
// (or [Encode] to any io.Writer):
//
//	err := trace.WriteFile(path, graph, []trace.GoroutineEvents{
//		{ID: 1, Events: []trace.Event{{Kind: trace.EvBlock, Block: 0}, ...}},
//		{ID: 2, Parent: 1, Site: 3, Ordinal: 1, Events: ...},
//	})
//
// The graph must be valid for [tbb.Marshal]; events of goroutine 1 must come
// from main. This API is stable.
//
// # Durations
//
// Timestamps are nanoseconds since the trace's start. They appear in the
// stream as [EvClock] events (goroutine start, each chunk's flush, goroutine
// end) and as the Begin and End of [EvSync] events. Readers spread the time
// between two consecutive timestamps over the blocks executed between them,
// weighted by the blocks' instruction counts (docs/FORMAT.md, "Durations").
package trace
