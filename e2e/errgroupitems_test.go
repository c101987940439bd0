package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// errgroupItems is an errgroup fan-out whose workers branch on their item:
// started in another order and paired in the order they reached
// instrumented code in, the workers of two runs met other items, and the
// runs parted at the branch.
const errgroupItems = `package main

import (
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"
)

func main() {
	var g errgroup.Group
	var mu sync.Mutex
	sum := 0
	for i := 0; i < 8; i++ {
		g.Go(func() error {
			if i%2 == 0 {
				mu.Lock()
				sum += i
				mu.Unlock()
			} else {
				mu.Lock()
				sum -= i
				mu.Unlock()
			}
			return nil
		})
	}
	g.Wait()
	fmt.Println(sum)
}

//go:generate divergo instrument ./...
`

// TestErrgroupItems: errgroup's goroutines are named by what started them
// and the function literal they run, and two perturbed runs pair each
// worker with the worker of its item (the order g.Go created them), so
// that the runs take the same paths.
func TestErrgroupItems(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "main.go"), []byte(errgroupItems))
	write(t, filepath.Join(dir, "go.mod"), []byte("module example.com/items\n\ngo 1.26.8\n\nrequire golang.org/x/sync v0.24.0\n"))
	sum, err := os.ReadFile(filepath.Join(repoRoot, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "go.sum"), sum)
	goCmd(t, dir, "generate", "./...")
	bin := filepath.Join(dir, "prog")
	goCmd(t, dir, "build", "-overlay="+filepath.Join(dir, ".divergo", "overlay.json"), "-o", bin, ".")
	const runs = 4
	traces := make([]string, runs)
	for k := range traces {
		traces[k] = filepath.Join(dir, fmt.Sprintf("run-%d.dvt", k+1))
		// Run 1 on one processor, where the Go scheduler runs the last
		// goroutine created first, the others in order (its runnext
		// slot); the others on two, perturbed, where they mostly start in
		// the order g.Go created them.
		extra := []string{"DIVERGO_TRACE=" + traces[k], "GOMAXPROCS=1"}
		if k > 0 {
			extra = []string{"DIVERGO_TRACE=" + traces[k], "GOMAXPROCS=2", fmt.Sprintf("DIVERGO_PERTURB=%d", k)}
		}
		if out := execProg(t, dir, bin, nil, extra...); !strings.Contains(out, "stdout:\n-4\n") {
			t.Fatalf("the program printed:\n%s", out)
		}
	}
	r := readRun(t, traces[0], "")
	workers := 0
	for _, g := range r.gs {
		if strings.HasPrefix(g.Path, "errgroup.Go at main.go:15 #") {
			workers++
		} else if g.Path != "main" {
			t.Errorf("goroutine %s", g.Path)
		}
	}
	if workers != 8 {
		t.Errorf("%d goroutines named errgroup.Go at main.go:15, want 8", workers)
	}
	if _, js, _ := divergo(t, dir, "show", "-json", traces[0]); strings.Count(js, `"creator":"golang.org/x/sync/errgroup.(*Group).Go"`) != 8 {
		t.Errorf("show -json does not give the 8 workers' creator:\n%.1500s", js)
	}
	for k := 1; k < runs; k++ {
		status, stdout, stderr := divergo(t, dir, "diff", traces[0], traces[k])
		if status != 0 || !strings.Contains(stdout, "took the same paths: 9 goroutines matched") {
			t.Errorf("diff of run 1 and run %d: status %d, want the same paths\n%.1500s%s", k+1, status, stdout, stderr)
		}
	}
}
