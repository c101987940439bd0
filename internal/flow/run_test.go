package flow

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// recorder is appended to the instrumented program: each activation records
// the probed blocks it passes and prints them when it returns or unwinds.
const recorder = `package main

import (
	"fmt"
	"os"
	"sync"
)

type frame struct {
	fn  int
	ids []int
}

var outMu sync.Mutex

func enter(fn int) *frame { return &frame{fn: fn, ids: []int{0}} }

func (f *frame) B(id int) { f.ids = append(f.ids, id) }

func (f *frame) Exit() {
	r := recover()
	outMu.Lock()
	fmt.Fprintln(os.Stderr, "trace", f.fn, r != nil, f.ids)
	outMu.Unlock()
	if r != nil {
		panic(r)
	}
}
`

// TestProbesRun instruments testdata/probes/constructs.go with probes that
// record block indexes, runs it under a driver, and checks every recorded
// activation against its graph: it starts at the entry, each next probed
// block is reached from the previous one through implied blocks only, and a
// normal return leaves from the last one through implied blocks only. This is
// what a trace reader relies on to reconstruct implied blocks.
//
// The program carries every probe the builder can place (build); Build's
// graph, with fewer probes, must then give the same activation: keeping only
// the blocks it still probes and putting the implied ones back from each
// graph gives the same block sequence. It runs with an oracle that marks
// every TCP and with none, which leaves the minimizer the most to remove.
func TestProbesRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    func(*token.FileSet) Oracle
	}{
		{"all", func(fset *token.FileSet) Oracle { return allOracle{fset} }},
		{"none", func(*token.FileSet) Oracle { return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) { probesRun(t, tc.o) })
	}
}

func probesRun(t *testing.T, oracle func(*token.FileSet) Oracle) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	src, err := os.ReadFile(filepath.Join("testdata", "probes", "constructs.go"))
	if err != nil {
		t.Fatal(err)
	}
	src = bytes.Replace(src, []byte("package constructs"), []byte("package main"), 1)
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "constructs.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var funcs, mins []*Func
	var eds []insertion
	for fn, body := range funcBodies(file) {
		f := buildAll(fset, body, oracle(fset), mayReturnTest)
		funcs = append(funcs, f)
		mins = append(mins, Build(fset, body, oracle(fset), mayReturnTest))
		for _, b := range f.Blocks {
			off := fset.Position(b.Probe.Pos).Offset
			probe := fmt.Sprintf("_f.B(%d)", b.Index)
			switch {
			case b.Index == 0:
				eds = append(eds, insertion{off + 1, fmt.Sprintf("_f := enter(%d); defer _f.Exit();", fn)})
			case b.Probe.Mode == Open:
				eds = append(eds, insertion{off + 1, probe + ";"})
			case b.Probe.Mode == Before:
				eds = append(eds, insertion{off, probe + ";"})
			case b.Probe.Mode == After:
				eds = append(eds, insertion{off, ";" + probe})
			}
		}
	}
	driver, err := os.ReadFile(filepath.Join("testdata", "run", "driver.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"constructs.go": apply(src, eds), "driver.go": driver, "recorder.go": []byte(recorder),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool, "run", "constructs.go", "driver.go", "recorder.go")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GO111MODULE=off", "GOFLAGS=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || !strings.Contains(stdout.String(), "end") {
		t.Fatalf("running the instrumented program: %v\n%s%s", err, stdout.String(), stderr.String())
	}

	activations := 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "trace ") {
			continue
		}
		activations++
		fn, panicked, ids, err := parseTrace(line)
		if err != nil || fn >= len(funcs) {
			t.Fatalf("bad trace line %q: %v", line, err)
		}
		if err := checkRun(funcs[fn], ids, panicked); err != nil {
			t.Errorf("function at %s: %v\nrun %v\n%s", fset.Position(funcs[fn].Body.Pos()), err, ids, funcs[fn].Format(fset))
			continue
		}
		if err := sameRun(funcs[fn], mins[fn], ids, panicked); err != nil {
			t.Errorf("function at %s, minimized: %v\nrun %v\n%s", fset.Position(funcs[fn].Body.Pos()), err, ids, mins[fn].Format(fset))
		}
	}
	if activations < 50 {
		t.Errorf("only %d activations recorded", activations)
	}
}

func parseTrace(line string) (fn int, panicked bool, ids []int, err error) {
	fields := strings.Fields(strings.NewReplacer("[", " ", "]", " ").Replace(line))
	if len(fields) < 3 {
		return 0, false, nil, fmt.Errorf("too few fields")
	}
	if fn, err = strconv.Atoi(fields[1]); err != nil {
		return
	}
	panicked = fields[2] == "true"
	for _, s := range fields[3:] {
		id, err := strconv.Atoi(s)
		if err != nil {
			return 0, false, nil, err
		}
		ids = append(ids, id)
	}
	return
}

// checkRun checks one activation's probed blocks against f.
func checkRun(f *Func, ids []int, panicked bool) error {
	if len(ids) == 0 || ids[0] != 0 {
		return fmt.Errorf("does not start at the entry")
	}
	for i := 1; i < len(ids); i++ {
		if ids[i] < 0 || ids[i] >= len(f.Blocks) || !impliedPath(f.Blocks[ids[i-1]], f.Blocks[ids[i]], nil) {
			return fmt.Errorf("no path through implied blocks from block %d to block %d", ids[i-1], ids[i])
		}
	}
	if last := f.Blocks[ids[len(ids)-1]]; !panicked && !impliedPath(last, nil, nil) {
		return fmt.Errorf("returned, but block %d has no path to the exit through implied blocks", last.Index)
	}
	return nil
}

// impliedPath reports whether a path leads from from to to (to the exit when
// to is nil) through implied blocks only.
func impliedPath(from, to *Block, seen map[*Block]bool) bool {
	if to == nil && from.Exit {
		return true
	}
	if seen == nil {
		seen = map[*Block]bool{}
	}
	for _, s := range from.Succs {
		if s == to {
			return true
		}
		if s.Probed() || seen[s] {
			continue
		}
		seen[s] = true
		if impliedPath(s, to, seen) {
			return true
		}
	}
	return false
}

// sameRun checks that min, the minimized graph of full, reconstructs the
// activation ids (recorded with full's probes) as full does.
func sameRun(full, min *Func, ids []int, panicked bool) error {
	want := reconstruct(full, ids, panicked)
	var kept []int
	for _, id := range ids {
		if min.Blocks[id].Probed() {
			kept = append(kept, id)
		}
	}
	got := reconstruct(min, kept, panicked)
	if panicked {
		// Where the panic left the frame is unknown after its last probe.
		if len(got) > len(want) {
			return fmt.Errorf("reconstructed %v, longer than %v", got, want)
		}
		want = want[:len(got)]
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		return fmt.Errorf("probes %v reconstruct %v, want %v", kept, got, want)
	}
	return nil
}

// reconstruct puts the implied blocks back into the probed blocks ids of
// one activation, and the path to the exit after the last one unless it
// panicked: what a trace reader does.
func reconstruct(f *Func, ids []int, panicked bool) []int {
	var out []int
	for i, id := range ids {
		if i > 0 {
			out = append(out, impliedSteps(f.Blocks[ids[i-1]], f.Blocks[id])...)
		}
		out = append(out, id)
	}
	if !panicked && len(ids) > 0 {
		out = append(out, impliedSteps(f.Blocks[ids[len(ids)-1]], nil)...)
	}
	return out
}

// impliedSteps returns the indexes of the implied blocks on the shortest
// path from from to to (to an exit block, included, when to is nil),
// breadth first.
func impliedSteps(from, to *Block) []int {
	if to == nil && from.Exit {
		return nil
	}
	prev := map[*Block]*Block{}
	queue := []*Block{from}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, s := range v.Succs {
			if s == to {
				var rev []int
				for x := v; x != from; x = prev[x] {
					rev = append(rev, x.Index)
				}
				return reverse(rev)
			}
			if s.Probed() || s == from {
				continue
			}
			if _, ok := prev[s]; ok {
				continue
			}
			prev[s] = v
			if to == nil && s.Exit {
				var rev []int
				for x := s; x != from; x = prev[x] {
					rev = append(rev, x.Index)
				}
				return reverse(rev)
			}
			queue = append(queue, s)
		}
	}
	return nil
}

func reverse(s []int) []int {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
	return s
}
