// Package replay turns a goroutine's recorded events into the full sequence
// of blocks it executed, with call depth: the implied blocks (those without
// a probe, docs/TBB.md and internal/flow, "Fewer probes") put back between
// the probed ones, and calls and returns followed on a stack of frames.
//
// Every reader of traces that looks at blocks uses it, so that compare,
// waittime and the Perfetto export see the same executions: compare
// aligns the steps, waittime and perfetto spread time over them by
// instruction counts (docs/FORMAT.md, "Durations").
//
// A [Replayer] is fed a goroutine's block and exit events in order
// ([Replayer.Block], [Replayer.Exit]) and appends the steps each one
// implies. Implied blocks are put back where the instrumenter's minimizer
// promised they would be: eagerly, right after a block whose only successor
// is implied and that cannot exit (so that what the successor evaluates,
// a loop condition's calls, belongs to it), otherwise lazily, as the unique
// path through implied blocks to the next probed block of the frame or to
// the function's exit. Paths are looked up once per pair of blocks and
// cached in a [Paths], shared by the replayers of one reader's goroutine.
//
// A stream the graph cannot explain (a block no path reaches, an exit of no
// open frame, a block of an outer frame without exits of the frames above)
// is replayed as well as it can be and counted in [Replayer.Anomalies];
// two streams with the same events are always replayed alike.
//
// Readers that look across goroutines read a run through a [Timeline]:
// the goroutines' streams merged in one time order, the pairing of
// releasers run ahead of it, and the blocks between two timestamps of a
// goroutine timed by [Stretch.Spread]. The order and the rule are stated in
// docs/FORMAT.md ("Reading order", "Durations").
//
// The pairing names the operation that ended each wait ([Pair],
// [NewReleasers], [Releasers]; docs/FORMAT.md, "Sync events and
// releasers"). It lives here, on the read side, rather than beside the
// format in internal/trace, because every recorded build compiles
// internal/trace and none needs the pairing.
package replay
