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
func TestProbesRun(t *testing.T) {
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
	var funcs []*Func
	var eds []insertion
	for fn, body := range funcBodies(file) {
		f := Build(fset, body, allOracle{fset}, mayReturnTest)
		funcs = append(funcs, f)
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
