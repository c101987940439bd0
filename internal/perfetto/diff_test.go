package perfetto

import (
	"bytes"
	"io"
	"reflect"
	"testing"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/steps"
	"github.com/divergo/divergo/internal/trace"
)

// writeDiff draws a and b as divergo diff -perfetto does: compare first,
// then both runs with the report's marks. Runs without a name are called
// "run A" and "run B".
func writeDiff(w io.Writer, a, b Run, copts compare.Options, opts Options) (*compare.Report, error) {
	rep, err := compare.Traces(compare.FromReader(a.Reader), compare.FromReader(b.Reader), copts)
	if err != nil {
		return nil, err
	}
	if a.Name == "" {
		a.Name = "run A"
	}
	if b.Name == "" {
		b.Name = "run B"
	}
	a.Marks, b.Marks = rep.Marks()
	return rep, Write(w, opts, a, b)
}

// twoRuns differ twice: worker's branch at main.go:13 (a TCP) took the if
// in A only, and other's if at main.go:21, which the analyzer did not mark,
// ran in A only.
func twoRuns(t *testing.T) (*trace.Reader, *trace.Reader) {
	g := testGraph(t)
	a := open(t, g, []trace.GoroutineEvents{
		{ID: 1, Events: []trace.Event{clk(0), blk(0), blk(1), spawn(1, 1, 2), blk(2), blk(6), blk(7), blk(8), ext(6),
			wait(trace.OpRecv, 2, 0xA, 1000, 5000), ext(0), clk(6000)}},
		{ID: 2, Parent: 1, Site: 1, Ordinal: 1, Events: []trace.Event{clk(100), blk(3), clk(200), blk(4), clk(300), blk(5),
			syn(trace.OpSend, 5, 0xA, 900), ext(3), clk(950)}},
	})
	b := open(t, g, []trace.GoroutineEvents{
		{ID: 1, Events: []trace.Event{clk(0), blk(0), blk(1), spawn(1, 1, 2), blk(2), blk(6), blk(8), ext(6),
			wait(trace.OpRecv, 2, 0xA, 1000, 5000), ext(0), clk(6000)}},
		{ID: 2, Parent: 1, Site: 1, Ordinal: 1, Events: []trace.Event{clk(100), blk(3), clk(200), blk(5),
			syn(trace.OpSend, 5, 0xA, 900), ext(3), clk(950)}},
	})
	return a, b
}

func TestDiff(t *testing.T) {
	a, b := twoRuns(t)
	var buf bytes.Buffer
	rep, err := writeDiff(&buf, Run{Reader: a}, Run{Reader: b}, compare.Options{}, Options{MinFrame: -1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Sections != 2 || rep.Summary.Unflagged != 1 {
		t.Errorf("report: %d sections, %d unflagged; want 2 and 1", rep.Summary.Sections, rep.Summary.Unflagged)
	}
	f, err := Validate(buf.Bytes())
	if err != nil {
		t.Fatalf("output does not validate: %v\n%s", err, buf.Bytes())
	}
	procs := map[int64]string{}
	for _, e := range f.TraceEvents {
		if e.Ph == "M" && *e.Name == "process_name" {
			procs[*e.Pid] = e.Args["name"].(string)
		}
	}
	if want := map[int64]string{1: "run A", 2: "run B"}; !reflect.DeepEqual(procs, want) {
		t.Errorf("processes = %v, want %v", procs, want)
	}
	names, _ := threadNames(f)
	ss := slices(f)
	tests := []struct {
		name, cat  string
		pid        int64
		thread     string
		start, end int64
		blocks     float64
	}{
		// Worker: block 4 ran from the clock at 200 to the one at 300; in
		// B the section is empty, where block 5 ran at 200.
		{"divergent: branch at main.go:13", "divergent", 1, "main/worker@main.go:6#1", 200, 300, 1},
		{"divergent: branch at main.go:13", "divergent", 2, "main/worker@main.go:6#1", 200, 200, 0},
		// Main: 23 instructions before the wait at 1000; block 7 starts
		// after 19 of them and block 8 after 22 (20 in B, 19 before 8).
		{"divergent (unflagged) at main.go:20", "divergent,unflagged", 1, "main", 826, 957, 1},
		{"divergent (unflagged) at main.go:20", "divergent,unflagged", 2, "main", 950, 950, 0},
	}
	got := find(t, ss, tests[0].name, 2)
	got = append(got, find(t, ss, tests[2].name, 2)...)
	for i, tt := range tests {
		s := got[i]
		if s.pid != tt.pid {
			s = got[i^1]
		}
		if s.pid != tt.pid || names[[2]int64{s.pid, s.tid}] != tt.thread || s.start != tt.start || s.end != tt.end || s.cat != tt.cat {
			t.Errorf("%s in run %d: on %q [%d, %d] cat %q; want %q [%d, %d] cat %q", tt.name, tt.pid,
				names[[2]int64{s.pid, s.tid}], s.start, s.end, s.cat, tt.thread, tt.start, tt.end, tt.cat)
		}
		if s.args["blocks"] != tt.blocks || s.args["distance"] == nil || s.args["tcp_pos"] == nil {
			t.Errorf("%s in run %d: args %v, want blocks %v and the distances", tt.name, tt.pid, s.args, tt.blocks)
		}
	}
}

// A goroutine of one run only is marked as a whole.
func TestDiffLoneGoroutine(t *testing.T) {
	g := testGraph(t)
	a := open(t, g, []trace.GoroutineEvents{
		{ID: 1, Events: []trace.Event{clk(0), blk(0), blk(1), spawn(1, 1, 2), blk(2), ext(0), clk(100)}},
		{ID: 2, Parent: 1, Site: 1, Ordinal: 1, Events: []trace.Event{clk(10), blk(3), blk(5), ext(3), clk(50)}},
	})
	b := open(t, g, []trace.GoroutineEvents{
		{ID: 1, Events: []trace.Event{clk(0), blk(0), blk(1), spawn(1, 1, 2), blk(2), ext(0), clk(100)}},
		{ID: 2, Parent: 1, Site: 1, Ordinal: 1, Events: []trace.Event{clk(10), blk(3), blk(5), ext(3), clk(50)}},
		{ID: 3, Parent: 2, Site: 3, Ordinal: 1, Events: []trace.Event{clk(20), blk(9), ext(9), clk(30)}},
	})
	var buf bytes.Buffer
	rep, err := writeDiff(&buf, Run{Name: "a.dvt", Reader: a}, Run{Name: "b.dvt", Reader: b}, compare.Options{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Goroutines.OnlyB) != 1 {
		t.Fatalf("only in B: %v", rep.Goroutines.OnlyB)
	}
	f, err := Validate(buf.Bytes())
	if err != nil {
		t.Fatalf("output does not validate: %v\n%s", err, buf.Bytes())
	}
	s := find(t, slices(f), "only in run B", 1)[0]
	if s.pid != 2 || s.start != 20 || s.end != 30 {
		t.Errorf("only in run B: pid %d [%d, %d], want pid 2 [20, 30]", s.pid, s.start, s.end)
	}
}

// Marks are plain: the writer draws them where their steps fall, whoever
// made them. Steps of worker in run A (twoRuns): 0 the call of worker, 1
// block 4, 2 block 5, 3 the send, 4 the return; its clocks stamp 100 before
// step 0, 200 before step 1 and 300 before step 2, and the send 900.
func TestMarks(t *testing.T) {
	a, _ := twoRuns(t)
	marks := []steps.Mark{
		// Out of order, as a caller may give them.
		{Goroutine: 2, Span: steps.Span{From: 2, To: 4}, Label: "second", Class: "note",
			Args: []steps.Arg{{Key: "n", Value: 7}, {Key: "ok", Value: true}, {Key: "f", Value: 0.5}, {Key: "odd", Value: []int{1}}}},
		{Goroutine: 2, Span: steps.Span{From: 1, To: 2}, Label: "first", Class: "note"},
		{Goroutine: 1, Span: steps.Span{From: 0, To: steps.ToEnd}, Label: "all of main", Class: "note"},
		{Goroutine: 99, Span: steps.Span{From: 0, To: 1}, Label: "no such goroutine", Class: "note"},
	}
	var buf bytes.Buffer
	if err := Write(&buf, Options{MinFrame: -1}, Run{Reader: a, Marks: marks}); err != nil {
		t.Fatal(err)
	}
	f, err := Validate(buf.Bytes())
	if err != nil {
		t.Fatalf("output does not validate: %v\n%s", err, buf.Bytes())
	}
	names, _ := threadNames(f)
	ss := slices(f)
	for _, tt := range []struct {
		name       string
		thread     string
		start, end int64
	}{
		{"first", "main/worker@main.go:6#1", 200, 300},
		{"second", "main/worker@main.go:6#1", 300, 900},
		{"all of main", "main", 0, 6000},
	} {
		s := find(t, ss, tt.name, 1)[0]
		if th := names[[2]int64{s.pid, s.tid}]; th != tt.thread || s.start != tt.start || s.end != tt.end || s.cat != "note" {
			t.Errorf("%s: on %q [%d, %d] cat %q; want %q [%d, %d] cat note", tt.name, th, s.start, s.end, s.cat, tt.thread, tt.start, tt.end)
		}
	}
	s := find(t, ss, "second", 1)[0]
	if want := map[string]any{"n": 7.0, "ok": true, "f": 0.5, "odd": "[1]"}; !reflect.DeepEqual(s.args, want) {
		t.Errorf("second: args %v, want %v", s.args, want)
	}
	find(t, ss, "no such goroutine", 0)
}
