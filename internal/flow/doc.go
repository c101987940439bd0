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
// # TCPs and CPs
//
// The block that ends with a compound statement's decision holds that
// statement's branch TCP ([Oracle.Branch]): the block with the condition of
// an if, the for.loop or range.loop head, the block that evaluates a
// switch's tag and first clause, the block that ends with a select.
//
// A simple statement with point TCPs ([Oracle.Point]: lock, index, spawn,
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
