package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
	"github.com/google/pprof/profile"
)

// TestNetPprof: testdata/netpprof asks net/http/pprof's handler for a
// CPU profile while its workers hash, and prints its goroutine count and
// goroutine profile's total before and after. Recorded with no
// environment variable but the trace's, so with divergo's CPU samples on,
// it prints and exits as its plain build does: the handler, which divergo
// does not compile, gets the profiler (and its profile has the workers'
// samples), divergo's reader goroutine is counted nowhere, and Go's
// runtime prints nothing about a profile already running. Divergo's own
// samples are beside the trace, around the handler's.
func TestNetPprof(t *testing.T) {
	t.Parallel()
	p := prepare(t, "netpprof", false)
	tmp := t.TempDir()
	plain := filepath.Join(tmp, "plain")
	goCmd(t, p.dir, "build", "-o", plain, ".")
	plainProf, recProf := filepath.Join(tmp, "plain.pprof"), filepath.Join(tmp, "rec.pprof")
	want := execProg(t, p.dir, plain, []string{plainProf})
	tr := filepath.Join(tmp, "run.dvt")
	got := execProg(t, p.dir, p.bin, []string{recProf}, "DIVERGO_TRACE="+tr)
	if got != want || !strings.Contains(got, "profile: status 200, gzipped true") ||
		!strings.Contains(got, "before: NumGoroutine 1, goroutine profile: total 1\n") {
		t.Fatalf("recorded:\n%s\nplain:\n%s", got, want)
	}
	for _, f := range []string{plainProf, recProf} {
		if n := sampled(t, f, "crypto/sha256."); n == 0 {
			t.Errorf("%s: no sample hashing", f)
		}
	}
	if _, err := os.Stat(trace.CPUProfileBeside(tr)); err != nil {
		t.Errorf("divergo's samples beside the trace: %v", err)
	}
}

// sampled counts a CPU profile's samples with a function whose name
// begins with prefix on the stack.
func sampled(t *testing.T, path, prefix string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	n := 0
	for _, s := range p.Sample {
	stack:
		for _, l := range s.Location {
			for _, ln := range l.Line {
				if ln.Function != nil && strings.HasPrefix(ln.Function.Name, prefix) {
					n++
					break stack
				}
			}
		}
	}
	return n
}
