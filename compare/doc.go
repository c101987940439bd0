// Package compare corresponds two executions of the same program and
// measures how far apart they are: Algorithm 1 of Eckert & Nutt, "Sequence
// comparison for parallel executions", with the distances of its §7.
//
// # Correspondence
//
// Goroutines of the two runs are matched by spawn path: the parent's match,
// the go statement's block and the ordinal of the spawn among the parent's
// spawns at that site: the k-th goroutine a go statement started in one run
// with its k-th in the other. A server that starts a handler per request,
// in one case of a select in a loop, pairs each handler with the other
// run's handler of the same request so, whichever order the select's cases
// came in. The parent's correspondence would not: it pairs loop iterations
// from the first (see below), and after a run took the other case once
// more, its iterations that start handlers start those of the next request.
// The spawn step of the correspondence compares the go statement and not
// the ordinal, for the same reason: once one run executed the statement
// more often, every later spawn would differ, where both runs did the same.
// Goroutines started by uninstrumented code (errgroup's
// Group.Go) have no go statement: they are matched by the first block they
// ran and their creator, then by the order in which the program evaluated
// the function literal each runs (its ordinal, when the literal was handed
// to the library as an argument: runtime/handoff.go), never by goroutine
// id, which Go hands out in batches per processor; others of one key in
// the order of their ids. Each matched pair is compared on its own (pairs run in
// parallel), streaming both goroutines' events once, front to back.
//
// A goroutine's events are turned into steps: the blocks it executed (the
// implied blocks that carry no probe are put back from the graph by
// internal/replay, as waittime and the Perfetto export do: the path between
// two probed blocks of a frame through implied blocks is unique), calls and
// returns, outcome events, spawns and sync operations. While the steps of
// both runs are equal the runs are equivalent (get_TCP). When the steps
// differ, the last block both executed in the current frame decided:
//
//   - a branch, loop, switch or select TCP, or the head of a range over a
//     map (whose length can differ): its outcome (the successor, and
//     anything evaluated on the way to it) differed. Each side is walked
//     independently to the instance of the TCP's convergence point in the
//     same frame, or to the frame's return for a CP at return (get_CP), and
//     the two walks form a divergent section.
//   - an index or map-range TCP whose outcome event differs: likewise, to
//     its convergence point.
//   - a once TCP (a sync.Once.Do): one goroutine ran the function and the
//     other did not, which shows as the function's frame on one side (when
//     it is instrumented) or as the outcome event (1 ran, 0 did not):
//     likewise, to its convergence point, the statement after the Do.
//   - a lock TCP whose acquisition ticket differs: a lock-order annotation,
//     not a section. The paper's Figure 1c corresponds the lock statements
//     of its two executions as equal (section 2); the order shows only in
//     the TCPs that depend on it.
//   - a block without a deciding TCP: the analyzer missed a TCP. The
//     section runs to the block's immediate post-dominator (computed here
//     from the graph, with a virtual exit) and is reported as unflagged.
//
// If one side meets the convergence point and the other leaves the frame,
// the first is walked to the frame's return too; if a stream ends first, the
// rest of both is one unresolved section. When the stream that ended
// recorded nothing after the common block and its goroutine never returned
// (main returned while it ran or waited), the section is cut off at exit:
// the process ended under it, no block chose, and it is never unflagged. Loops are corresponded iteration
// by iteration from the first, as the paper chooses (§8): extra iterations
// on one side form one section. A select, switch or if in a loop whose
// convergence point lies beyond the loop's next iteration (an endless for
// around a select, post-dominated only by its case that returns) ends its
// section where both sides are at it again, the next iteration, and not at
// that case: one other choice of a broker's loop made the rest of the
// program one section. A side back at it while the other is not goes on to
// the convergence point as before, and so does a walk that leaves the
// select's own natural loop (computed from the graph's dominators and back
// edges): a side that broke out and came round an outer loop is one outer
// iteration ahead, and meeting "again" there would part everything after
// (a real program's nonblocking sends in a counted loop). So does a walk
// that passes the head of a loop around it with a TCP of its own
// (for cond {...}): that head's decision is the next iteration's to
// compare. A loop head without a TCP inside the select's own loop does not
// end the rule (a server's for { select {...} } whose head is a block of
// its own).
//
// Goroutines are named in the report as the trace names them
// (trace.GoroutineInfo.Path, "main/worker@main.go:50#2"), as show and
// wait print them; a trace made without names, by the spawn path built
// here ("main > go main.go:50#2").
//
// # Lockstep
//
// While both sides are in the same state (the same call stack, each frame
// at the same block and with the same last outcome block, no step
// pending), equal events give equal steps, so the pair walks in lockstep:
// it compares the decoded events themselves (kind, block, outcome value,
// spawn site, sync operation; not times, objects, goroutine ids or spawn
// ordinals),
// replays side a only, and takes a block event that continues its frame
// from a cache, per pair of blocks, of the blocks, TCPs and instructions
// it adds up to. Clocks are stamped on each side with that side's count.
// At the first pair of events that differ, or at the end of a stream, b
// takes a's state and the steps take over from that event; lockstep
// resumes once the states are equal again (after a section converged).
// From trace files, lockstep compares the undecoded bytes of both streams
// where it can (trace.EventReader.Raw): a block event whose id is below
// 8192 is one or two bytes, an outcome its header and value, so equal
// bytes are equal events, taken without decoding them; clocks, sync
// events and differences are decoded, a few events at a time so that both
// sides come back to their bytes together. The report is the same to the
// last field either way.
//
// # Distances
//
// Per section and side: the blocks executed strictly between the TCP and
// the CP (calls included), the TCP instances executed (the diverging one
// included, as get_CP counts it), the deepest nondeterministic nesting of
// Algorithm 3 (the diverging TCP is level 1; a TCP nests until its CP is
// reached in its frame; a loop test seen again is the next iteration, not
// a deeper level; a TCP nests what follows its decision, not the calls its
// own block makes before it) and the time, from clock and sync timestamps
// interpolated by instruction counts. From them: fanout (1)
// f = l_a + l_b, TCP distance (2) |c_a − c_b|, TCP frequency distance (3)
// |c_a/n_a − c_b/n_b| with n the blocks of the section plus the diverging
// one, and the total (4) d = Σ (wd + f·wnd + tcp·wtr). A goroutine present
// in one run only adds wd + its TCP count·wtr.
//
// The paper's (3) asks for "the minimum frequency of TCP occurrence" without
// defining it further; this package reads it as TCP instances per block
// execution, which is 0 for a section without TCPs and 1 for one made of
// TCP blocks only.
//
// # Output
//
// [Traces] returns a [Report]: a summary, the sections (goroutine, TCP kind
// and position, "none" at an unflagged block, CP position or "return", each
// side's blocks, TCPs, depth and time, the three distances), the matched
// goroutines and those present in one run only, and lock-order notes.
// The report also groups the sections by the statement where the runs
// parted ([GroupSections]): a loop's worth of goroutines parting at one line
// is one group, with what each run did there in plain words (Side.Took:
// "took the else branch at line 31", "skipped the if body: went straight
// to line 40", "4 iterations", "index 3"; never the same words on both
// sides where the runs recorded different values), ranked by the instructions
// executed inside. [Report.WriteText] prints it for people: a summary, the
// groups (at most ten by default), then the paper's distance explained in a
// footer; every section with its measures only on request. Its JSON form is
// what "divergo diff -json" prints. [Compare]
// gives the pairwise matrix of several traces and the most representative.
//
// Memory is the graph and, per worker comparing pairs, two batches of
// events, the implied paths and lockstep's block pairs met so far, and the
// call stacks of the pair at hand: it does not grow with the trace, and a
// trace of many short goroutines does not pay for the caches per goroutine.
package compare
