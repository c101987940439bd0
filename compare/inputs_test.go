package compare

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// TestInputsDiffer: what two runs' recorded inputs differ in, field by
// field, and nothing when they are the same whatever the order of the
// environment.
func TestInputsDiffer(t *testing.T) {
	base := trace.Inputs{Args: []string{"-n", "10"}, GOMAXPROCS: 4, NumCPU: 4,
		Env: []trace.EnvVar{{Name: "A", Hash: 1}, {Name: "B", Hash: 2}, {Name: "C", Hash: 3}}}
	if d := InputsDiffer(base, base); d != nil {
		t.Errorf("same inputs differ: %+v", d)
	}
	other := base
	other.Args = []string{"-n", "12"}
	other.GOMAXPROCS = 2
	other.Env = []trace.EnvVar{{Name: "B", Hash: 2}, {Name: "C", Hash: 4}, {Name: "D", Hash: 5}}
	d := InputsDiffer(base, other)
	want := &InputDiff{ArgsA: []string{"-n", "10"}, ArgsB: []string{"-n", "12"}, GOMAXPROCS: []int{4, 2}, Env: []string{"A", "C", "D"}}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("diff %+v, want %+v", d, want)
	}
	line := d.Line("run-1.dvt", "run-2.dvt")
	wantLine := "inputs differ: run-1.dvt ran with args [-n 10], run-2.dvt with [-n 12]; GOMAXPROCS 4 in run-1.dvt, 2 in run-2.dvt; environment variables set differently: A, C, D"
	if line != wantLine {
		t.Errorf("line\n %s\nwant\n %s", line, wantLine)
	}
	// No arguments at all against some: the empty command line shows.
	noArgs := base
	noArgs.Args = nil
	if got := InputsDiffer(noArgs, base).Line("a", "b"); got != "inputs differ: a ran with args [], b with [-n 10]" {
		t.Errorf("line %q", got)
	}
	if got := CommandLine([]string{"a b", "", `"`, "x"}); got != `["a b" "" "\"" x]` {
		t.Errorf("CommandLine = %s", got)
	}
}

// TestInputsEnvUncompared: values hashed under one key are compared by
// their hashes; under two keys (two users), with names only, or by two
// schemes (a trace from an older divergo), only which variables are set
// is, and the line says the values were not compared rather than let the
// runs pass for having the same.
func TestInputsEnvUncompared(t *testing.T) {
	keyed := func(id uint64, hashes ...uint64) trace.Inputs {
		in := trace.Inputs{GOMAXPROCS: 1, NumCPU: 1, EnvScheme: trace.EnvKeyed, EnvKeyID: id}
		for i, h := range hashes {
			in.Env = append(in.Env, trace.EnvVar{Name: string(rune('A' + i)), Hash: h})
		}
		return in
	}
	if d := InputsDiffer(keyed(1, 5, 6), keyed(1, 5, 6)); d != nil {
		t.Errorf("same key, same values: %+v", d)
	}
	if d := InputsDiffer(keyed(1, 5, 6), keyed(1, 5, 7)); d == nil || d.EnvUncompared != "" || !reflect.DeepEqual(d.Env, []string{"B"}) {
		t.Errorf("same key, B changed: %+v", d)
	}
	names := keyed(0, 0, 0)
	names.EnvScheme, names.EnvKeyID = trace.EnvNames, 0
	legacy := keyed(0, 5, 6)
	legacy.EnvScheme = trace.EnvFNV
	for _, tc := range []struct {
		name string
		a, b trace.Inputs
		want string
	}{
		{"two keys", keyed(1, 5, 6), keyed(2, 8, 9), "inputs: environment values not compared: the runs hashed environment values under different keys (other users or machines)"},
		{"names only", keyed(1, 5, 6), names, "inputs: environment values not compared: a run recorded no environment values (it had no key)"},
		{"older divergo", legacy, keyed(1, 5, 6), "inputs: environment values not compared: the runs hashed environment values differently (one trace is from an older divergo)"},
		{"two keys, C in one", keyed(1, 5, 6), keyed(2, 8, 9, 10), "inputs differ: environment variables set in one run only: C; environment values not compared: the runs hashed environment values under different keys (other users or machines)"},
	} {
		d := InputsDiffer(tc.a, tc.b)
		if d == nil {
			t.Errorf("%s: no difference said", tc.name)
			continue
		}
		if got := d.Line("a", "b"); got != tc.want {
			t.Errorf("%s: line\n %s\nwant\n %s", tc.name, got, tc.want)
		}
	}
	if d := InputsDiffer(legacy, legacy); d != nil {
		t.Errorf("two traces of an older divergo, same values: %+v", d)
	}
}

// TestInputsReport compares two trace files whose headers recorded other
// command lines: the report still compares them, and its text and JSON say
// first that the inputs differed. Traces that do not say (written before
// inputs were recorded) or that agree say nothing of inputs.
func TestInputsReport(t *testing.T) {
	f := newFig1(t)
	dir := t.TempDir()
	write := func(name string, m *memTrace, in *trace.Inputs) Trace {
		return fileTrace(t, filepath.Join(dir, name), f.g, m, in)
	}
	ten := &trace.Inputs{Args: []string{"-n", "10"}, GOMAXPROCS: 2, NumCPU: 2}
	twelve := &trace.Inputs{Args: []string{"-n", "12"}, GOMAXPROCS: 2, NumCPU: 2}
	a := write("a.dvt", f.run(1, 0, 1000), ten)
	b := write("b.dvt", f.run(0, 0, 2000), twelve)
	rep := mustCompare(t, a, b)
	if rep.Inputs == nil || rep.Summary.Same || len(rep.Sections) == 0 {
		t.Fatalf("inputs %+v, same %v, %d sections: want the inputs' difference and the comparison", rep.Inputs, rep.Summary.Same, len(rep.Sections))
	}
	var text strings.Builder
	if err := rep.WriteText(&text, TextOptions{NameA: "a.dvt", NameB: "b.dvt"}); err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(text.String(), "\n")
	if first != "inputs differ: a.dvt ran with args [-n 10], b.dvt with [-n 12]" {
		t.Errorf("first line %q", first)
	}
	if !strings.Contains(rest, "a.dvt and b.dvt took different paths.") {
		t.Errorf("the comparison does not follow:\n%s", text.String())
	}
	js, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"inputs":{"args_a":["-n","10"],"args_b":["-n","12"]}`) {
		t.Errorf("JSON lacks the inputs: %.300s", js)
	}

	for _, c := range []struct {
		name string
		a, b Trace
	}{
		{"same inputs", a, write("c.dvt", f.run(0, 0, 2000), ten)},
		{"old trace", a, write("d.dvt", f.run(0, 0, 2000), nil)},
	} {
		rep := mustCompare(t, c.a, c.b)
		text.Reset()
		if err := rep.WriteText(&text, TextOptions{}); err != nil {
			t.Fatal(err)
		}
		if rep.Inputs != nil || strings.Contains(text.String(), "inputs") {
			t.Errorf("%s: inputs %+v in\n%s", c.name, rep.Inputs, text.String())
		}
	}
}

// fileTrace writes m to a trace file at path, its header recording in
// (nil: no inputs, as traces written before they were), and opens it.
func fileTrace(t *testing.T, path string, g *tbb.Graph, m *memTrace, in *trace.Inputs) Trace {
	t.Helper()
	var gs []trace.GoroutineEvents
	for _, g := range m.gs {
		gs = append(gs, trace.GoroutineEvents{ID: g.ID, Parent: g.Parent, Site: g.Site, Ordinal: g.Ordinal, Events: m.events[g.ID]})
	}
	var buf bytes.Buffer
	if err := trace.EncodeHeader(&buf, trace.Header{Program: "synthetic", Start: time.Unix(1, 0), Inputs: in}, g, gs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := trace.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return FromReader(r)
}
