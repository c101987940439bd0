package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// showTrace writes a two-goroutine trace (main waits on a channel the
// worker sends on) and returns its path.
func showTrace(t *testing.T) string {
	t.Helper()
	return showTraceOf(t, nil)
}

// showTraceOf is showTrace with the program's inputs recorded in the
// header (nil: none, as traces written before they were).
func showTraceOf(t *testing.T, in *trace.Inputs) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.dvt")
	writeShowTrace(t, path, showGraph("main.go"), in, true)
	return path
}

// showGraph is the graph of showTrace's program, its source in file.
func showGraph(file string) *tbb.Graph {
	return &tbb.Graph{
		Module: "example.com/m", Packages: []string{"example.com/m"},
		Funcs: []*tbb.Func{
			{ID: 0, Name: "example.com/m.main", Pkg: "example.com/m", Pos: tbb.Pos{File: file, Line: 3}, Entry: 0, Blocks: []int{0}},
			{ID: 1, Name: "example.com/m.work", Pkg: "example.com/m", Pos: tbb.Pos{File: file, Line: 9}, Entry: 1, Blocks: []int{1}},
		},
		Blocks: []*tbb.Block{
			{ID: 0, Func: 0, Kind: "entry", Pos: tbb.Pos{File: file, Line: 4}, Probe: true, Instrs: 5, Succs: []int{}, Exit: true,
				TCP: &tbb.TCP{Kind: tbb.Spawn, Pos: tbb.Pos{File: file, Line: 5}, CP: tbb.Return}},
			{ID: 1, Func: 1, Kind: "entry", Pos: tbb.Pos{File: file, Line: 10}, Probe: true, Instrs: 2, Succs: []int{}, Exit: true},
		},
		Sites: []*tbb.Site{
			{ID: 0, Block: 0, Op: "go", Pos: tbb.Pos{File: file, Line: 5, Col: 2}},
			{ID: 1, Block: 0, Op: "recv", Pos: tbb.Pos{File: file, Line: 6, Col: 2}},
			{ID: 2, Block: 1, Op: "send", Pos: tbb.Pos{File: file, Line: 11, Col: 2}},
		},
	}
}

// writeShowTrace writes a run of showGraph's program at path: main spawns
// the worker and waits for its send, or, without spawn, waits for a send
// that does not come.
func writeShowTrace(t *testing.T, path string, g *tbb.Graph, in *trace.Inputs, spawn bool) {
	t.Helper()
	main := []trace.Event{
		{Kind: trace.EvClock, Time: 0},
		{Kind: trace.EvBlock, Block: 0},
		{Kind: trace.EvSpawn, Site: 0, Ordinal: 1, Child: 2},
		{Kind: trace.EvSync, Op: trace.OpRecv, Site: 1, Object: 0xc0, Waited: true, Begin: 10, End: 90},
		{Kind: trace.EvExit, Block: 0},
		{Kind: trace.EvClock, Time: 100},
	}
	gs := []trace.GoroutineEvents{
		{ID: 1, Events: main},
		{ID: 2, Parent: 1, Site: 0, Ordinal: 1, Events: []trace.Event{
			{Kind: trace.EvClock, Time: 20},
			{Kind: trace.EvBlock, Block: 1},
			{Kind: trace.EvSync, Op: trace.OpSend, Site: 2, Object: 0xc0, End: 85},
			{Kind: trace.EvClock, Time: 95},
		}},
	}
	if !spawn {
		main = append(main[:2:2], trace.Event{Kind: trace.EvSync, Op: trace.OpRecv, Site: 1, Object: 0xc0, Waited: true, Begin: 10, End: 90}, main[4], main[5])
		gs = []trace.GoroutineEvents{{ID: 1, Events: main}}
	}
	var buf bytes.Buffer
	err := trace.EncodeHeader(&buf, trace.Header{Program: "synthetic", Start: time.Unix(1700000000, 0), Inputs: in}, g, gs)
	if err == nil {
		err = os.WriteFile(path, buf.Bytes(), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestShowInputs: show prints the inputs a trace recorded, and says
// nothing of them for a trace that did not record them.
func TestShowInputs(t *testing.T) {
	in := &trace.Inputs{Args: []string{"-n", "10", "a b"}, GOMAXPROCS: 2, NumCPU: 8, Env: []trace.EnvVar{{Name: "HOME", Hash: 0xabc}}, EnvScheme: trace.EnvKeyed, EnvKeyID: 0x1234}
	path := showTraceOf(t, in)
	status, out, errs := runCmd(t, "show", path)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errs)
	}
	for _, want := range []string{`args:       [-n 10 "a b"]`, "processors: GOMAXPROCS 2, NumCPU 8", "environ:    1 variables (values recorded as hashes under the recording user's key 0000000000001234)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	status, out, errs = runCmd(t, "show", "-json", path)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errs)
	}
	if !strings.Contains(out, `"inputs":{"args":["-n","10","a b"],"gomaxprocs":2,"numcpu":8,"env":[{"name":"HOME","hash":"0000000000000abc"}],"env_scheme":"keyed","env_key":"0000000000001234"}`) {
		t.Errorf("-json lacks the inputs:\n%.400s", out)
	}
	_, out, _ = runCmd(t, "show", showTrace(t))
	if strings.Contains(out, "args:") {
		t.Errorf("a trace without inputs shows some:\n%s", out)
	}
}

func TestShow(t *testing.T) {
	path := showTrace(t)
	status, out, errs := runCmd(t, "show", path)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errs)
	}
	for _, want := range []string{"program:    synthetic", "sha256:", "trace:      complete",
		"main/work@main.go:5#1", "main                       1      -          1          1          6      1",
		"main/work@main.go:5#1      2      1          1          1          4      0"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	status, out, _ = runCmd(t, "show", "-events", path)
	for _, want := range []string{"block 0      main.go:4 in main", "recv           object 0xc0 at main.go:6 in main, t=90ns, waited 80ns", "spawn goroutine 2 (#1 at main.go:5)"} {
		if status != 0 || !strings.Contains(out, want) {
			t.Errorf("-events output lacks %q:\n%s", want, out)
		}
	}
}

func TestShowJSON(t *testing.T) {
	path := showTrace(t)
	for _, events := range []bool{false, true} {
		args := []string{"show", "--json", path}
		if events {
			args = append(args, "--events")
		}
		status, out, errs := runCmd(t, args...)
		if status != 0 {
			t.Fatalf("status %d: %s", status, errs)
		}
		var rep struct {
			Truncated  bool `json:"truncated"`
			Goroutines []struct {
				Path      string            `json:"path"`
				Parent    string            `json:"parent"`
				Blocks    uint64            `json:"blocks"`
				Events    uint64            `json:"events"`
				Waits     uint64            `json:"waits"`
				EventList []json.RawMessage `json:"event_list"`
			} `json:"goroutines"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		if rep.Truncated || len(rep.Goroutines) != 2 {
			t.Fatalf("report %+v", rep)
		}
		m, w := rep.Goroutines[0], rep.Goroutines[1]
		if m.Path != "main" || m.Parent != "" || m.Blocks != 1 || m.Events != 6 || m.Waits != 1 {
			t.Errorf("main: %+v", m)
		}
		if w.Path != "main/work@main.go:5#1" || w.Parent != "main" || w.Blocks != 1 || w.Waits != 0 {
			t.Errorf("worker: %+v", w)
		}
		if events && (len(m.EventList) != 6 || len(w.EventList) != 4) {
			t.Errorf("event lists of %d and %d events, want 6 and 4", len(m.EventList), len(w.EventList))
		}
		// The receive names its own line and site, not its block's.
		if events && len(m.EventList) == 6 && string(m.EventList[3]) != `{"kind":"sync","block":0,"site":1,"pos":"main.go:6","op":"recv","object":192,"waited":true,"begin_ns":10,"end_ns":90}` {
			t.Errorf("recv event %s", m.EventList[3])
		}
	}
}

func TestShowBadInput(t *testing.T) {
	dir := t.TempDir()
	full, err := os.ReadFile(showTrace(t))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	newer := append([]byte(trace.Magic), 99)
	newer = append(newer, full[len(trace.Magic)+1:]...)
	for _, tc := range []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "missing.dvt"), "no such file"},
		{"empty", write("empty.dvt", nil), "empty file"},
		{"not a trace", write("text.dvt", []byte("hello\n")), "not a divergo trace"},
		{"header cut", write("cut.dvt", full[:40]), "cut short"},
		{"newer", write("newer.dvt", newer), "newer than this divergo reads"},
	} {
		status, out, errs := runCmd(t, "show", tc.path)
		if status != 2 || out != "" || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want 2 and one line with %q", tc.name, status, out, errs, tc.want)
		}
	}
	// Cut in the chunks: read up to the last whole one, reported truncated.
	cut := write("killed.dvt", full[:len(full)-40])
	status, out, errs := runCmd(t, "show", "-json", cut)
	if status != 0 || !strings.Contains(out, `"truncated":true`) {
		t.Errorf("killed run: status %d, stdout %s, stderr %s", status, out, errs)
	}
}

// TestShowBlocksAgreeWithDiff: show counts a goroutine's block executions
// as diff does (implied blocks put back), on real traces whose loops record
// one probe per iteration; it used to give the recorded events only.
func TestShowBlocksAgreeWithDiff(t *testing.T) {
	for _, name := range []string{"pool.dvt", "pipeline.dvt", "contention.dvt"} {
		path := filepath.Join("..", "..", "internal", "perfetto", "testdata", name)
		_, out, errs := runCmd(t, "show", "-json", path)
		var show struct {
			Goroutines []struct {
				ID       uint64 `json:"id"`
				Blocks   int64  `json:"blocks"`
				Recorded int64  `json:"recorded"`
			} `json:"goroutines"`
		}
		if err := json.Unmarshal([]byte(out), &show); err != nil {
			t.Fatalf("%s: show -json: %v (%s)", name, err, errs)
		}
		_, out, _ = runCmd(t, "diff", "-json", path, path)
		var diff struct {
			Goroutines struct {
				Matched []struct {
					A       uint64 `json:"a"`
					BlocksA int64  `json:"blocks_a"`
				} `json:"matched"`
			} `json:"goroutines"`
		}
		if err := json.Unmarshal([]byte(out), &diff); err != nil {
			t.Fatalf("%s: diff -json: %v", name, err)
		}
		want := map[uint64]int64{}
		for _, m := range diff.Goroutines.Matched {
			want[m.A] = m.BlocksA
		}
		implied := false
		for _, g := range show.Goroutines {
			if g.Blocks != want[g.ID] {
				t.Errorf("%s: goroutine %d: show %d blocks, diff %d", name, g.ID, g.Blocks, want[g.ID])
			}
			implied = implied || g.Blocks > g.Recorded
		}
		if !implied {
			t.Logf("%s: no goroutine executed implied blocks", name)
		}
	}
}
