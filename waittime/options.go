package waittime

import (
	"fmt"

	"github.com/divergo/divergo/internal/gotrace"
	"github.com/google/pprof/profile"
)

// Options tune the analysis. The zero value means the defaults.
type Options struct {
	// Tolerance is the share of the waiting time that redundant step
	// removal must keep explained: steps are removed only while the rest
	// stays within (1 - Tolerance) × the waiting time of the difference
	// of the two paths. Default 0.95, the paper's.
	Tolerance float64
	// Threshold is the relative distance below which a characterization
	// joins an equivalence class of its sync site. Default 0.5 (see the
	// package documentation for why).
	Threshold float64
	// Slack is how long after a wait's end (ns) a release-side event may
	// be timestamped and still be taken as its releaser when none was
	// timestamped before. Default 50µs; negative means 0.
	Slack int64
	// KeepWaits keeps every wait in [Site.Instances]. Off by default: a
	// long trace has millions.
	KeepWaits bool
	// Blocks keeps one step per block: by default the blocks of one line
	// (a loop header and its post statement, a case and its body) in the
	// same goroutine and state are one step, since a report that names
	// lines cannot tell them apart.
	Blocks bool
	// GoTrace is Go's execution trace of the same run (recorded with
	// DIVERGO_RUNTIME_TRACE), nil for none: the waits without a releaser
	// in the divergo trace then name who woke them (Site.WokenBy).
	GoTrace *gotrace.Trace
	// CPUProfile is Go's CPU profile of the same run (the runtime writes
	// it beside the trace, trace.CPUProfileBeside), nil for none: a
	// block's running time is then split over the lines its samples were
	// taken at, instead of all at its first line (lines.go).
	CPUProfile *profile.Profile
	// SourceRoot is the directory the graph's file paths are relative to
	// (the program's module), "" for none: with it a wait or a sample in a
	// deferred call is at the defer statement's line rather than at the
	// function's closing brace (deferline.go).
	SourceRoot string
	// OnRunning, when not nil, is told every running time the analysis
	// gives a block of a goroutine (summed per block between two go
	// statements of one stretch between timestamps): the times
	// replay.Stretch spreads, which the Perfetto export draws too. The
	// end-to-end test that the two agree reads them here.
	OnRunning func(gid uint64, block int, ns int64)
}

// Defaults.
const (
	DefaultTolerance = 0.95
	DefaultThreshold = 0.5
	DefaultSlack     = 50_000
)

func (o Options) withDefaults() (Options, error) {
	if o.Tolerance == 0 {
		o.Tolerance = DefaultTolerance
	}
	if o.Threshold == 0 {
		o.Threshold = DefaultThreshold
	}
	switch {
	case o.Slack == 0:
		o.Slack = DefaultSlack
	case o.Slack < 0:
		o.Slack = 0
	}
	if !(o.Tolerance > 0 && o.Tolerance <= 1) {
		return o, fmt.Errorf("tolerance %g is not in (0, 1]", o.Tolerance)
	}
	if !(o.Threshold > 0 && o.Threshold <= 2) {
		return o, fmt.Errorf("threshold %g is not in (0, 2]", o.Threshold)
	}
	return o, nil
}
