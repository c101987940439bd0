package compare

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/divergo/divergo/internal/trace"
)

// inputsTrace is a [Trace] that knows what its program ran on: the trace
// file reader, when its header recorded it.
type inputsTrace interface {
	Inputs() (trace.Inputs, bool)
}

// InputDiff is how the inputs of two runs differed. The analyzer takes the
// command line, the environment, GOMAXPROCS and NumCPU to be the same in
// both runs (docs/SOUNDNESS.md), so a divergence after different inputs may
// come from them rather than from the schedule: the report says so first.
type InputDiff struct {
	// Args are both runs' command lines (after the program's name), set
	// when they differ.
	ArgsA []string `json:"args_a,omitempty"`
	ArgsB []string `json:"args_b,omitempty"`
	// GOMAXPROCS and NumCPU of run A and run B, set when they differ.
	GOMAXPROCS []int `json:"gomaxprocs,omitempty"`
	NumCPU     []int `json:"numcpu,omitempty"`
	// Env names the environment variables with different values or set in
	// one run only, sorted.
	Env []string `json:"env,omitempty"`
	// EnvUncompared says why the runs' values could not be compared
	// (hashed under different users' keys, or not recorded): Env then
	// names the variables set in one run only. "" when they were.
	EnvUncompared string `json:"env_uncompared,omitempty"`
}

// DiffInputs compares what a and b recorded of their inputs; nil when
// they were the same, or when a trace does not say.
func DiffInputs(a, b Trace) *InputDiff {
	ta, ok := a.(inputsTrace)
	if !ok {
		return nil
	}
	tb, ok := b.(inputsTrace)
	if !ok {
		return nil
	}
	ia, oka := ta.Inputs()
	ib, okb := tb.Inputs()
	if !oka || !okb {
		return nil
	}
	return InputsDiffer(ia, ib)
}

// InputsDiffer compares two runs' inputs; nil when they are the same.
func InputsDiffer(a, b trace.Inputs) *InputDiff {
	d := &InputDiff{}
	if !slices.Equal(a.Args, b.Args) {
		d.ArgsA, d.ArgsB = orEmpty(a.Args), orEmpty(b.Args)
	}
	if a.GOMAXPROCS != b.GOMAXPROCS {
		d.GOMAXPROCS = []int{a.GOMAXPROCS, b.GOMAXPROCS}
	}
	if a.NumCPU != b.NumCPU {
		d.NumCPU = []int{a.NumCPU, b.NumCPU}
	}
	// Values are told apart by their hashes only when both runs hashed
	// them alike, under one key (trace.EnvComparable).
	d.EnvUncompared = envUncompared(a, b)
	hb := map[string]uint64{}
	for _, e := range b.Env {
		hb[e.Name] = e.Hash
	}
	for _, e := range a.Env {
		h, ok := hb[e.Name]
		if !ok || d.EnvUncompared == "" && h != e.Hash {
			d.Env = append(d.Env, e.Name)
		}
		delete(hb, e.Name)
	}
	for name := range hb {
		d.Env = append(d.Env, name)
	}
	slices.Sort(d.Env)
	if d.ArgsA == nil && d.GOMAXPROCS == nil && d.NumCPU == nil && d.Env == nil && d.EnvUncompared == "" {
		return nil
	}
	return d
}

// envUncompared says why the values of a's and b's environments cannot
// be compared, "" when they can: a report says so among the differences,
// so that no report takes values nobody could compare for the same.
func envUncompared(a, b trace.Inputs) string {
	switch {
	case trace.EnvComparable(a, b):
		return ""
	case a.EnvScheme == trace.EnvNames || b.EnvScheme == trace.EnvNames:
		return "a run recorded no environment values (it had no key)"
	case a.EnvScheme != b.EnvScheme:
		return "the runs hashed environment values differently (one trace is from an older divergo)"
	}
	return "the runs hashed environment values under different keys (other users or machines)"
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// maxEnvNamed bounds the variables the line names.
const maxEnvNamed = 5

// Line is the difference in one line, naming the runs na and nb: what a
// report of two runs says before anything else.
func (d *InputDiff) Line(na, nb string) string {
	var parts []string
	if d.ArgsA != nil {
		parts = append(parts, fmt.Sprintf("%s ran with args %s, %s with %s", na, CommandLine(d.ArgsA), nb, CommandLine(d.ArgsB)))
	}
	if d.GOMAXPROCS != nil {
		parts = append(parts, fmt.Sprintf("GOMAXPROCS %d in %s, %d in %s", d.GOMAXPROCS[0], na, d.GOMAXPROCS[1], nb))
	}
	if d.NumCPU != nil {
		parts = append(parts, fmt.Sprintf("NumCPU %d in %s, %d in %s", d.NumCPU[0], na, d.NumCPU[1], nb))
	}
	if len(d.Env) > 0 {
		names := d.Env
		more := ""
		if len(names) > maxEnvNamed {
			names, more = names[:maxEnvNamed], fmt.Sprintf(" and %d more", len(d.Env)-maxEnvNamed)
		}
		what := "environment variables set differently"
		if d.EnvUncompared != "" {
			what = "environment variables set in one run only"
		}
		parts = append(parts, fmt.Sprintf("%s: %s%s", what, strings.Join(names, ", "), more))
	}
	if d.EnvUncompared != "" {
		parts = append(parts, "environment values not compared: "+d.EnvUncompared)
	}
	if d.ArgsA == nil && d.GOMAXPROCS == nil && d.NumCPU == nil && d.Env == nil {
		return "inputs: " + strings.Join(parts, "; ")
	}
	return "inputs differ: " + strings.Join(parts, "; ")
}

// argList writes a command line as a person types it, quoting only the
// arguments that need it: [-n 10], ["a b" ""].
func CommandLine(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if a == "" || strings.ContainsFunc(a, func(r rune) bool { return unicode.IsSpace(r) || r == '"' || !unicode.IsPrint(r) }) {
			q[i] = strconv.Quote(a)
		}
	}
	return "[" + strings.Join(q, " ") + "]"
}
