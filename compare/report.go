package compare

import "github.com/divergo/divergo/internal/steps"

// Weights are the weights of the total distance (4): d = Σ (D + f·ND + tcp·TR)
// over the divergent sections.
type Weights struct {
	D  float64 `json:"wd"`  // per divergent section
	ND float64 `json:"wnd"` // nondeterministic complexity: times the fanout (1)
	TR float64 `json:"wtr"` // trace complexity: times the TCP distance (2)
}

// DefaultWeights are the paper's: all 1.
var DefaultWeights = Weights{D: 1, ND: 1, TR: 1}

// Options configure [Traces].
type Options struct {
	// Weights of the distance; the zero value means [DefaultWeights].
	Weights Weights
	// Parallel bounds how many goroutine pairs are compared at once; 0
	// means GOMAXPROCS.
	Parallel int
	// Observe, when set, is called with every step of the correspondence,
	// from the goroutine that compares the pair (calls for different pairs
	// may run concurrently). It exists for tests and for tools that draw the
	// correspondence; the report does not need it.
	Observe func(Step)
	// tokensOnly turns lockstep off, for tests that check it changes
	// nothing.
	tokensOnly bool
}

// Report is the result of comparing two traces.
type Report struct {
	Summary    Summary     `json:"summary"`
	Distance   float64     `json:"distance"`
	Sections   []Section   `json:"sections"`
	Goroutines Goroutines  `json:"goroutines"`
	LockOrder  []LockOrder `json:"lock_order"`
	// Groups are the sections grouped by the statement where the runs
	// parted, ranked by the work inside them ([GroupSections]).
	Groups []Group `json:"groups"`
	// Inputs is how the runs' inputs differed, nil when they did not or
	// a trace does not say ([InputDiff]).
	Inputs *InputDiff `json:"inputs,omitempty"`
	// Endings is how each run ended; nil when the caller did not say
	// (the command sets it from the traces).
	Endings *Endings `json:"endings,omitempty"`
}

// Summary is the report in a few numbers.
type Summary struct {
	Same      bool    `json:"same"` // no divergent section, every goroutine matched
	Distance  float64 `json:"distance"`
	Sections  int     `json:"sections"`
	Unflagged int     `json:"unflagged"` // sections at blocks the analyzer did not mark
	// CutOff counts sections where a goroutine of one run stopped because
	// the program exited (see [Section.CutOff]); never counted as unflagged.
	CutOff  int   `json:"cut_off"`
	Matched int   `json:"matched"`
	OnlyA   int   `json:"only_a"`
	OnlyB   int   `json:"only_b"`
	BlocksA int64 `json:"blocks_a"` // block executions, probed and implied, in matched goroutines
	BlocksB int64 `json:"blocks_b"`
	// LockOrder counts lock acquisitions whose order differed. They are
	// annotations, not divergent sections: the paper corresponds the lock
	// statements of Figure 1c as equal (section 2).
	LockOrder int64 `json:"lock_order"`
	// Anomalies counts events the graph could not explain (an exit of no
	// open frame, a block no implied path reaches); each side handles them
	// alike, but a non-zero count means the graph and the trace disagree.
	Anomalies int64   `json:"anomalies"`
	Graph     string  `json:"graph"` // the program's graph hash
	Weights   Weights `json:"weights"`
}

// Section is one period of divergence: from a TCP instance whose outcome
// differed to the instance of its convergence point in the same frame.
type Section struct {
	Goroutine  uint64 `json:"goroutine"`   // id in trace A
	GoroutineB uint64 `json:"goroutine_b"` // id in trace B
	Spawn      string `json:"spawn"`       // spawn path of the goroutine
	TCP        Point  `json:"tcp"`
	CP         Point  `json:"cp"`
	A          Side   `json:"a"`
	B          Side   `json:"b"`
	// Fanout (1): the deepest nondeterministic nesting reached on each
	// side, added (weights 1).
	Fanout int `json:"fanout"`
	// TCPDistance (2): |TCPs executed in A − in B|.
	TCPDistance int64 `json:"tcp_distance"`
	// TCPFreqDistance (3): |fA − fB| where f is TCP instances per block
	// execution in the section (the diverging block counted on both sides).
	TCPFreqDistance float64 `json:"tcp_freq_distance"`
	// Unflagged: the streams parted at a block without a deciding TCP (a
	// hole in the analyzer); the section runs to the block's post-dominator.
	Unflagged bool `json:"unflagged"`
	// CutOff: one run's goroutine recorded nothing after the common block
	// and never returned: main returned while it was running or blocked.
	// The section never converged (or is the whole goroutine) because the
	// process ended, not because a block chose another successor, so it is
	// never Unflagged, whatever the block.
	CutOff bool `json:"cut_off,omitempty"`
	// Unresolved: a stream ended before the convergence point; the section
	// runs to the end of both streams.
	Unresolved bool `json:"unresolved,omitempty"`
	// Distance is this section's term of (4).
	Distance float64 `json:"distance"`
	// StepsA and StepsB place the section in the goroutine's stream in
	// each run, by step as internal/steps counts them: from the first step
	// after the change point to the convergence point's, which is not in
	// the section. A drawer replaying the stream finds the section there
	// without comparing anything ([Report.Marks]).
	StepsA steps.Span `json:"steps_a"`
	StepsB steps.Span `json:"steps_b"`
}

// Point is a place in the program: a TCP or a convergence point.
type Point struct {
	Kind  string `json:"kind"`  // TCP kind, "none" at an unflagged block, "" for a CP
	Pos   string `json:"pos"`   // path/file.go:LINE, "return" for a function's return, "-" if unknown
	Block int    `json:"block"` // block id, -1 for return
	Func  string `json:"func,omitempty"`
}

// Side measures one side of a section.
type Side struct {
	Blocks int64 `json:"blocks"` // block executions strictly between the TCP and the CP, calls included
	TCPs   int64 `json:"tcps"`   // TCP instances executed, the diverging one included
	Depth  int   `json:"depth"`  // deepest nondeterministic nesting (Algorithm 3)
	Instrs int64 `json:"instrs"` // SSA instructions of those blocks (the graph's estimate)
	// TimeNS is the section's duration from clock and sync timestamps,
	// interpolated between them by instruction counts at the rate of the
	// last interval; 0 without timestamps.
	TimeNS int64 `json:"time_ns"`
	// StartNS is when the section began on this side, in nanoseconds from
	// the start of the trace (0 without timestamps): interpolated by
	// instruction counts between the goroutine's timestamps around it, so
	// within the goroutine's recorded span.
	StartNS int64 `json:"start_ns"`
	// StartSpanNS is how far apart those timestamps are: 0 when the start
	// is a timestamp, -1 when none followed it (the goroutine was cut off:
	// StartNS is then the last before it, a lower bound).
	StartSpanNS int64 `json:"start_span_ns,omitempty"`
	// Took says in plain words what this side did at the change point:
	// "took the else branch at line 31", "4 iterations", "index 3", "4
	// iterations, its 2nd key 17" (the first value in which the two
	// sides differ, as recorded: docs/SOUNDNESS.md, "Identities"); at a
	// block without one, where it went or, when it stayed in the block,
	// what it did there instead ("called example.com/m.f").
	Took string `json:"took"`
}

// Goroutines reports how the goroutines of the two runs were matched.
type Goroutines struct {
	Matched []Pair `json:"matched"`
	OnlyA   []Lone `json:"only_a"`
	OnlyB   []Lone `json:"only_b"`
}

// Pair is a goroutine present in both runs.
type Pair struct {
	A        uint64 `json:"a"`
	B        uint64 `json:"b"`
	Spawn    string `json:"spawn"`
	BlocksA  int64  `json:"blocks_a"`
	BlocksB  int64  `json:"blocks_b"`
	Sections int    `json:"sections"`
}

// Lone is a goroutine present in one run only.
type Lone struct {
	ID     uint64 `json:"id"`
	Spawn  string `json:"spawn"`
	Blocks int64  `json:"blocks"`
	TCPs   int64  `json:"tcps"`
}

// LockOrder notes that a lock TCP acquired in a different order.
type LockOrder struct {
	Goroutine uint64 `json:"goroutine"`
	TCP       Point  `json:"tcp"`
	Count     int64  `json:"count"` // instances whose ticket differed
}

// StepKind says which side a step of the correspondence belongs to.
type StepKind uint8

// Steps of the correspondence.
const (
	StepSame      StepKind = iota + 1 // a token equal on both sides
	StepA                             // a token of side A inside a divergent section
	StepB                             // a token of side B inside a divergent section
	StepLockOrder                     // an outcome of a lock TCP differed (taken as equal)
	StepSection                       // a divergent section ended; Section is its index
)

// Step is one step of the correspondence, for [Options.Observe].
type Step struct {
	Goroutine uint64 // id in trace A
	Kind      StepKind
	Token     string // "block", "call", "exit", "outcome", "spawn", "sync"
	Block     int    // block id, -1 when the token has none
	Section   *Section
}
