package main

import (
	"fmt"
	"strings"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/trace"
)

// testTrace keeps a trace of a test binary to one test's goroutines: the
// test's own, its subtests', and every goroutine they started. A test
// binary's run records every test of the package; diffing all of them
// reported first where another test's goroutines parted (diff -test).
type testTrace struct {
	compare.Trace
	r  *trace.Reader
	in map[uint64]bool
}

// onlyTest returns the trace of r kept to test name, or an error when the
// test did not run in it.
func onlyTest(r *trace.Reader, t compare.Trace, name, path string) (compare.Trace, error) {
	all := r.Goroutines()
	in := map[uint64]bool{}
	for _, g := range all {
		if g.Test == name || strings.HasPrefix(g.Test, name+"/") {
			in[g.ID] = true
		}
	}
	if len(in) == 0 {
		return nil, fmt.Errorf("%s: no goroutine of test %s", path, name)
	}
	for changed := true; changed; { // parents need not come before children
		changed = false
		for _, g := range all {
			if !in[g.ID] && g.Parent != 0 && in[g.Parent] {
				in[g.ID], changed = true, true
			}
		}
	}
	return testTrace{t, r, in}, nil
}

func (t testTrace) Goroutines() []compare.Goroutine {
	var out []compare.Goroutine
	for _, g := range t.Trace.Goroutines() {
		if t.in[g.ID] {
			out = append(out, g)
		}
	}
	return out
}

// Inputs keeps what the run ran on for the report's header.
func (t testTrace) Inputs() (trace.Inputs, bool) { return t.r.Inputs() }
