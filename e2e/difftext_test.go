package e2e

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The diff report's first screen on programs with many divergences, in
// the shape of well-known public examples (testdata/statefulserver: a
// stateful goroutine owning a map; fanin: a fan-out/fan-in pipeline;
// workerpool: a worker pool), and on one whose goroutines leak in some runs
// (leakrace). The traces are recorded once and kept in
// testdata/difftext, so that the goldens are exact; go test -run
// TestDiffText -record -update records them again (after a format change)
// and rewrites the goldens.

var record = flag.Bool("record", false, "record the traces of TestDiffText again")

var diffPrograms = []string{"statefulserver", "fanin", "workerpool", "leakrace"}

func TestDiffText(t *testing.T) {
	t.Parallel()
	for _, prog := range diffPrograms {
		t.Run(prog, func(t *testing.T) {
			a := filepath.Join("testdata", "difftext", prog+"-a.dvt")
			b := filepath.Join("testdata", "difftext", prog+"-b.dvt")
			if *record {
				recordDiffering(t, prog, a, b)
			}
			a, b = abs(t, a), abs(t, b)
			// The module's source, so that the report quotes its lines.
			dir := setup(t, prog, false)
			status, out, errs := divergo(t, dir, "diff", a, b)
			if status != 1 {
				t.Fatalf("diff: status %d, want 1 (the runs differ)\n%s%s", status, out, errs)
			}
			goldenFile(t, filepath.Join("difftext", prog+".golden"), out)

			// The first screen: the summary, at most ten statements, the
			// footer; paper vocabulary only after the plain words.
			lines := strings.Split(out, "\n")
			if !strings.HasSuffix(lines[0], "took different paths.") {
				t.Errorf("first line %q", lines[0])
			}
			groups := 0
			for _, l := range lines {
				if len(l) > 2 && l[0] >= '1' && l[0] <= '9' && strings.Contains(l, ". ") && strings.Contains(l, ".go:") {
					groups++
				}
			}
			if groups == 0 || groups > 10 {
				t.Errorf("%d groups on the first screen, want 1 to 10", groups)
			}
			if i, j := strings.Index(out, "first parted"), strings.Index(out, "distance "); i < 0 || j < i {
				t.Errorf("the distance comes before the plain summary")
			}
			var rep struct {
				Summary struct {
					Sections, Unflagged int
				}
				Groups []struct {
					Sections []int
				}
			}
			_, js, _ := divergo(t, dir, "diff", "-json", a, b)
			if err := json.Unmarshal([]byte(js), &rep); err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, g := range rep.Groups {
				n += len(g.Sections)
			}
			if n != rep.Summary.Sections {
				t.Errorf("groups hold %d sections, the report %d", n, rep.Summary.Sections)
			}
			if rep.Summary.Unflagged != 0 {
				t.Errorf("%d unflagged sections: goroutines that stop at exit or block for ever are not holes", rep.Summary.Unflagged)
			}
		})
	}
}

// recordDiffering builds prog and runs it under seeds 1, 2, ... until two
// runs differ, and keeps those two traces as a and b.
func recordDiffering(t *testing.T, prog, a, b string) {
	t.Helper()
	p := prepare(t, prog, false)
	tmp := t.TempDir()
	var paths []string
	for seed := 1; seed <= 12; seed++ {
		tr := filepath.Join(tmp, fmt.Sprintf("run-%d.dvt", seed))
		cmd := exec.Command(p.bin)
		cmd.Dir, cmd.Env = p.dir, env("DIVERGO_TRACE="+tr, fmt.Sprintf("DIVERGO_PERTURB=%d", seed))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, out)
		}
		for _, prev := range paths {
			if status, _, _ := divergo(t, p.dir, "diff", prev, tr); status == 1 {
				copyFile(t, prev, a)
				copyFile(t, tr, b)
				return
			}
		}
		paths = append(paths, tr)
	}
	t.Fatalf("%s: 12 runs took the same paths", prog)
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
		t.Fatal(err)
	}
	write(t, dst, data)
}

func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
