package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunLibrary checks that run and check on a package without main say
// in one line to use divergo test, instead of failing to execute a binary
// go build never wrote.
func TestRunLibrary(t *testing.T) {
	dir := setup(t, "counter", false)
	for _, cmd := range []string{"run", "check"} {
		status, _, stderr := divergo(t, dir, cmd, ".")
		expect(t, "status of divergo "+cmd+" on a library", status, 2)
		line := strings.TrimSpace(stderr)
		if strings.Count(line, "\n") != 0 || !strings.Contains(line, "not a command") || !strings.Contains(line, "divergo test") {
			t.Errorf("divergo %s on a library: want one line pointing to divergo test, got:\n%s", cmd, stderr)
		}
	}
}

// TestCgo checks that a module with one file importing "C" instruments
// (that file left as it is, one warning), builds and records: the two
// goroutines that call into C are recorded under main, and the program's
// output is unchanged.
func TestCgo(t *testing.T) {
	cc := strings.TrimSpace(goCmd(t, repoRoot, "env", "CC"))
	if _, err := exec.LookPath(cc); err != nil || strings.TrimSpace(goCmd(t, repoRoot, "env", "CGO_ENABLED")) != "1" {
		t.Skipf("no C compiler (%q) or cgo disabled: cgo cannot be tested here", cc)
	}
	dir := setup(t, "cgoadd", false)
	status, _, stderr := divergo(t, dir, "instrument", "./...")
	expect(t, "status of instrument", status, 0)
	if n := strings.Count(stderr, "divergo: warning: add.go: uses cgo; not instrumented"); n != 1 {
		t.Errorf("want one cgo warning for add.go, got %d:\n%s", n, stderr)
	}
	if strings.Contains(stderr, "main.go") {
		t.Errorf("main.go should be instrumented without a warning:\n%s", stderr)
	}
	bin := filepath.Join(dir, "prog")
	goCmd(t, dir, "build", "-overlay="+filepath.Join(dir, ".divergo", "overlay.json"), "-o", bin, ".")
	r := (&program{dir: dir, bin: bin}).run(t)
	expect(t, "program output", r.stdout, "sums 10 11\n")
	var paths []string
	for _, g := range r.gs {
		paths = append(paths, g.Path)
	}
	expect(t, "goroutines", strings.Join(paths, " "), "main main/main$1@main.go:19#1 main/main$1@main.go:19#2")
}
