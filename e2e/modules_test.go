package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestModulesAsTheyAre runs divergo run and divergo test on modules in the
// shapes real ones come in (testdata/modules: a go 1.16 line whose loop
// variable is shared, a vendor directory with a 2019 x/tools, a go.work
// workspace), checked out as they are: nothing of the module changes, the
// recorded program prints what the plain one prints (the old loop
// semantics kept), and the instrumented binary links exactly the modules
// the plain one does.
func TestModulesAsTheyAre(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		archive, pkg string // the module's archive, the package run in its tree
		out          string // what the program prints, plain and recorded
		testFails    string // a test that fails in every run, or ""
	}{
		{"loopvar16", ".", "[3 3 3]\n", "TestCollect"},
		{"vendored", ".", "distinct: 82\n", ""},
		{"workspace", "app", "count: 8\n", ""},
		{"old113", ".", "sum: 64\n", ""},
	} {
		t.Run(tc.archive, func(t *testing.T) {
			root := extract(t, filepath.Join("testdata", "modules", tc.archive+".txtar"))
			dir := filepath.Join(root, tc.pkg)
			// A workspace is found from the module's directory, as a user's
			// is; env's GOWORK=off would hide it.
			extra := []string{"GOWORK="}
			before := snapshot(t, root)

			plain := filepath.Join(t.TempDir(), "plain")
			goCmdEnv(t, dir, extra, "build", "-o", plain, ".")
			if got := execOut(t, dir, plain, extra); got != tc.out {
				t.Fatalf("the plain program printed %q, want %q", got, tc.out)
			}

			traces := t.TempDir()
			cmd := exec.Command(filepath.Join(binDir, "divergo"), "run", "-n", "1", "-o", traces, ".")
			cmd.Dir, cmd.Env = dir, env(extra...)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("divergo run: %v\n%s", err, out)
			}
			if !strings.Contains(string(out), tc.out) {
				t.Errorf("recorded, the program did not print %q:\n%s", tc.out, out)
			}
			if r := readRun(t, filepath.Join(traces, "run-1.dvt"), ""); len(r.gs) < 2 {
				t.Errorf("the trace holds %d goroutines, want main and its workers", len(r.gs))
			}

			cmd = exec.Command(filepath.Join(binDir, "divergo"), "test", "-n", "2", ".")
			cmd.Dir, cmd.Env = dir, env(extra...)
			out, err = cmd.CombinedOutput()
			if code, want := exitCode(err), map[bool]int{false: 0, true: 1}[tc.testFails != ""]; code != want {
				t.Fatalf("divergo test: exit %d, want %d\n%s", code, want, out)
			}
			if tc.testFails != "" && !strings.Contains(string(out), tc.testFails+" failed in every run") {
				t.Errorf("divergo test does not report %s failing in every run, as it does plain:\n%s", tc.testFails, out)
			}

			inst := filepath.Join(t.TempDir(), "inst")
			goCmdEnv(t, dir, extra, "build", "-overlay="+filepath.Join(moduleRoot(t, dir), ".divergo", "overlay.json"), "-o", inst, ".")
			if p, i := linkedModules(t, plain), linkedModules(t, inst); p != i {
				t.Errorf("the instrumented binary links other modules than the plain one:\nplain:\n%s\ninstrumented:\n%s", p, i)
			}
			after := snapshot(t, root)
			for p, h := range before {
				if after[p] != h {
					t.Errorf("%s changed", p)
				}
			}
			for p := range after {
				if _, ok := before[p]; !ok {
					t.Errorf("%s is new in the module", p)
				}
			}
		})
	}
}

// extract writes a txtar archive's files below a new directory and returns
// it.
func extract(t *testing.T, archive string) string {
	t.Helper()
	a, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range a.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		write(t, p, f.Data)
	}
	return dir
}

// execOut runs bin in dir and returns its standard output.
func execOut(t *testing.T, dir, bin string, extra []string) string {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Dir, cmd.Env = dir, env(extra...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	return string(out)
}

// exitCode is a command's exit status: 0 for no error, -1 when it did not
// run.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}

// moduleRoot is the root of the module dir is in.
func moduleRoot(t *testing.T, dir string) string {
	t.Helper()
	out := goCmdEnv(t, dir, []string{"GOWORK=off"}, "env", "GOMOD")
	return filepath.Dir(strings.TrimSpace(out))
}

// linkedModules lists the modules a binary was built from, as go version
// -m reports them: the main module and every dependency with its version.
func linkedModules(t *testing.T, bin string) string {
	t.Helper()
	var b strings.Builder
	for _, l := range strings.Split(goCmd(t, filepath.Dir(bin), "version", "-m", bin), "\n") {
		if f := strings.Fields(l); len(f) >= 3 && (f[0] == "mod" || f[0] == "dep" || f[0] == "=>") {
			b.WriteString(strings.Join(f[:3], " ") + "\n")
		}
	}
	return b.String()
}
