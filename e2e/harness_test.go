package e2e

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
	"github.com/divergo/divergo/waittime"

	// trace.Open completes a trace whose run died (a test binary's
	// timeout, a kill) from its arena, as divergo's commands do: the
	// runtime package sets the recovery (cmd/divergo/recover.go).
	_ "github.com/divergo/divergo/runtime"
)

var (
	repoRoot  string // the divergo module
	binDir    string // holds the divergo binary, first on PATH
	sharedDir string // holds what the tests build once for all (sharedCorpus)
)

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	flag.Parse()
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	repoRoot = filepath.Dir(wd)
	if testing.Short() {
		// go test -short ./... is the quick loop: it runs what reads the
		// committed traces and builds nothing (skipBuilds), and CI runs the
		// whole suite.
		return m.Run()
	}
	binDir, err = os.MkdirTemp("", "divergo-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(binDir)
	sharedDir, err = os.MkdirTemp("", "divergo-e2e-shared-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(sharedDir)
	cmd := exec.Command("go", "build", "-o", filepath.Join(binDir, "divergo"), "./cmd/divergo")
	cmd.Dir = repoRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building divergo: %v\n%s", err, out)
		return 2
	}
	return m.Run()
}

// skipBuilds skips t under -short: it builds divergo, instrumented
// programs or a module, or runs them, where the quick loop runs only what
// reads the traces committed under testdata. The helpers that build call
// it, so that a test that builds skips wherever it first does.
func skipBuilds(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs programs; -short runs only what reads committed traces")
	}
}

// env is the environment of every command the tests run: the divergo
// binary first on PATH, offline, no workspace.
func env(extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "GOFLAGS=") && !strings.HasPrefix(kv, "DIVERGO_TRACE=") {
			out = append(out, kv)
		}
	}
	out = append(out, "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"), "GOWORK=off", "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=")
	return append(out, extra...)
}

// setup copies testdata/prog into a new module, which requires divergo
// (through a replace of the repository) only when it is to run divergo as
// a tool of the module, and returns its directory.
func setup(t *testing.T, prog string, tool bool) string {
	t.Helper()
	skipBuilds(t)
	dir := t.TempDir()
	src := filepath.Join(repoRoot, "testdata", prog)
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	xsync := false
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "main.go" && !bytes.Contains(data, []byte("//go:generate ")) {
			// The papers' figures are shared with the analyzer's tests and
			// carry no directive: add one after the last line.
			data = append(data, "\n//go:generate divergo instrument ./...\n"...)
		}
		if tool {
			data = bytes.ReplaceAll(data, []byte("//go:generate divergo "), []byte("//go:generate go tool divergo "))
		}
		write(t, filepath.Join(dir, e.Name()), data)
		xsync = xsync || bytes.Contains(data, []byte(`"golang.org/x/sync/`))
	}
	gomod := "module example.com/" + prog + "\n\ngo 1.26.8\n"
	if !tool {
		// The recorder comes with the overlay: the module needs nothing
		// but x/sync for a program that imports it (from divergo's
		// go.sum, which has it, and the module cache: offline).
		if xsync {
			gomod += "\nrequire golang.org/x/sync v0.24.0\n"
			writeSum(t, dir)
		}
		write(t, filepath.Join(dir, "go.mod"), []byte(gomod))
		return dir
	}
	// divergo as a tool of the module, as a user adds it once it is
	// published (go get -tool): here through a replace of the repository.
	gomod += "\nrequire github.com/divergo/divergo v0.0.0\n\nreplace github.com/divergo/divergo => " + repoRoot + "\n\ntool github.com/divergo/divergo/cmd/divergo\n"
	write(t, filepath.Join(dir, "go.mod"), []byte(gomod))
	writeSum(t, dir)
	return dir
}

// writeSum gives the module in dir divergo's go.sum.
func writeSum(t *testing.T, dir string) {
	t.Helper()
	sum, err := os.ReadFile(filepath.Join(repoRoot, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "go.sum"), sum)
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o666); err != nil {
		t.Fatal(err)
	}
}

// snapshot hashes every file of the module outside .divergo, so that the
// tests can check that instrumenting and building touched none.
func snapshot(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".divergo" {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() == "prog" || strings.HasSuffix(p, ".dvt") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[p] = sha256.Sum256(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return goCmdEnv(t, dir, nil, args...)
}

// goCmdEnv is goCmd with extra variables, which override env's.
func goCmdEnv(t *testing.T, dir string, extra []string, args ...string) string {
	t.Helper()
	skipBuilds(t)
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, env(extra...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// program is one instrumented, built test program.
type program struct {
	dir, bin string
}

// prepare sets up testdata/prog, runs go generate and builds it with the
// overlay, checking that the module's own files did not change.
func prepare(t *testing.T, prog string, tool bool) *program {
	t.Helper()
	dir := setup(t, prog, tool)
	if tool {
		// tidy wants the modules that tests of divergo's dependencies import
		// (go-cmp, for golang.org/x/tools), which building divergo never
		// downloads: on a fresh machine only the module proxy has them, so
		// this one command runs with the caller's GOPROXY (when empty, go
		// env -w's or Go's default), as a user's go mod tidy would.
		goCmdEnv(t, dir, []string{"GOPROXY=" + os.Getenv("GOPROXY")}, "mod", "tidy")
	}
	before := snapshot(t, dir)
	out := goCmd(t, dir, "generate", "./...")
	if !strings.Contains(out, "go build -overlay="+filepath.Join(dir, ".divergo", "overlay.json")) {
		t.Errorf("go generate did not say how to build:\n%s", out)
	}
	bin := filepath.Join(dir, "prog")
	goCmd(t, dir, "build", "-overlay="+filepath.Join(dir, ".divergo", "overlay.json"), "-o", bin, ".")
	after := snapshot(t, dir)
	if len(after) != len(before) {
		t.Errorf("module files: %d before, %d after go generate and build", len(before), len(after))
	}
	for p, h := range before {
		if after[p] != h {
			t.Errorf("%s changed", p)
		}
	}
	return &program{dir: dir, bin: bin}
}

// corpusProgram is the program name of the corpus module (sharedCorpus),
// instrumented and built once for every test that takes it: for the tests
// that run a program and read what it recorded, not how go generate and
// the build went (prepare checks those) nor the graph of one program
// alone (the corpus's graph holds every program's).
func corpusProgram(t *testing.T, name string) *program {
	t.Helper()
	b := builtReal(t, name)
	return &program{dir: b.dir, bin: b.bin}
}

// run runs the program once, recording into a new trace, and reads it.
func (p *program) run(t *testing.T, args ...string) *run {
	t.Helper()
	tr := filepath.Join(t.TempDir(), "run.dvt")
	cmd := exec.Command(p.bin, args...)
	cmd.Dir, cmd.Env = p.dir, env("DIVERGO_TRACE="+tr)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("running: %v\n%s", err, stderr.Bytes())
	}
	return readRun(t, tr, stdout.String())
}

// run is one recorded execution, decoded in memory (the programs are
// small).
type run struct {
	stdout string
	graph  *tbb.Graph
	gs     []*gor
	byID   map[uint64]*gor
}

type gor struct {
	trace.GoroutineInfo
	evs []trace.Event
}

func readRun(t *testing.T, path, stdout string) *run {
	t.Helper()
	r, err := trace.Open(path)
	if err != nil {
		t.Fatalf("reading the trace: %v", err)
	}
	defer r.Close()
	if r.Truncated() {
		t.Errorf("trace of a clean run is truncated")
	}
	checkProfileTotal(t, r)
	res := &run{stdout: stdout, graph: r.Graph(), byID: map[uint64]*gor{}}
	for _, gi := range r.Sorted() {
		g := &gor{GoroutineInfo: gi}
		it, err := r.Events(gi.ID)
		if err != nil {
			t.Fatal(err)
		}
		for it.Next() {
			g.evs = append(g.evs, it.Event())
		}
		if err := it.Err(); err != nil {
			t.Fatalf("reading %s: %v", gi.Path, err)
		}
		res.gs = append(res.gs, g)
		res.byID[g.ID] = g
	}
	return res
}

// checkProfileTotal explains the waiting time of every trace the tests
// read and requires the pprof profile's values to add up to the report's
// waiting time within 1% (a profile once held 31.8 s against 1.96 s of waiting
// in the text).
func checkProfileTotal(t *testing.T, r *trace.Reader) {
	t.Helper()
	rep, err := waittime.Analyze(r, waittime.Options{})
	if err != nil {
		t.Errorf("waiting time: %v", err)
		return
	}
	p, err := rep.Profile()
	if err != nil {
		t.Errorf("waiting-time profile: %v", err)
		return
	}
	var total int64
	for _, s := range p.Sample {
		total += s.Value[0]
	}
	if d := total - rep.TotalNs; 100*max(d, -d) > rep.TotalNs {
		t.Errorf("waiting-time profile adds up to %s, the report to %s", waittime.FormatNs(total), waittime.FormatNs(rep.TotalNs))
	}
}
