package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// suiteJSON is the part of divergo test -json's report of several
// packages the tests read.
type suiteJSON struct {
	Packages []struct {
		Package string
		NoTests bool `json:"no_tests"`
		Broken  string
		Error   string
		Report  *struct {
			Runs   int
			Flaky  []struct{ Name string }
			Failed []struct{ Name string }
		}
	}
}

// TestSuite runs divergo test ./... on a module of five packages
// (testdata/suite.txtar): a worker pool whose tests pass, recorded as
// plain (one keeps the last value of a range over a closed channel), a
// test decided by a map's iteration order, a test that fails in every run,
// a package with no test files and one whose tests do not build. The
// report is grouped by package in go list's order, a line for each
// package without runs; the status is 2, as a package did not build.
// Then the same suite in three shards, which split the packages and, at
// their edges, the runs of one package: each shard's directory holds a
// directory per package it ran, a shard after the first reuses the
// module's one instrumentation, and -explain of the three directories
// gives the report of every package that ran.
//
// TestFirst fails in about half of the runs: 12 runs all alike come once
// in 2048 invocations.
func TestSuite(t *testing.T) {
	t.Parallel()
	dir := extract(t, filepath.Join("testdata", "suite.txtar"))
	status, stdout, stderr := divergo(t, dir, "test", "-n", "12", "./...")
	expect(t, "status of divergo test ./... with a package that does not build", status, 2)
	at := 0
	for _, want := range []string{
		"example.com/suite/broken: does not build: broken/broken_test.go:6:14: cannot use Name()",
		"example.com/suite/failing: 12 runs",
		"TestAnswer failed in every run",
		"failing_test.go:7: answer 41, want 42",
		"example.com/suite/notests: no test files",
		"example.com/suite/order: 12 runs",
		"TestFirst: ",
		"example.com/suite/pool: 12 runs",
		"no flaky test",
		"5 packages: 3 tested, 1 with a flaky test, 1 with a test failing in every run, 1 with no test files, 1 not built or not run",
	} {
		i := strings.Index(stdout[at:], want)
		if i < 0 {
			t.Fatalf("no %q after offset %d of the report:\n%s\n%s", want, at, stdout, stderr)
		}
		at += i + len(want)
	}
	if pool := stdout[strings.Index(stdout, "example.com/suite/pool:"):]; strings.Contains(pool, "failed in every run") || strings.Contains(pool, "runs failed") {
		t.Errorf("a test of pool failed recorded; plain, they all pass:\n%s", pool)
	}

	// Three shards of the 48 runs: broken (runs 0-11, not built), failing
	// (12-23), order (24-35) and pool (36-47) in blocks of 16.
	var dirs []string
	for _, k := range []string{"1", "2", "3"} {
		out := filepath.Join(dir, "shard-"+k)
		dirs = append(dirs, out)
		status, stdout, stderr := divergo(t, dir, "test", "-n", "12", "-shard", k+"/3", "-o", out, "./...")
		want := 0
		if k == "1" {
			want = 2 // broken's share
			if !strings.Contains(stdout, "example.com/suite/broken: does not build") {
				t.Errorf("shard 1 does not say broken does not build:\n%s", stdout)
			}
		}
		if status != want || !strings.Contains(stdout, "shard "+k+"/3: ") || !strings.Contains(stdout, " of 48 runs") {
			t.Fatalf("divergo test -shard %s/3: status %d, want %d\n%s\n%s", k, status, want, stdout, stderr)
		}
		if !strings.Contains(stderr, "nothing changed: reused") {
			t.Errorf("shard %s instrumented again instead of reusing the suite's instrumentation:\n%s", k, stderr)
		}
	}
	for _, f := range []string{
		"shard-1/example.com/suite/failing/run-4.json",
		"shard-2/example.com/suite/failing/run-5.json",
		"shard-2/example.com/suite/order/run-8.json",
		"shard-3/example.com/suite/order/run-9.json",
		"shard-3/example.com/suite/pool/run-12.json",
	} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the shards did not split the runs as blocks of 16 of 48: %v", err)
		}
	}
	status, stdout, stderr = divergo(t, dir, append([]string{"test", "-explain", "-json"}, dirs...)...)
	expect(t, "status of -explain of the shards (a flaky test, a failing one)", status, 1)
	var rep suiteJSON
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("-explain -json: %v\n%s\n%s", err, stdout, stderr)
	}
	got := map[string]string{}
	for _, p := range rep.Packages {
		if p.Report == nil || p.Report.Runs != 12 {
			t.Errorf("%s: no report of 12 runs merged from the shards (%s)", p.Package, p.Error)
			continue
		}
		var names []string
		for _, f := range p.Report.Flaky {
			names = append(names, "flaky "+f.Name)
		}
		for _, f := range p.Report.Failed {
			names = append(names, "failed "+f.Name)
		}
		got[p.Package] = strings.Join(names, ",")
	}
	want := map[string]string{
		"example.com/suite/failing": "failed TestAnswer",
		"example.com/suite/order":   "flaky TestFirst",
		"example.com/suite/pool":    "",
	}
	if len(got) != len(want) {
		t.Errorf("-explain reported %v, want %v", got, want)
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: %q, want %q", p, got[p], w)
		}
	}

	// One package's shards, named by its directory and by its import
	// path: runs of one package.
	for k, name := range []string{"./order", "example.com/suite/order"} {
		sh := fmt.Sprintf("%d/2", k+1)
		if status, stdout, stderr := divergo(t, dir, "test", "-n", "4", "-shard", sh, "-o", filepath.Join(dir, "named-"+sh[:1]), name); status != 0 {
			t.Fatalf("divergo test -shard %s %s: status %d\n%s\n%s", sh, name, status, stdout, stderr)
		}
	}
	status, stdout, stderr = divergo(t, dir, "test", "-explain", filepath.Join(dir, "named-1"), filepath.Join(dir, "named-2"))
	if (status != 0 && status != 1) || !strings.HasPrefix(stdout, "example.com/suite/order: 4 runs") {
		t.Errorf("-explain of shards made as ./order and as its import path: status %d\n%s\n%s", status, stdout, stderr)
	}
}
