// Package flow builds the TCP basic block graph of one function body: a
// statement-level control-flow graph whose blocks the instrumenter can
// probe, partitioned so that each block holds at most one trace change point
// (Eckert & Nutt §6.1), with each TCP's convergence point.
//
// The analyzer decides which statements are TCPs (an [Oracle]); [Build]
// makes the blocks, the probe points and the CPs.
//
// # Probed and implied blocks
//
// A probed block has a place where one statement can be inserted so that it
// runs exactly once each time the block begins ([Probe]):
//
//   - the entry: Open, just after the body's '{';
//   - the then, else and loop bodies: Open, just after their '{';
//   - switch, type switch and select clauses: Open, just after the clause's
//     ':' (a fallthrough into a clause passes its probe too, and stays the
//     last statement of the clause before);
//   - the block after a compound statement ("if.done", "for.done", ...):
//     After the statement's End, and only when that block is reachable, so
//     that nothing is ever inserted after a terminating statement;
//   - a "split" block after a statement with point TCPs: Before the next
//     statement of the same list;
//   - a label on a statement other than for, range, switch and select: Before
//     the labeled statement, which gives `L: probe(); stmt`. Only goto can
//     target such a label, and goto lands on the probe. Insert after the
//     label, never before it: a probe before the label is skipped by goto.
//
// Implied blocks have no probe: loop heads ("for.loop", "range.loop"), post
// statements ("for.post"), the tests of further case clauses
// ("switch.next"), labels of for, range, switch and select statements (the
// label must stay on its statement), and the else block of an else-if chain
// (`else probe(); if` is not Go; that block only evaluates the inner if's
// init and condition). Every successor of an implied block that branches is
// probed, so the path between two consecutive probed blocks of one execution
// through implied blocks is unique, and so is the path from a probed block
// to the function's exit: a reader of a trace reconstructs implied blocks
// exactly. [Check] verifies this on a built graph; the tests run it on every
// function of several std packages.
//
// All expressions of one case clause are tested in one block, so each clause
// body is reached by one path; && and || are part of one decision.
//
// # Fewer probes
//
// A probe costs little (one store and an increment), but a tight loop runs
// several per iteration: a Collatz step runs its body, one arm of an if and
// the if.done block. Most of them are not needed: a reader needs a probe
// only where the graph leaves it a choice. So [Build] ends by turning
// probed blocks into implied ones, greedily: blocks of innermost loops
// first (they run most), and among blocks of the same loop depth the ones
// a static estimate runs most (a block shares its frequency evenly among
// its successors, a loop head multiplies what enters it by 8). The Collatz
// loop keeps the probes of its two arms only: one probe per iteration.
//
// A block stays implied only while the readers lose nothing:
//
//   - Check's rules hold: the entry is probed, no cycle runs through implied
//     blocks only, and from each probed block there is at most one path
//     through implied blocks to each probed block and to the exit. Only
//     paths through the new implied block change, so this is checked
//     locally: from every probed block that reaches it through implied
//     blocks, the walk through implied blocks must meet no block twice.
//   - The block is quiet: it evaluates no call (other than builtins such as
//     len and append and conversions to predeclared types), no channel
//     operation, go, defer or select, so nothing is recorded while it runs.
//     Calls record their callee's entry and exit in the caller's stream,
//     and a reader must know which block made them.
//   - Every block is put back where it was, relative to the other events
//     of the stream. Readers put an implied block back eagerly, right after
//     its predecessor, when that predecessor has it as its only successor
//     and cannot exit (compare does, so that a loop condition's calls
//     belong to the loop head); otherwise lazily, just before the next
//     probed block or the exit. So an eager edge into the block must come
//     from a quiet block that is itself probed or put back eagerly from
//     quiet blocks; and when some edge is lazy, the blocks that follow it
//     through single successors (which were put back eagerly after its
//     probe) must be quiet too, and, in a function that defers calls, must
//     not exit: the deferred calls record after the last block. Under these
//     rules a reader gives the same sequence of blocks and events, with or
//     without the probes taken away.
//
// Some blocks keep their probe whatever the graph:
//
//   - the entry: the runtime's Enter records it, and a reader begins a frame
//     there;
//   - blocks with a point TCP (lock, once, index, spawn, input): each records
//     something inside the block (an outcome, a spawn, a sync operation, the
//     call that reads the input), and a reader attaches an outcome event to
//     the last block it has seen with an outcome TCP, so that block must be
//     in the stream before the event;
//   - the body of a range over a map: the key's outcome is recorded just
//     after the body's probe and belongs to the implied range.loop head,
//     which the body's probe makes the reader put back first.
//
// Functions of more than 4000 blocks keep every probe: each candidate costs
// a walk of the implied region around it. A frame cut short (a goroutine
// still running when the trace ends, a recovered panic) loses the implied
// blocks after its last probe, as before, and now there can be more of
// them; both runs of a comparison lose them alike.
//
// # TCPs and CPs
//
// The block that ends with a compound statement's decision holds that
// statement's branch TCP ([Oracle.Branch]): the block with the condition of
// an if, the for.loop or range.loop head, the block that evaluates a
// switch's tag and first clause, the block that ends with a select.
//
// A simple statement with point TCPs ([Oracle.Point]: lock, once, index, spawn,
// input) that is followed by another statement of its list ends its block,
// and the next block, a probed "split", is its CP. When no statement follows
// in the same list (the last statement of a body, an index in an if's init,
// a for's post statement) the TCPs join the block's: the first TCP of a
// block is Block.TCP (the branch TCP if there is one), the others are
// Block.Also, and all converge at the block's CP.
//
// The CP of a block's TCPs is the block's immediate post-dominator on the
// graph with a virtual exit ([PostDominators]); nil means function return.
// A CP may be an implied block (a loop head, say): readers reconstruct it
// like any implied block. Loops that cannot reach the exit (`for { select
// ... }` servers) get a virtual edge from their head to the exit, outermost
// loop first, so a TCP inside the loop converges inside it, at its head at
// the latest; a TCP that chooses between two endless loops converges at
// return. A select without cases ends its block with no successor; it is
// treated like an exit.
//
// # Limits
//
//   - Without a mayReturn, only panic is taken as never returning; os.Exit
//     and friends then look like ordinary calls (still correct, just less
//     precise CPs). Only calls that are whole expression statements are
//     asked.
//   - Panics elsewhere (nil dereference, index out of range) and recovered
//     panics are not edges of the graph.
//   - All select communications are evaluated in the block that ends with
//     the select, including the left-hand side of a receive assignment.
//   - Statements in dead code are dropped with their blocks; a dead block is
//     never probed.
package flow
