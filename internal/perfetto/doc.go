// Package perfetto writes divergo traces as Chrome trace-event JSON, the
// format that ui.perfetto.dev, chrome://tracing and Perfetto's trace
// processor open: a timeline people can look at.
//
// # What is drawn
//
// Each run is a process (pids 1, 2, ...); each goroutine is a thread of it
// (tids unique in the file, from 101), named by its spawn path, main first
// and the rest in spawn-tree order: a child after its parent, siblings by
// the line of their go statement and then their ordinal, an order that
// does not depend on the schedule, so both runs of a diff list their
// goroutines alike. On a goroutine's track:
//
//   - a slice "goroutine N" from its start to its end;
//   - function frames, from the entry block of a call to its exit event.
//     Their times are estimated: the runtime timestamps only sync events,
//     goroutine start and end and chunk flushes, and the time between two
//     timestamps is spread over the blocks executed in between by their
//     instruction counts (docs/FORMAT.md, "Durations"). Implied blocks
//     (those without a probe) are put back between the recorded ones as
//     compare puts them back, and the time is spread by replay.Stretch,
//     the code waittime spreads with: a function's frames hold the time
//     waittime gives its blocks, to the nanosecond. Frames say "estimated" in
//     their args. Frames shorter than [Options.MinFrame] that hold nothing
//     else worth drawing are left out, to keep the file small;
//   - waits as complete slices named "op @ file:line", from the time the
//     goroutine blocked to the time it resumed (exact timestamps), with the
//     object, the waiting time and the releaser in their args;
//   - a flow arrow from the releasing goroutine's release (drawn as a
//     zero-length slice "op @ file:line") to the end of the wait it ended.
//     The releaser is the one [replay.Releasers] names, by the rule of the wait's
//     kind (docs/FORMAT.md, "Sync events and releasers"), the same one
//     waittime names. A wait without one says why in its args
//     ("releaser": "unknown", "why": ...); a release stamped after the end
//     of the wait it ended (clocks a little apart) is named without an
//     arrow;
//   - an instant "go path" at each go statement and a flow arrow from it to
//     the child's track. The go statement's time is estimated, and moved
//     back to the child's start should the estimate fall after it.
//
// Flow ends are placed a nanosecond inside the slice they bind to (the
// wait's end, the child's start) with binding point "e", so that viewers
// bind them the same way whatever order they give events of equal times.
//
// A run can carry marks ([Run.Marks]): slices to draw over a span of a
// goroutine's steps (internal/steps), such as the divergent sections of a
// diff, which compare's Report.Marks gives for each run ("divergo diff
// -perfetto" draws both runs, as "run A" and "run B", with them): named
// "divergent: KIND at file:line", or "divergent (unflagged) at file:line"
// where the analyzer did not mark the block, with the section's distances
// in their args. This package counts the steps as it draws, replaying each
// goroutine as compare does (internal/replay, implied blocks included), so
// a mark starts and ends at the estimated time of the block where its span
// does, even one without a probe (a loop's head or its done block). It
// knows nothing of comparisons: it draws what it is given.
//
// # Memory
//
// The JSON is written as the traces are read. The goroutines of a run are
// merged in time order by replay.Timeline, the merge waittime reads too
// (docs/FORMAT.md, "Reading order"; each goroutine holds one chunk), so
// that a wait meets its releaser without holding the trace; what is kept
// is, per live goroutine, its open frames and the steps since its last
// timestamp (at most a chunk), and the pairing of releasers
// ([replay.Releasers]), a merge of its own over the sync events run ahead
// of the timeline, which holds the waits in flight.
//
// # Checking the output
//
// [Validate] decodes a file with encoding/json into typed events and checks
// the trace-event format's rules: required fields per phase, complete slices
// with non-negative durations, B/E balanced and slices properly nested per
// thread, every flow start finished with the same id and category and bound
// to a slice, pid/tid named by metadata, timestamps non-negative and finite.
package perfetto
