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
// The file opens when package main's variables are initialized
// ([Program]), so that a program that ends in an init leaves one too. It
// is complete (index written) when main.main returns, when the
// program calls [OsExit], and when a goroutine started through [G.Spawn] or
// main.main panics without recovering. After any other death (a signal,
// SIGKILL, a fatal runtime error, an os.Exit in code that is not
// instrumented), every chunk written before is whole and readable. On
// Linux nothing else is lost either: every buffer lives in an arena file
// beside the trace, mapped shared, which the kernel keeps, and reading the
// trace completes it from there ([RecoverTrace], arena_linux.go): every
// goroutine that ran, each with what it recorded up to within an event of
// the death. Elsewhere, buffers not yet written are lost, including full
// ones still queued for the writer (at most 1 MiB of them).
//
// A goroutine still blocked in a sync operation when its buffer is written
// for the last time ends its stream with that wait, marked blocked: the
// wait is in the goroutine's slot of the arena too. Without an arena, a
// checkpoint written when every goroutine has blocked stands for the
// buffers Go's deadlock report will not let the runtime write (blocked.go,
// docs/BLOCKED.md).
//
// # What the program can observe
//
// The recorder is built so that a recorded program behaves as its plain
// build does wherever the program can look:
//
//   - Goroutines: the recorder's own (the writer, the checkpointer) are
//     hidden as the Go runtime hides its collector's workers (hidden.go):
//     runtime.NumGoroutine, runtime.Stack(buf, true), the goroutine profile
//     and crash tracebacks list the program's goroutines only, so leak
//     checks (goleak, counts before and after) pass recorded as plain.
//   - Signals: none is caught. A program that does not handle SIGINT or
//     SIGTERM dies of it, and one that calls signal.Notify gets exactly
//     what it asked for. Catching them would complete the trace, but a Go
//     program that catches a signal is never reported deadlocked: it
//     would hang where the plain program dies with "all goroutines are
//     asleep - deadlock!" and exit status 2.
//   - Deadlocks: reported by Go as in the plain build, the checkpoint on
//     disk before (at most about 10 ms after the last goroutine blocked).
//
// What it can observe: time (every probe, sync wrapper and chunk costs
// some; PERFORMANCE.md), memory (buffers of up to 128 KiB per goroutine,
// outside the Go heap), two files open (the trace, its arena) and, in the
// environment, DIVERGO_TRACE_OWNER (child.go). With
// DIVERGO_RUNTIME_TRACE, Go's execution tracer runs with its own goroutine,
// which the program sees. Goroutine ids are not the plain build's: the
// recorder's goroutines take ids too, so one that prints its goroutines'
// ids (in a stack trace) sees other numbers.

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
