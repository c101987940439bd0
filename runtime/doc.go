// Package runtime is the recorder linked into programs instrumented by
// divergo. Generated code imports it as _dvg and calls only the API listed
// in docs/ARCHITECTURE.md ("Runtime API used by generated code").
//
// # Recording
//
// Each goroutine has a recorder, a [G]: a buffer of uint32 words only that
// goroutine writes. [Main] and [Enter] find it once per function entry (the
// goroutine id is read from the Go runtime's g struct by a small assembly
// stub on amd64 and arm64, at an offset found at startup; elsewhere, or if
// that detection fails, by parsing runtime.Stack) and record the function's
// entry block. [G.B] then records a block with one store and an increment:
// no lock, no atomic operation, no clock. An outcome below 2^30 (a hashed
// map key, most index values) is one word too; rarer events (exits, large
// outcomes, spawns, sync operations, clocks) are an opcode word and
// payload words in the same buffer. Full-size buffers live outside the Go
// heap on Linux (mem_linux.go), where they would make the collector run
// more often for the program's own garbage. A full buffer is handed to a
// writer goroutine, which encodes it into one chunk of the trace file
// (internal/trace, docs/FORMAT.md) and writes it without holding the
// session's lock, while the goroutine that filled it goes on with an empty
// one: in a program with one busy goroutine the other core does the
// encoding. When the writer is behind, a goroutine with nothing queued
// encodes and writes its own full buffer instead of waiting, so that
// recording keeps up on machines with more cores than one writer can serve
// (writer.go says why, and how order is kept).
//
// Time is taken at goroutine start and end, at every chunk, and around
// every sync operation; never per block. The trace holds nanoseconds since
// recording started; buffers hold raw stamps of the cheapest sound clock
// (the TSC on linux/amd64 when it is invariant and the kernel's
// clocksource, else the Go runtime's nanotime), which the writer converts
// chunk by chunk (clock.go).
//
// # The trace file
//
// The trace goes to the path in the DIVERGO_TRACE environment variable, or
// by default to divergo-<program>-<pid>.dvt in the working directory, where
// <program> is the base name of os.Args[0]. DIVERGO_TRACE=off records
// nothing: a probe then costs two loads and two untaken branches, and a
// function's entry and return a test each and the deferred call, with no
// call into this package.
//
// The file is complete (index written) when main.main returns, when the
// program calls [OsExit], when a goroutine started through [G.Spawn] or
// main.main panics without recovering, and on SIGINT or SIGTERM (after the
// flush the signal is raised again with its default action, so the exit
// status is what it would have been). After SIGKILL or a fatal runtime
// error, every chunk written before is whole and readable; buffers not yet
// written are lost, including full ones still queued for the writer (at
// most 1 MiB of them).
//
// Catching SIGINT and SIGTERM has a price: the Go runtime never reports a
// deadlock in a program that catches signals, so a deadlocked program
// hangs instead of dying with "all goroutines are asleep". With
// DIVERGO_SIGNALS=off the runtime catches nothing: a deadlock is reported
// as usual, and a signal kills the program with its trace truncated.
//
// A goroutine still blocked in a sync operation when its buffer is written
// for the last time ends its stream with that wait, marked blocked; with
// DIVERGO_SIGNALS=off, a checkpoint written when every goroutine has
// blocked stands for the buffers Go's deadlock report will not let the
// runtime write (blocked.go, docs/BLOCKED.md).
//
// # Schedule exploration
//
// DIVERGO_PERTURB=SEED (an integer) makes every sync wrapper, and the
// start of every goroutine started through [G.Spawn], first yield or sleep
// a few microseconds, or not, as a per-goroutine PRNG decides. Its state
// starts from the goroutine's spawn path (the seed for main; the parent's
// state, the go statement's site and the spawn's ordinal for a child),
// never from goroutine ids, so a goroutine's decisions depend only on the
// seed and where it was spawned. The block probe never perturbs.
// DIVERGO_PERTURB_STRENGTH=P (0 to 100, default 50) is the percentage of
// decisions that yield or sleep. See perturb.go, strength.go and
// docs/ARCHITECTURE.md.
//
// # Contract with the instrumenter
//
//   - Main and Enter record the entry block they are given: do not add a
//     B(entry) probe after them.
//   - Exit is deferred right after Main or Enter, so that it runs last,
//     after any deferred call that recovers a panic (main.main's completes
//     the trace also when main panics; the panic then goes on).
//   - Spawn is called in the parent just before the go statement; the new
//     goroutine calls Start first and defers Done directly.
//   - Block ids must be below 1<<31.
//   - Sync wrappers and Spawn take the id of the operation's site, its
//     entry in the graph's table of sites (docs/TBB.md, "Sites"): each
//     sync operation and go statement has its own, with its own position.
//     Spawn counts ordinals per site, so per go statement.
//
// Goroutines not started through Spawn (by uninstrumented code) get a
// recorder at their first Enter, with no parent. Recorders of such
// goroutines are flushed when full and when the program ends.
package runtime
