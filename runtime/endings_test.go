//go:build unix

package runtime

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// endingsChild is the child of TestEveryGoroutineOnEveryEnding: main
// starts goroutines in waves, each saying "started ID" once it has its
// recorder and working a while; the twelfth ends the program, by OsExit
// (mode "exitgo") or by a panic nothing recovers ("panicgo"), while
// others are starting and running.
func endingsChild(g *G, mode string) {
	var n atomic.Int32
	for {
		goWorker(g, func(w *G) {
			fmt.Printf("started %d\n", w.id)
			k := n.Add(1)
			for i := range 2000 {
				w.B(bWorkerL)
				w.Outcome(uint64(i))
			}
			if k == 12 {
				if mode == "exitgo" {
					OsExit(3)
				}
				panic("boom")
			}
		})
		time.Sleep(50 * time.Microsecond)
	}
}

// TestEveryGoroutineOnEveryEnding ends a program by OsExit from a
// goroutine and by a goroutine's panic, 20 times each, while goroutines
// start and run: every goroutine that said it started must be in the
// trace.
func TestEveryGoroutineOnEveryEnding(t *testing.T) {
	for _, mode := range []string{"exitgo", "panicgo"} {
		t.Run(mode, func(t *testing.T) {
			lost := 0
			for run := range 20 {
				cmd, path := child(t, mode)
				started := startedLines(t, cmd)
				_, gs := readTrace(t, path)
				in := map[uint64]bool{}
				for _, g := range gs {
					in[g.info.ID] = true
				}
				for id := range started {
					if !in[id] {
						lost++
						t.Errorf("run %d: goroutine %d started and is not in the trace (%d goroutines in it)", run, id, len(gs))
					}
				}
			}
		})
	}
}

// startedLines runs cmd to its end and returns the ids of the goroutines
// it said started.
func startedLines(t *testing.T, cmd *exec.Cmd) map[uint64]bool {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	started := map[uint64]bool{}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if s, ok := strings.CutPrefix(sc.Text(), "started "); ok {
			id, _ := strconv.ParseUint(s, 10, 64)
			started[id] = true
		}
	}
	cmd.Wait()
	return started
}

// smallChild is the child of TestCorruptArena and FuzzRecoverArena: three
// workers record blocks, outcomes and a lock each, then block on a
// receive, and main says "ready"; nothing is written to the trace but its
// header, so a kill leaves every event in the arena.
func smallChild(g *G) {
	var mu sync.Mutex
	never := make(chan int)
	started := make(chan bool)
	for range 3 {
		goWorker(g, func(w *G) {
			for i := range 40 {
				w.B(bWorkerL)
				w.Outcome(uint64(i))
			}
			w.Lock(bWorkerL, &mu)
			w.Unlock(bWorkerL, &mu)
			started <- true
			Recv(w, bWorkerL, never)
		})
	}
	for range 3 {
		<-started
	}
	g.B(bDone)
	os.Stdout.WriteString("ready\n")
	Recv(g, bDone, never)
}
