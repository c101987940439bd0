package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// samePathsProgs are the programs of TestSamePathsShapes.
var samePathsProgs = []string{
	"echoserver", "errfetch", "pubsub", "dirwalk", "condqueue",
	"poolresults", "poolsem", "ratelimit", "ratelimitburst", "ctxpipeline", "ctxfanout",
	"syncmapcache", "rwcache", "httphandlers", "httpshutdown",
}

// TestSamePathsShapes: programs in the shapes of public examples, each of
// which does the same in every run (its input fixed, its goroutines'
// outcomes decided by what they are given, not by who comes first), are
// run twice unperturbed, and divergo diff must say they took the same
// paths and exit 0. A parting here is a false one: a value whose bits are
// an address (a net.Conn as a map key), goroutines paired by id rather than
// by creation, or a section that did not converge.
//
// Each shape after the first five is written in two styles: a worker pool
// handing each worker its jobs (poolresults) and one goroutine per job
// under a semaphore (poolsem); a time.Ticker limiter (ratelimit) and a
// bursty one (ratelimitburst); a context-cancelled pipeline (ctxpipeline)
// and a fan-out under a deadline (ctxfanout); a sync.Map cache
// (syncmapcache) and an RWMutex one (rwcache); an HTTP server with
// handlers on httptest (httphandlers) and an http.Server shut down
// gracefully (httpshutdown).
func TestSamePathsShapes(t *testing.T) {
	t.Parallel()
	for _, prog := range samePathsProgs {
		t.Run(prog, func(t *testing.T) {
			t.Parallel()
			p := prepare(t, prog, false)
			var traces []string
			for i := range 2 {
				tr := filepath.Join(t.TempDir(), fmt.Sprintf("run-%d.dvt", i+1))
				cmd := exec.Command(p.bin)
				cmd.Dir, cmd.Env = p.dir, env("DIVERGO_TRACE="+tr)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("run %d: %v\n%s", i+1, err, out)
				}
				traces = append(traces, tr)
			}
			status, out, errs := divergo(t, p.dir, "diff", traces[0], traces[1])
			if status != 0 || !strings.Contains(out, "took the same paths") {
				t.Errorf("divergo diff of two unperturbed runs: exit %d, want 0 and the same paths\n%s%s", status, out, errs)
			}
		})
	}
}
