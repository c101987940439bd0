//go:build ignore

// Equivalence runs the whole test suite of real modules plain and
// recorded unperturbed, and prints, per module, the tests whose outcome
// differs: a recorded run must pass exactly when the plain run passes.
//
// Each module is fetched by version through the module proxy (go mod
// download -json, then copied out of the module cache into a temporary
// directory, never into the repository). The plain suite is go test
// -json -count=N ./...; the recorded one divergo test -n N
// -perturb=false -o DIR ./... with a divergo built from this repository,
// whose run records (DIR/<package>/run-K.json) say how each test ended. A
// test passes when it passed in every run and fails when it failed in
// every run; a test that did both in one of the two is flaky there and
// listed apart, not as a difference, and so is a test the recorded runs'
// traces do not name. Examples are left out: they run on the test
// binary's main goroutine, and a trace names no test for them. A package
// that builds plain and not recorded is a difference.
//
// Usage, from the repository root:
//
//	go run scripts/equivalence.go [-n 2] [-timeout 10m] [-skip RE] [-work DIR] module@version...
//
// -skip leaves tests out of both (a test whose recorded runs write more
// than divergo test's cap per run cannot be compared: say which).
//
// Example:
//
//	go run scripts/equivalence.go golang.org/x/sync@v0.18.0 github.com/sourcegraph/conc@v0.3.0
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/divergo/divergo/scripts/internal/realmod"
)

var (
	runs    = flag.Int("n", 2, "runs of each test, plain and recorded")
	timeout = flag.Duration("timeout", 10*time.Minute, "timeout of a test binary")
	work    = flag.String("work", "", "directory for the modules and traces (default: a temporary one, removed)")
	skip    = flag.String("skip", "", "tests to leave out, plain and recorded (go test -skip)")
)

func main() {
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: go run scripts/equivalence.go [-n N] [-timeout D] [-skip RE] [-work DIR] module@version...")
		os.Exit(2)
	}
	dir := *work
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "divergo-equivalence-"); err != nil {
			fatal(err)
		}
		defer os.RemoveAll(dir)
	}
	dir, _ = filepath.Abs(dir)
	divergo := filepath.Join(dir, "divergo")
	if out, err := exec.Command("go", "build", "-o", divergo, "./cmd/divergo").CombinedOutput(); err != nil {
		fatal(fmt.Errorf("building divergo (run from the repository root): %v\n%s", err, out))
	}
	status := 0
	for _, mv := range flag.Args() {
		if err := module(dir, divergo, mv); err != nil {
			fmt.Printf("%s: %v\n", mv, err)
			status = 1
		}
	}
	os.Exit(status)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "equivalence:", err)
	os.Exit(2)
}

// outcomes are, per package and test, how each run ended: pass, fail
// (panic, timeout and unfinished count as fail).
type outcomes map[string]map[string][]string

func (o outcomes) add(pkg, test, res string) {
	if o[pkg] == nil {
		o[pkg] = map[string][]string{}
	}
	o[pkg][test] = append(o[pkg][test], res)
}

// module tests one module@version and prints what differs.
func module(dir, divergo, mv string) error {
	mod, err := realmod.Fetch(dir, mv)
	if err != nil {
		return err
	}
	env := realmod.Env()

	start := time.Now()
	plainOut, _ := command(mod, env, "go", "test", "-json", fmt.Sprintf("-count=%d", *runs), "-timeout="+timeout.String(), "-skip="+*skip, "./...")
	plainWall := time.Since(start)
	plain, plainBroken := readGoTestJSON(plainOut)

	traces := filepath.Join(dir, "traces-"+filepath.Base(mod))
	os.RemoveAll(traces)
	start = time.Now()
	recOut, _ := command(mod, env, divergo, "test", "-json", "-n", fmt.Sprint(*runs), "-perturb=false", "-o", traces, "./...", "--", "-test.timeout="+timeout.String(), "-test.skip="+*skip)
	recWall := time.Since(start)
	recorded, err := readRecords(traces)
	if err != nil {
		return fmt.Errorf("reading divergo test's records: %w\n%s", err, firstLines(recOut, 5))
	}
	recBroken := readSuiteJSON(recOut)
	os.RemoveAll(traces)

	var diffs, flakes, absent []string
	for _, pkg := range slices.Sorted(maps.Keys(recBroken)) {
		if _, ok := plainBroken[pkg]; !ok {
			diffs = append(diffs, fmt.Sprintf("  %s: builds plain, not recorded: %s", pkg, recBroken[pkg]))
		}
	}
	tests := 0
	for _, pkg := range slices.Sorted(maps.Keys(plain)) {
		for _, test := range slices.Sorted(maps.Keys(plain[pkg])) {
			if _, ok := recBroken[pkg]; ok {
				continue
			}
			if strings.HasPrefix(test, "Example") {
				continue // examples run on the test binary's main goroutine: the trace names no test for them
			}
			tests++
			p, r := class(plain[pkg][test]), class(recorded[pkg][test])
			switch {
			case p == r:
			case r == "absent":
				absent = append(absent, fmt.Sprintf("  %s %s: plain %s, not in the recorded runs' traces", pkg, test, p))
			case p == "skip" || r == "skip":
			case p == "flaky" || r == "flaky":
				flakes = append(flakes, fmt.Sprintf("  %s %s: plain %s, recorded %s", pkg, test, p, r))
			default:
				diffs = append(diffs, fmt.Sprintf("  %s %s: plain %s, recorded %s", pkg, test, p, r))
			}
		}
	}
	fmt.Printf("%s: %d packages, %d tests, %d runs each; %d differ, %d flaky in one of the two, %d not in the traces; plain %s, recorded %s\n",
		mv, len(plain), tests, *runs, len(diffs), len(flakes), len(absent), plainWall.Round(time.Second), recWall.Round(time.Second))
	for _, l := range diffs {
		fmt.Println(l)
	}
	for _, l := range flakes {
		fmt.Println(l)
	}
	for _, l := range absent {
		fmt.Println(l)
	}
	return nil
}

// class is how a test ended over its runs: pass, fail, flaky, skip, or
// absent when it did not run.
func class(rs []string) string {
	if len(rs) == 0 {
		return "absent"
	}
	pass, fail := 0, 0
	for _, r := range rs {
		switch r {
		case "pass":
			pass++
		case "skip":
		default:
			fail++
		}
	}
	switch {
	case pass > 0 && fail > 0:
		return "flaky"
	case fail > 0:
		return "fail"
	case pass > 0:
		return "pass"
	}
	return "skip"
}

func command(dir string, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = os.Stderr
	err := cmd.Run()
	return out.Bytes(), err
}

// readGoTestJSON reads go test -json's events: each test's outcomes, and
// the packages that did not build (a package "fail" with no test run).
func readGoTestJSON(out []byte) (outcomes, map[string]bool) {
	o := outcomes{}
	ran := map[string]bool{}
	failed := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var e struct{ Action, Package, Test string }
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		switch {
		case e.Test != "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			o.add(e.Package, e.Test, e.Action)
			ran[e.Package] = true
		case e.Test == "" && e.Action == "fail":
			failed[e.Package] = true
		}
	}
	broken := map[string]bool{}
	for p := range failed {
		if !ran[p] {
			broken[p] = true
		}
	}
	return o, broken
}

// readRecords reads the run records divergo test -o left below dir.
func readRecords(dir string) (outcomes, error) {
	o := outcomes{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasPrefix(d.Name(), "run-") || !strings.HasSuffix(d.Name(), ".json") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var rec struct {
			Package string
			Tests   map[string]string
		}
		if err := json.Unmarshal(data, &rec); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		for test, res := range rec.Tests {
			o.add(rec.Package, test, res)
		}
		return nil
	})
	return o, err
}

// readSuiteJSON reads the packages divergo test -json says did not build
// or could not be run.
func readSuiteJSON(out []byte) map[string]string {
	var rep struct {
		Packages []struct{ Package, Broken, Error string }
	}
	broken := map[string]string{}
	if json.Unmarshal(out, &rep) != nil {
		return broken
	}
	for _, p := range rep.Packages {
		if p.Broken != "" || p.Error != "" {
			broken[p.Package] = p.Broken + p.Error
		}
	}
	return broken
}

func firstLines(b []byte, n int) string {
	lines := strings.SplitN(string(b), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
