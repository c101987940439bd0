// Package instrument rewrites the main module's packages into side copies
// that record, per goroutine, every probed TCP basic block, function entry
// and exit, spawn, synchronization operation and TCP outcome, and writes a
// go build overlay that swaps the copies in. The user's files are only read.
//
// [Instrument] is the whole pipeline behind "divergo instrument": load the
// packages, run the analyzer, build the TBB graph (analyzer.Graph), turn
// each function's flow graph into a [Func] plan ([FromFlow]) and [Write]
// the copies, the glue files and .divergo/overlay.json.
//
// # Rewriting
//
// The rewriter edits the original bytes, as cmd/cover does: a buffer of
// sorted insertions and replacements that refuses overlaps, with every
// insertion on the line of the code it belongs to, so that one //line
// header keeps every position. Generated code calls the runtime
// (github.com/divergo/divergo/runtime, imported as _dvg) through the API
// of docs/ARCHITECTURE.md; every generated name starts with _dvg. The rules,
// and what is left out and why, are in docs/INSTRUMENT.md.
//
// # Plans
//
// The rewriter does not depend on internal/flow: a [Func] says where the
// entry and each probed block's probe go ([Mode]), which nodes each block
// holds (an operation's site is the id of the block that holds it), and
// where the index TCPs are. Tests write plans by hand.
package instrument
