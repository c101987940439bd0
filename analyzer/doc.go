// Package analyzer defines an Analyzer that finds the trace change points
// of a Go program.
//
// # Analyzer divergo
//
// divergo: report trace change points and their convergence points
//
// A trace change point (TCP) is a statement whose outcome can differ between
// two runs of the same program on the same input, because it depends on
// data that other goroutines or the environment can change: a branch, loop,
// switch or select deciding on shared data, a lock acquisition, an index
// computed from shared data, a range over a map, a go statement, the start
// of main.main, and nondeterministic inputs (the clock, random numbers).
// Each TCP has a convergence point (CP): its immediate post-dominator, the
// first statement every run reaches again (Eckert and Nutt).
//
// Shared data comes from package-level variables (except those only the
// package's initialization writes), variables captured by closures that may
// run as goroutines or escape (except those no one writes once the closure
// is made, and what they hold when that is not written either), memory
// reached through pointers not provably local to the goroutine, channel
// receives, select, map iteration, sync/atomic and sync.Map loads,
// nondeterministic inputs (the clock, math/rand but a generator of the
// function's own, seeded by its arguments), and the results of calls that
// return shared data (through function facts across packages, and
// conservatively for dynamic calls). The program's input is not shared: the
// command line and the flags parsed from it, the environment,
// runtime.NumCPU and GOMAXPROCS. Dependence propagates through SSA
// def-use, through phis whose choice of predecessor is control dependent on
// a shared branch (control dependence from post-dominators of the SSA CFG),
// through stores into local memory (per allocation, and per field of a local
// struct), between a function and the closures it only calls or defers, into
// callees through parameters (an unexported function, or any function of
// package main, keeps clean parameters when every static call site passes
// clean data and it is never used as a value; a go or defer statement is
// such a call site, also for a literal whose captured variables are shared,
// and a go or defer statement that shared data lets run a varying number of
// times passes shared data, since goroutines and deferred calls are met by
// count) and out through results. A pointer parameter that does not escape
// its function stands for the caller's memory: callers passing local memory
// keep it local, see what the callee stores through it, and get results that
// depend on it only as shared as what they passed. Function facts
// ([funcFact]) carry, for each result, whether it is shared and which
// parameters and parameter memory flow into it, which pointer parameters
// stay local, and what is stored through them.
//
// Each diagnostic reads
//
//	trace change point (KIND): WHY; converges at FILE:LINE
//
// or "converges at return"; FILE is relative to the module root.
//
// # SSA in debug mode
//
// The analyzer builds its own SSA (a small pass modeled on buildssa) with
// ssa.GlobalDebug, and requires it instead of buildssa. Debug mode records
// for every source expression the SSA value it computes (DebugRef), so each
// branch statement of the source, which is what the statement-level TBB
// graph of internal/flow is made of and what the instrumenter can probe, is
// joined exactly to the SSA value that decides it. buildssa builds without
// debug information, and matching AST to SSA by position instead is not
// sound: && and ||, range and select have no SSA value of their own, and
// several values share a position. The analyzer indexes the DebugRefs of a
// package once, so that each lookup is constant time.
//
// # Result
//
// The result is a [*Result] with the TBB graph ([flow.Func]) of every
// function; [Graph] joins the results of several packages into one
// [tbb.Graph] with global block ids.
//
// A function with no TCP that calls nothing that records is silent
// ([flow.Func.Silence]): it records nothing, and its calls are leaves for
// its callers.
//
// Known sources of unsoundness are listed in docs/SOUNDNESS.md.
package analyzer
