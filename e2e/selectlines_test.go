package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSelectCaseLines diffs two runs of testdata/selectlines, whose select
// picks its case at random, and requires every section at the select to
// say which case each run took by the line of its case keyword: the case
// whose body starts on the next line was once named at that line.
func TestSelectCaseLines(t *testing.T) {
	t.Parallel()
	p := corpusProgram(t, "selectlines")
	src, err := os.ReadFile(filepath.Join(p.dir, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	caseLines := map[string]bool{}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "case v := <-") {
			caseLines[fmt.Sprint(i+1)] = true
		}
	}
	if len(caseLines) != 2 {
		t.Fatalf("found the case lines %v in the program, want 2", caseLines)
	}
	took := regexp.MustCompile(`^took the case at line (\d+)$`)
	for try := 1; ; try++ {
		a, b := p.runFile(t, 2*try-1), p.runFile(t, 2*try)
		status, out, errs := divergo(t, p.dir, "diff", "-json", a, b)
		if status == 0 && try < 4 {
			continue // the select chose alike all along: another pair
		}
		if status != 1 {
			t.Fatalf("diff: status %d, want 1 (the runs took other cases)\n%s", status, errs)
		}
		var rep struct {
			Sections []struct {
				TCP  struct{ Kind string }
				A, B struct{ Took string }
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, s := range rep.Sections {
			if s.TCP.Kind != "select" {
				continue
			}
			for _, w := range []string{s.A.Took, s.B.Took} {
				m := took.FindStringSubmatch(w)
				if m == nil || !caseLines[m[1]] {
					t.Errorf("a run %q; want \"took the case at line N\" for a case line N of %v", w, caseLines)
					continue
				}
				seen[m[1]] = true
			}
		}
		if len(seen) != 2 {
			t.Errorf("the sections at the select named the cases %v, want both of %v", seen, caseLines)
		}
		return
	}
}

// runFile runs the program once under DIVERGO_PERTURB=seed and returns its
// trace.
func (p *program) runFile(t *testing.T, seed int) string {
	t.Helper()
	tr := filepath.Join(t.TempDir(), "run.dvt")
	recordSeed(t, p.dir, p.bin, nil, tr, seed, nil)
	return tr
}
