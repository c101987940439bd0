package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestExitFromInit: a program that ends in its init, before main runs (a
// log.Fatal on its configuration, an os.Exit from a goroutine the init
// started), does what its plain build does, and leaves a trace of the init
// and the goroutine it started that show, wait and diff read. The trace
// used to open in main.main alone: such a program left no file at all,
// while divergo run named one (Go's test/fixedbugs/issue5963.go).
func TestExitFromInit(t *testing.T) {
	t.Parallel()
	p := prepare(t, "initexit", false)
	plain := filepath.Join(p.dir, "plain")
	goCmd(t, p.dir, "build", "-o", plain, ".")
	for _, c := range []struct {
		mode, want, paths string
	}{
		{"", "exit 0\nstdout:\nconfiguration v1\nstderr:\n", "main main/load@main.go:22#1"},
		{"fatal", "exit 1\nstdout:\nstderr:\ninitexit: bad configuration \"v1\"\n", "main main/load@main.go:22#1"},
		{"exit", "exit 3\nstdout:\nwatchdog: giving up\nstderr:\n", "main main/init#1$1@main.go:28#1 main/load@main.go:22#1"},
	} {
		t.Run(fmt.Sprintf("%q", c.mode), func(t *testing.T) {
			var args []string
			if c.mode != "" {
				args = []string{c.mode}
			}
			if got := execProg(t, p.dir, plain, args); got != c.want {
				t.Fatalf("plain build:\n%s\nwant\n%s", got, c.want)
			}
			var traces []string
			for k := 1; k <= 2; k++ {
				tr := filepath.Join(t.TempDir(), "run.dvt")
				if got := execProg(t, p.dir, p.bin, args, "DIVERGO_TRACE="+tr); got != c.want {
					t.Fatalf("recorded:\n%s\nwant, as the plain build:\n%s", got, c.want)
				}
				traces = append(traces, tr)
			}
			// show first: after log.Fatal's os.Exit, which is not
			// instrumented, reading completes the trace from its arena.
			if code, out, stderr := divergo(t, p.dir, "show", traces[0]); code != 0 || !strings.Contains(out, "trace:      complete") {
				t.Errorf("divergo show: status %d\n%s%s", code, out, stderr)
			}
			r, err := trace.Open(traces[0])
			if err != nil {
				t.Fatalf("reading the trace: %v", err)
			}
			var paths []string
			for _, gi := range r.Sorted() {
				paths = append(paths, gi.Path)
			}
			r.Close()
			if got := strings.Join(paths, " "); got != c.paths {
				t.Errorf("goroutines %s; want %s: main and those its init started", got, c.paths)
			}
			if code, out, stderr := divergo(t, p.dir, "wait", traces[0]); code != 0 {
				t.Errorf("divergo wait: status %d\n%s%s", code, out, stderr)
			}
			if code, out, stderr := divergo(t, p.dir, "diff", traces[0], traces[1]); code > 1 || stderr != "" {
				t.Errorf("divergo diff: status %d\n%s%s", code, out, stderr)
			}
		})
	}
}
