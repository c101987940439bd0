// Package tbb defines the TCP basic block (TBB) graph: the program model that
// every part of divergo shares.
//
// The analyzer builds it, the instrumenter places one probe per probed block,
// the runtime embeds it (with its hash) in every trace, and compare and
// waittime walk it to interpret the recorded block ids.
//
// # Blocks
//
// A [Block] is a node of a statement-level control-flow graph of one function
// (Eckert & Nutt §6.1): it holds at most one trace change point ([TCP]), it
// begins at a convergence point or a branch target and ends at a TCP, a branch,
// or just before a convergence point. Blocks with Probe set carry a
// source-level probe; the others (loop heads, post statements, the evaluation
// of a further case expression, and blocks whose probe the analysis left out
// because readers can put them back) are implied: the path between
// two probed blocks of the same function passes through implied blocks only,
// and it is unique, so readers reconstruct implied blocks from the graph.
//
// Block ids are global to a [Graph], dense from 0, and stable for the same
// source: they are assigned in order of package path, file and position.
//
// # Format
//
// A graph serializes to JSON (see docs/TBB.md). [Marshal] fills in
// [Graph.Hash], the SHA-256 of the encoding with an empty hash, so that two
// traces can be checked to come from the same program without comparing whole
// graphs. [Unmarshal] checks the version, the hash and every reference.
package tbb
