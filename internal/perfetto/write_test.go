package perfetto

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// oneRun is main spawning two workers: worker 1 unlocks a mutex worker 2
// waits for, then sends on a channel main waits on.
func oneRun(t *testing.T) *trace.Reader {
	g := testGraph(t)
	return open(t, g, []trace.GoroutineEvents{
		{ID: 1, Events: []trace.Event{clk(0), blk(0), blk(1), spawn(1, 1, 2), blk(1), spawn(1, 2, 3), blk(2),
			blk(6), blk(7), blk(8), ext(6), wait(trace.OpRecv, 2, 0xA, 1000, 5000), ext(0), clk(9000)}},
		{ID: 2, Parent: 1, Site: 1, Ordinal: 1, Events: []trace.Event{clk(500), blk(3), blk(9), ext(9), blk(4),
			syn(trace.OpUnlock, 4, 0xB, 1900), blk(5), syn(trace.OpSend, 5, 0xA, 4800), ext(3), clk(6000)}},
		{ID: 3, Parent: 1, Site: 1, Ordinal: 2, Events: []trace.Event{clk(600), blk(3),
			wait(trace.OpLock, 3, 0xB, 700, 2000), blk(5), ext(3), clk(2500)}},
	})
}

func render(t *testing.T, opts Options, runs ...Run) (*File, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, opts, runs...); err != nil {
		t.Fatal(err)
	}
	f, err := Validate(buf.Bytes())
	if err != nil {
		t.Fatalf("output does not validate: %v\n%s", err, buf.Bytes())
	}
	// The format leaves cat optional, but parsers such as tracerbench's
	// need one on every event.
	for i, e := range f.TraceEvents {
		if e.Cat == nil || *e.Cat == "" {
			t.Fatalf("event %d (ph %s) has no category", i, e.Ph)
		}
	}
	return f, buf.Bytes()
}

func TestThreadsMainFirst(t *testing.T) {
	f, _ := render(t, Options{}, Run{Reader: oneRun(t)})
	_, order := threadNames(f)
	want := []string{"main", "main/worker@main.go:6#1", "main/worker@main.go:6#2"}
	if !reflect.DeepEqual(order[1], want) {
		t.Errorf("threads = %q, want %q", order[1], want)
	}
	if f.DisplayTimeUnit != "ns" {
		t.Errorf("displayTimeUnit = %q", f.DisplayTimeUnit)
	}
}

func TestWaitsAndReleasers(t *testing.T) {
	f, _ := render(t, Options{MinFrame: -1}, Run{Reader: oneRun(t)})
	names, _ := threadNames(f)
	tidOf := map[string]int64{}
	for k, n := range names {
		tidOf[n] = k[1]
	}
	ss := slices(f)
	tests := []struct {
		name       string
		thread     string
		start, end int64
		releaser   string
		by         string
	}{
		{"recv @ main.go:8", "main", 1000, 5000, "main/worker@main.go:6#1 (goroutine 2)", "send @ main.go:16"},
		{"lock @ main.go:12", "main/worker@main.go:6#2", 700, 2000, "main/worker@main.go:6#1 (goroutine 2)", "unlock @ main.go:14"},
	}
	for _, tt := range tests {
		w := find(t, ss, tt.name, 1)[0]
		if w.tid != tidOf[tt.thread] || w.start != tt.start || w.end != tt.end || w.cat != "wait" {
			t.Errorf("%s: on tid %d [%d, %d] cat %q, want tid %d (%s) [%d, %d] cat wait", tt.name, w.tid, w.start, w.end, w.cat, tidOf[tt.thread], tt.thread, tt.start, tt.end)
		}
		if w.args["releaser"] != tt.releaser || w.args["released_by"] != tt.by {
			t.Errorf("%s: releaser %v by %v, want %s by %s", tt.name, w.args["releaser"], w.args["released_by"], tt.releaser, tt.by)
		}
		if w.args["waited_ns"] != float64(tt.end-tt.start) {
			t.Errorf("%s: waited_ns %v", tt.name, w.args["waited_ns"])
		}
	}
	// The release points are drawn on the releaser's track.
	for _, r := range []struct {
		name string
		at   int64
	}{{"send @ main.go:16", 4800}, {"unlock @ main.go:14", 1900}} {
		s := find(t, ss, r.name, 1)[0]
		if s.tid != tidOf["main/worker@main.go:6#1"] || s.start != r.at || s.end != r.at {
			t.Errorf("%s: tid %d [%d, %d], want worker 1 at %d", r.name, s.tid, s.start, s.end, r.at)
		}
	}
	// Each wait has a flow from the release to the end of the wait.
	type flow struct{ sTid, fTid, sAt, fAt int64 }
	flows := map[string]*flow{}
	for _, e := range f.TraceEvents {
		if (e.Ph != "s" && e.Ph != "f") || *e.Cat != "release" {
			continue
		}
		fl := flows[string(e.ID)]
		if fl == nil {
			fl = &flow{}
			flows[string(e.ID)] = fl
		}
		if e.Ph == "s" {
			fl.sTid, fl.sAt = *e.Tid, ns(*e.Ts)
		} else {
			fl.fTid, fl.fAt = *e.Tid, ns(*e.Ts)
		}
	}
	got := map[flow]bool{}
	for _, fl := range flows {
		got[*fl] = true
	}
	want := map[flow]bool{
		{tidOf["main/worker@main.go:6#1"], tidOf["main"], 4800, 4999}:                    true,
		{tidOf["main/worker@main.go:6#1"], tidOf["main/worker@main.go:6#2"], 1900, 1999}: true,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("release flows = %v, want %v", got, want)
	}
}

func TestSpawnsAndFrames(t *testing.T) {
	f, _ := render(t, Options{MinFrame: -1}, Run{Reader: oneRun(t)})
	ss := slices(f)
	// Main ran 33 instructions before blocking at 1000 ns: the spawns come
	// after 14 and 24 of them. The second child started at 600, before the
	// interpolated 727: the child's clock wins.
	var instants []string
	for _, e := range f.TraceEvents {
		if e.Ph == "i" {
			instants = append(instants, *e.Name+"@"+itoa(ns(*e.Ts)))
		}
	}
	want := []string{"go main/worker@main.go:6#1@424", "go main/worker@main.go:6#2@600"}
	if !reflect.DeepEqual(instants, want) {
		t.Errorf("spawn instants = %q, want %q", instants, want)
	}
	// Arrows from the go statement to a nanosecond into the child.
	var arrows []string
	for _, e := range f.TraceEvents {
		if (e.Ph == "s" || e.Ph == "f") && *e.Cat == "spawn" {
			bp := ""
			if e.BP != nil {
				bp = " bp=" + *e.BP
			}
			arrows = append(arrows, e.Ph+" id="+string(e.ID)+" tid="+itoa(*e.Tid)+" at="+itoa(ns(*e.Ts))+bp)
		}
	}
	wantArrows := []string{"s id=2 tid=101 at=424", "f id=2 tid=102 at=501 bp=e", "s id=3 tid=101 at=600", "f id=3 tid=103 at=601 bp=e"}
	if !reflect.DeepEqual(arrows, wantArrows) {
		t.Errorf("spawn arrows = %q, want %q", arrows, wantArrows)
	}
	frames := []struct {
		name       string
		start, end int64
		depth      int // -1 for a complete (X) slice
	}{
		{"main", 0, 5000, 1},
		{"other", 788, 1000, -1},
		{"compute", 780, 1433, -1},
		{"goroutine 1", 0, 9000, 0},
		{"goroutine 3", 600, 2500, 0},
	}
	for _, fr := range frames {
		s := find(t, ss, fr.name, 1)[0]
		if s.start != fr.start || s.end != fr.end || s.depth != fr.depth {
			t.Errorf("%s: [%d, %d] depth %d, want [%d, %d] depth %d", fr.name, s.start, s.end, s.depth, fr.start, fr.end, fr.depth)
		}
		if s.cat == "frame" && s.args["time"] != "estimated" {
			t.Errorf("%s: args %v do not say the time is estimated", fr.name, s.args)
		}
	}
	find(t, ss, "worker", 2)
}

func TestMinFrame(t *testing.T) {
	f, _ := render(t, Options{}, Run{Reader: oneRun(t)})
	ss := slices(f)
	find(t, ss, "compute", 0) // 653 ns, nothing inside
	find(t, ss, "other", 0)
	find(t, ss, "main", 1) // holds a wait
	find(t, ss, "worker", 2)
}

func TestProgramName(t *testing.T) {
	_, data := render(t, Options{}, Run{Reader: oneRun(t)})
	if !strings.Contains(string(data), `"name":"process_name","cat":"__metadata","pid":1,"ts":0.000,"args":{"name":"prog"}`) {
		t.Errorf("process not named after the program:\n%.400s", data)
	}
}

// A trace cut short: the goroutines that did not end are drawn up to their
// last timestamp, and everything still validates.
func TestUnended(t *testing.T) {
	g := testGraph(t)
	r := open(t, g, []trace.GoroutineEvents{
		{ID: 1, Running: true, Events: []trace.Event{clk(0), blk(0), blk(1), spawn(1, 1, 2), blk(1), wait(trace.OpRecv, 1, 0xA, 100, 300), blk(1)}},
		{ID: 2, Parent: 1, Site: 1, Ordinal: 1, Running: true, Events: []trace.Event{clk(50), blk(3), blk(4), syn(trace.OpSend, 4, 0xA, 290), blk(5)}},
	})
	f, _ := render(t, Options{MinFrame: -1}, Run{Reader: r})
	ss := slices(f)
	g1 := find(t, ss, "goroutine 1", 1)[0]
	if g1.end != 300 || g1.args["ended"] != false {
		t.Errorf("goroutine 1: ends %d args %v, want 300 and ended false", g1.end, g1.args)
	}
	find(t, ss, "recv @ main.go:6", 1)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
