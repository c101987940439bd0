package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// TestShowReturnedNotEnded: show says a goroutine without its last chunk
// "did not end" only when its stream does not end with the return of the
// function it started in; one that returned is said to have returned.
func TestShowReturnedNotEnded(t *testing.T) {
	g := &tbb.Graph{Version: tbb.Version, Module: "example.com/m"}
	for i, name := range []string{"main", "worker"} {
		pos := tbb.Pos{File: "main.go", Line: 3 + 10*i}
		g.Funcs = append(g.Funcs, &tbb.Func{ID: i, Name: "example.com/m." + name, Pkg: "example.com/m", Pos: pos, Entry: i, Blocks: []int{i}})
		g.Blocks = append(g.Blocks, &tbb.Block{ID: i, Func: i, Kind: "entry", Pos: pos, Probe: true, Exit: true, Succs: []int{}})
	}
	path := filepath.Join(t.TempDir(), "a.dvt")
	blk := func(b uint32) trace.Event { return trace.Event{Kind: trace.EvBlock, Block: b} }
	exit := func(b uint32) trace.Event { return trace.Event{Kind: trace.EvExit, Block: b} }
	gs := []trace.GoroutineEvents{
		{ID: 1, Events: []trace.Event{blk(0), exit(0)}},
		{ID: 2, Running: true, Events: []trace.Event{blk(1), exit(1)}},
		{ID: 3, Running: true, Events: []trace.Event{blk(1)}},
	}
	if err := trace.WriteFile(path, g, gs); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := runCmd(t, "show", path)
	if status != 0 {
		t.Fatalf("divergo show: status %d\n%s", status, stderr)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(stdout, "\n") {
		f := strings.Fields(line)
		if len(f) > 2 && (f[1] == "2" || f[1] == "3") {
			rows[f[1]] = line
		}
	}
	if !strings.Contains(rows["2"], "(returned; end time not recorded)") {
		t.Errorf("goroutine 2 returned: %q", rows["2"])
	}
	if !strings.Contains(rows["3"], "(did not end)") {
		t.Errorf("goroutine 3 did not return: %q", rows["3"])
	}
}
