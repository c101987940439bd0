package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// twoCommands writes a trace of each of two commands of one module,
// cmd/a and cmd/b, which share the module's graph.
func twoCommands(t *testing.T) (a, b string) {
	t.Helper()
	g := &tbb.Graph{Version: tbb.Version, Module: "example.com/m"}
	for i, pkg := range []string{"example.com/m/cmd/a", "example.com/m/cmd/b"} {
		pos := tbb.Pos{File: strings.TrimPrefix(pkg, "example.com/m/") + "/main.go", Line: 3}
		g.Funcs = append(g.Funcs, &tbb.Func{ID: i, Name: pkg + ".main", Pkg: pkg, Pos: pos, Entry: i, Blocks: []int{i}})
		g.Blocks = append(g.Blocks, &tbb.Block{ID: i, Func: i, Kind: "entry", Pos: pos, Probe: true, Exit: true, Succs: []int{}})
	}
	dir := t.TempDir()
	a, b = filepath.Join(dir, "a.dvt"), filepath.Join(dir, "b.dvt")
	for i, path := range []string{a, b} {
		evs := []trace.Event{{Kind: trace.EvBlock, Block: uint32(i)}, {Kind: trace.EvExit, Block: uint32(i)}}
		if err := trace.WriteFile(path, g, []trace.GoroutineEvents{{ID: 1, Events: evs}}); err != nil {
			t.Fatal(err)
		}
	}
	return a, b
}

// TestDifferentPrograms: diff, its matrix, page and timeline, and wait
// refuse traces of two programs in one line and status 2, whether their
// graphs differ or two commands of one module share one; two traces of
// one command are compared.
func TestDifferentPrograms(t *testing.T) {
	a, b := twoCommands(t)
	other := filepath.Join("..", "..", "internal", "perfetto", "testdata", "pool.dvt")
	out := t.TempDir()
	// refused is the one line, as a pattern: cmd refuses traces x and y,
	// which differ as detail (a pattern) says.
	refused := func(cmd, x, y, detail string) string {
		return "^" + regexp.QuoteMeta("divergo "+cmd+": "+x+" and "+y+" are traces of different programs ") + detail + "\n$"
	}
	commands := `\(graph [0-9a-f]{12}; main goroutine in example\.com/m/cmd/a and in example\.com/m/cmd/b\)`
	graphs := `\(graphs [0-9a-f]{12} and [0-9a-f]{12}\)`
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", a, b}, refused("diff", a, b, commands)},
		{[]string{"diff", "-json", a, b}, refused("diff", a, b, commands)},
		{[]string{"diff", a, a, b}, refused("diff", a, b, commands)},
		{[]string{"diff", "-html", filepath.Join(out, "x.html"), a, b}, refused("diff", a, b, commands)},
		{[]string{"diff", "-perfetto", filepath.Join(out, "x.json"), a, b}, refused("diff", a, b, commands)},
		{[]string{"wait", a, b}, refused("wait", a, b, commands)},
		{[]string{"diff", "-wait", a, b}, refused("diff", a, b, commands)},
		{[]string{"diff", a, other}, refused("diff", a, other, graphs)},
		{[]string{"wait", other, a}, refused("wait", other, a, graphs)},
	} {
		status, stdout, stderr := runCmd(t, tc.args...)
		if status != 2 || stdout != "" || !regexp.MustCompile(tc.want).MatchString(stderr) {
			t.Errorf("divergo %s: status %d, stdout %q, stderr %q; want 2 and one line matching %s", strings.Join(tc.args, " "), status, stdout, stderr, tc.want)
		}
	}
	for _, cmd := range []string{"diff", "wait"} {
		if status, _, stderr := runCmd(t, cmd, b, b); status != 0 {
			t.Errorf("divergo %s of two traces of one command: status %d\n%s", cmd, status, stderr)
		}
	}
}
