// Package waittime explains why goroutines waited: Meira's waiting-time
// analysis ("Characterizing waiting time", "Expanding waiting time",
// "Removing redundant steps", "Merging equivalent paths") applied to the sync
// points of a divergo trace.
//
// # Steps and paths
//
// A step is a (goroutine, TBB, state) triple with a cumulative, signed
// duration; the states are running, runnable (scheduler latency) and blocked
// by kind (mutex, chan, select, wg, cond, once, sleep). A path is a set of
// steps. For every wait (an [trace.EvSync] event with Waited set) the analysis
// finds the releasing goroutine and its releasing event, then the waiter's
// path and the releaser's path since their last common synchronization. The
// characterization of the wait is the releaser's path minus the waiter's path:
// the blocks whose difference in execution time made one goroutine wait for
// the other.
//
// The last common synchronization of two goroutines is the last wait of one
// of them that the other released, or the go statement when one started the
// other, or else the start of each. Only direct synchronizations count, as in
// the paper's expansion example, where the path of process 0 still holds A1
// after it released process 1. Two goroutines that never synchronized
// directly are compared from the go statements of their lowest common
// ancestor: each side gets the paths of its ancestors below that one, each
// up to the go statement that started the next one down, and the side
// started later gets the ancestor's path between the two go statements. A
// finished goroutine is kept while it has children still around, for this.
//
// Two goroutines with no common ancestor (one was started by code that is
// not instrumented: time.AfterFunc, a net/http connection) have one common
// point only, the start of the one started later. Its path counts from its
// start; the other's path since then cannot be told apart from its path
// before, so its time since that start enters as one step in state outside,
// which names no line. The waiter's with the opposite sign; positive when
// it was already waiting before the releaser existed. A lock is the
// exception: its releaser's path since it acquired the lock is known (the
// lines it ran holding it), so an RLock in a handler net/http started is
// explained by the writer's critical section, with the writer's time
// between the waiter's start and the acquisition outside, negative when
// it acquired first.
//
// The waiter's snapshot at a wait stands for the moment of the release, as
// the releaser's does: it is taken before the wake-up latency enters the
// waiter's path. So the two paths since their last common synchronization
// start at one instant, and each wait's characterization adds up to its
// waiting time: the releaser's time from that instant to the release, plus
// the latency, minus the waiter's time from that instant to the start of
// its wait.
//
// The scheduler's share of waiting is a runnable step: from a go statement
// to the start of the goroutine it started (at the go statement's line), and
// from a release to the end of the wait it ended (at the wait's line, on the
// releaser's side of the characterization, since the waiter could not run
// until then).
//
// # Durations
//
// The runtime timestamps only sync events, goroutine start and end, and
// sparse clock events: a timestamp per block would cost a hundred times the
// probe itself. Between two timestamps of a goroutine the elapsed time is
// distributed over the blocks it executed in that interval in proportion to
// their instruction counts ([tbb.Block.Instrs], at least 1 per block), so a
// block executed twice as often or twice as long in instructions gets twice
// the time. The blocks executed include the implied ones, which have no
// probe: they are put back between the recorded blocks as compare puts them
// back (internal/replay), so a loop whose head and post are implied still
// has its time on them, and steps and explanations name them. A wait ends
// the running interval at its Begin; the time from Begin to End is the
// waiting time. The rule, with what an interval in which no block began
// gives its time to, is stated once in docs/FORMAT.md ("Durations") and
// implemented once, replay.Stretch, which the Perfetto export uses too: its
// frames hold the time waittime gives their blocks, to the nanosecond. The
// time is spread when the interval's first timestamp is applied in the
// merge, not its last: a go statement inside it takes its snapshot of the
// parent's path there, before the child can start, wait and be released.
//
// A running step is a block's time, named by the block's first line. With
// Go's CPU samples of the run ([Options.CPUProfile], which the runtime
// records beside the trace) a report splits each block's time over the
// lines its samples were taken at: two heavy library calls on the second
// and third lines of a block are two steps at their own lines, not one at
// the first (lines.go). Paths and classes stay per block.
//
// With Go's execution trace of the run ([Options.GoTrace]) a goroutine's
// blocks inside code that is not instrumented, at a call of the program
// (errgroup's Wait, io.Pipe, http.Get), are waits of a site at the call
// ([Site.Library]), with the waker the tracer names; in the paths their
// time is taken out of the stretch's blocks and is a step at the call in
// state library, or sleep in library (libwaits.go).
//
// Under DIVERGO_PERTURB the runtime records each of its delays as a perturb
// event (docs/FORMAT.md, "Perturbation"); the delay enters the goroutine's
// path as a step of state perturb, never as a block's time, and is taken
// out of both sides of every wait before they are compared: the releaser's
// delays since the last common synchronization made the wait longer, the
// waiter's shorter, and that net share ([Class.PerturbNs]) is divergo's,
// not the program's. What is explained is the rest; no step is ever
// divergo's. The report says once, in its header, that the run was
// perturbed, with the seed and how much of the waiting was divergo's.
//
// # Expansion
//
// Events of all goroutines are processed merged by time (replay.Timeline,
// the order every reader uses, docs/FORMAT.md, "Reading order"), so when a
// wait ends, every wait on the paths being
// compared has ended before and has its characterization. Instead of a waiting
// step, the waiter's path receives that characterization (the releaser's steps
// added, the waiter's own steps subtracted), so characterizations are in terms
// of computation only. Each goroutine keeps one cumulative path and a snapshot
// of it per partner at their last common synchronization; the path since that
// synchronization is the difference. Steps of finished goroutines that have
// not changed since the oldest snapshot a goroutine holds are dropped from
// its path (they are in no difference), so memory is bounded by live
// goroutines × path size, not by the length of the trace. A path holds a
// step per goroutine whose work reached it, so past the first 32
// goroutines of one go statement their steps share one key, the go
// statement's (groups.go): paths are then bounded by the program's go
// statements and blocks, and memory and time grow linearly with the
// goroutines rather than with their square. Because waits are expanded in time
// order, a circular wait cannot be looped on: its waits never end, and waits
// that had not ended when the trace stopped are reported as unfinished.
//
// # Redundant steps and classes
//
// Before a characterization is reported, steps that are equivalent (same TBB
// and state, any goroutine) on both paths are removed greedily, in order of
// increasing difference in duration, and stopping at the first that would
// move the difference of the two paths by more than (1 - [Options.Tolerance])
// × the waiting time in total: with the default 0.95 (the paper's), what is
// left still accounts for the waiting time within 5%. Expansion uses the
// full characterizations; only the reported ones are reduced.
//
// The characterizations of one sync site (block and operation) fall into
// equivalence classes. The relative distance between a class representative R
// and a path P is the sum over steps of |R(s)/|R| - P(s)/|P||, where |X| is the
// sum of absolute durations and steps are compared by TBB and state. The seed
// sums over the steps both paths share only; then two paths with nothing in
// common would be at distance 0, so steps present on one side only count with
// a relative duration of 0 on the other. The distance lies in [0, 2] and is
// twice the fraction of time spent differently. The default threshold 0.5
// merges paths that agree on where at least 75% of their time went: a class
// still names one cause, while jitter of a few percent in every block (the
// paper's "small variations in the computation time of the loops") does not
// split it.
//
// # Output
//
// [Analyze] returns a [Report]: sites ranked by total waiting time, their
// classes and each class's steps, summed per TBB and state over the
// goroutines that ran them, as signed durations (+ on the releasers' paths,
// - on the waiters'). Steps of one line, goroutine (or group) and state are
// one row, unless [Options.Blocks]. A class's steps and its UnexplainedNs
// add up to its waiting time; its Explained share, 1 - Σ|w - s| / Σw over
// its waits (w a wait's waiting time, s the sum of its steps), clamped at
// 0, lies in [0, 1]: at least the tolerance when every wait adds up as
// expansion makes it (under DIVERGO_PERTURB, with the class's PerturbNs
// besides, and a share of the program's waiting only). [Report.WriteText] prints it for people,
// encoding/json gives the JSON form, [Report.WriteProfile] a pprof profile
// of the explaining lines whose values, signed, add up to the report's
// waiting time (each step, each class's unexplained time, the waits
// without a releaser). [Diff] puts two runs of the same program side by
// side: sites correspond by block and operation, classes by the same
// relative distance, and each class is marked appeared, vanished, changed or
// same.
//
// # Releasers
//
// A wait's releaser is the operation [replay.Releasers] names, by the rule of its
// kind (docs/FORMAT.md, "Sync events and releasers"): the send whose value a
// receive got, FIFO; the receive that freed a blocked sender; the close;
// the unlock of the acquisition before a lock's ticket; the latest wg.done
// before a wg.wait's end; the Signal of a Cond, FIFO, or a Broadcast; the
// Once that ran the function. The pairing is a merge of its own over the
// sync events, by the time each operation was attempted, run a little
// ahead of the analysis's merge (replay.PairAhead), so waittime, the Perfetto
// export and the tests against Go's execution tracer name the same
// releasers, and memory stays bounded by what is in flight. During the
// analysis a channel or Cond release keeps a snapshot of its goroutine's
// path only when it ended some wait, until that wait is explained; a
// mutex, WaitGroup or Once keeps its last few releases, since their waits
// are named by the latest release before their end. A release is stamped before it releases,
// so it is met before the wait it ended; should it come later in the
// merge (clocks, a select that took longer than 2 µs), the wait is put off
// until the release is in, by at most [Options.Slack].
//
// A wait without a releaser is counted at its site as unmatched, with the
// reason ([Site.Why]: a timer's channel or code that is not instrumented, a
// select whose chosen case's channel was not recorded, ...), and enters the
// waiter's path as a blocked step. A sleep waits for no goroutine: it is a
// step of its own (state sleep), never a site.
package waittime
