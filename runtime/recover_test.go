//go:build linux

package runtime

import (
	"bufio"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/trace"
)

// TestKilledAnytime kills a recording program with SIGKILL at random
// moments, 20 times: reading its trace must complete it from the arena
// (recover_linux.go) with every goroutine that said it started, each
// holding a prefix of what it did (its outcomes 0, 1, 2 ... in order, all
// of them if it ended), and goroutines of uninstrumented code their
// creator.
func TestKilledAnytime(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for kill := range 20 {
		cmd, path := child(t, "work")
		out := startOut(t, cmd)
		started := map[uint64]bool{}
		lines := make(chan string)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
		}()
		deadline := time.After(time.Duration(rng.IntN(150)) * time.Millisecond)
	read:
		for {
			select {
			case l := <-lines:
				id, _ := strconv.ParseUint(strings.TrimPrefix(l, "started "), 10, 64)
				started[id] = true
			case <-deadline:
				break read
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		for l := range lines { // what it said before it died
			id, _ := strconv.ParseUint(strings.TrimPrefix(l, "started "), 10, 64)
			started[id] = true
		}
		cmd.Wait()
		if fi, err := os.Stat(path); len(started) == 0 && (os.IsNotExist(err) || err == nil && fi.Size() == 0) {
			continue // killed before main opened the trace, or before it wrote the header
		}
		r, gs := readTrace(t, path)
		if r.Truncated() {
			t.Errorf("kill %d: the trace was not completed", kill)
		}
		byID := map[uint64]goroutine{}
		for _, g := range gs {
			byID[g.info.ID] = g
		}
		for id := range started {
			if _, ok := byID[id]; !ok {
				t.Errorf("kill %d: goroutine %d started and is not in the trace (%d goroutines in it)", kill, id, len(gs))
			}
		}
		for _, g := range gs {
			checkPrefix(t, kill, g)
			if g.info.Parent == 0 && g.info.ID != 1 && g.info.Creator != "github.com/divergo/divergo/runtime.workChild" {
				t.Errorf("kill %d: %s: creator %q, want workChild", kill, g.info.Path, g.info.Creator)
			}
		}
		if t.Failed() {
			return
		}
		t.Logf("kill %d: %d goroutines started, %d in the trace", kill, len(started), len(gs))
	}
}

// checkPrefix checks that a goroutine's outcomes count 0, 1, 2 ... (main's
// waves, a worker's iterations), and that a worker that ended did all of
// its iterations.
func checkPrefix(t *testing.T, kill int, g goroutine) {
	t.Helper()
	next := uint64(0)
	for _, e := range g.events {
		if e.Kind != trace.EvOutcome {
			continue
		}
		if e.Value != next {
			t.Errorf("kill %d: %s: outcome %d after %d, want %d", kill, g.info.Path, e.Value, next, next)
			return
		}
		next++
	}
	if g.info.Ended && next != 1000 && next != 30000 {
		t.Errorf("kill %d: %s ended after %d iterations", kill, g.info.Path, next)
	}
}

// TestSharedPath runs two programs recording to one path at once, as two
// runs with one DIVERGO_TRACE do: the second must not take the first's
// arena from under it (a file truncated under a mapping makes its stores
// SIGBUS), so both live until they are killed.
func TestSharedPath(t *testing.T) {
	first, path := child(t, "work")
	second, _ := child(t, "work")
	second.Env = append(second.Env, "DIVERGO_TRACE="+path)
	var cmds []*exec.Cmd
	for _, cmd := range []*exec.Cmd{first, second} {
		rd := bufio.NewReader(startOut(t, cmd))
		if _, err := rd.ReadString('\n'); err != nil { // a goroutine started: it records
			t.Fatal(err)
		}
		go io.Copy(io.Discard, rd)
		cmds = append(cmds, cmd)
	}
	time.Sleep(100 * time.Millisecond)
	for i, cmd := range cmds {
		cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Errorf("program %d ended with %v, want death by SIGKILL", i+1, err)
		}
	}
}
