//go:build unix

package runtime

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/trace"
)

// TestMain lets tests re-run the test binary as an instrumented program:
// DVG_CHILD names what the child does.
func TestMain(m *testing.M) {
	if mode := os.Getenv("DVG_CHILD"); mode == "offinit" {
		// What an instrumented function's first statement asks, before
		// anything has called Main or Enter.
		fmt.Println(Off())
		return
	} else if mode == "quiet" {
		quietChild()
		return
	} else if mode != "" {
		childMain(mode)
		return
	}
	os.Exit(m.Run())
}

// childMain is the "main.main" of an instrumented program, written the way
// the instrumenter writes it.
func childMain(mode string) {
	g := Main(graphForChild(), bMain)
	defer g.Exit(bMain)
	switch mode {
	case "wait": // workers work, then block; main says ready once they have, and waits for a signal
		started := make(chan bool)
		for range 3 {
			goWorker(g, func(w *G) {
				for range 100000 {
					w.B(bWorkerL)
				}
				started <- true
				select {} // alive, but not filling the disk
			})
		}
		for range 3 {
			<-started
		}
		for range 200000 { // several chunks on disk before the kill
			g.B(bDone)
		}
		waitWritten()
		fmt.Println("ready")
		time.Sleep(time.Minute)
	case "notify": // the program catches SIGTERM itself, then returns
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGTERM)
		fmt.Println("ready")
		fmt.Println(<-ch)
	case "work": // goroutines work until killed (TestKilledAnytime)
		workChild(g)
	case "exit":
		var wg sync.WaitGroup
		g.WGAdd(bSpawn, &wg, 1)
		c := g.Spawn(bSpawn)
		ended := make(chan struct{})
		go func() {
			defer close(ended) // after Done: the worker's stream has ended
			cg := c.Start()
			defer c.Done()
			Enter(bWorker).Exit(bWorker)
			cg.WGDone(bWorker, &wg)
		}()
		g.WGWait(bDone, &wg)
		// WGDone comes before the worker's Done: without this wait the
		// program could exit between the two, rarely (once under -race on
		// a loaded machine), and the worker rightly not have ended.
		<-ended
		OsExit(3)
	case "panic":
		c := g.Spawn(bSpawn)
		g.B(bDone)
		go func() {
			c.Start()
			defer c.Done()
			w := Enter(bWorker)
			defer w.Exit(bWorker)
			panic("boom in worker")
		}()
		time.Sleep(time.Minute)
	case "deadlock": // every goroutine blocked for good
		for range 200000 { // full buffers: the writer has them on disk before all sleep
			g.B(bDone)
		}
		var never chan int
		<-never
	case "leak", "stuck": // a worker blocked for ever on a mutex main holds
		var mu sync.Mutex
		g.Lock(bDone, &mu)
		goWorker(g, func(w *G) { w.Lock(bWorkerL, &mu) })
		for !workerBlocked() {
			time.Sleep(time.Millisecond)
		}
		if mode == "stuck" { // and main blocked on a channel nobody sends on: a deadlock
			fmt.Println("ready")
			Recv(g, bDone, make(chan int))
		}
	case "mapwrites": // two goroutines write one map: Go's fatal error "concurrent map writes"
		g.B(bDone)
		m := map[int]int{}
		for range 2 {
			go func() {
				for i := 0; ; i++ {
					m[i%64] = i
				}
			}()
		}
		time.Sleep(time.Minute)
	case "uninstrumented-exit": // os.Exit from code the instrumenter did not rewrite (log.Fatal, flag)
		os.Exit(1)
	case "small": // a few goroutines record a little each and block: everything is in the arena (TestCorruptArena)
		smallChild(g)
	case "exitgo", "panicgo": // a goroutine ends the program while others start (TestEveryGoroutineOnEveryEnding)
		endingsChild(g, mode)
	case "returns": // main returns
		g.B(bDone)
	case "mainpanic":
		g.B(bDone)
		panic("boom in main")
	}
}

// workChild is the child of TestKilledAnytime: waves of four goroutines,
// one long (it fills buffers faster than the writer empties them), three
// short (they end, and their buffers and slots are reused), each recording
// its loop's index as an outcome, and a sync event now and then, until it
// is killed. A goroutine says "started ID" once it has its recorder.
func workChild(g *G) {
	for wave := uint64(0); ; wave++ {
		g.Outcome(wave)
		var wg sync.WaitGroup
		for k := range 4 {
			wg.Add(1)
			goWorker(g, func(w *G) {
				defer wg.Done()
				fmt.Printf("started %d\n", w.id)
				ch := make(chan int, 1)
				n := 1000
				if k == 0 {
					n = 30000
				}
				for i := range n {
					w.B(bWorkerL)
					w.Outcome(uint64(i))
					if i%500 == 0 { // a sync event, with no outcome of its own
						Send(w, bWorkerL, ch, i)
						Recv(w, bWorkerL, ch)
					}
				}
			})
		}
		// A goroutine of code divergo does not see, as a library's: its
		// creator is recorded, whether it ends or the arena holds it.
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := Enter(bWorker)
			for i := range 1000 {
				w.B(bWorkerL)
				w.Outcome(uint64(i))
			}
			w.Exit(bWorker)
		}()
		wg.Wait()
		time.Sleep(2 * time.Millisecond) // a trace read in a test's time
	}
}

// workerBlocked reports whether a recorder other than main's is blocked.
func workerBlocked() bool {
	sess.regMu.Lock()
	defer sess.regMu.Unlock()
	for g := range sess.live {
		if g.id != 1 && pendingOf(g).op != 0 {
			return true
		}
	}
	return false
}

func graphForChild() string { return testGraphJSON(&testing.T{}) }

func child(t *testing.T, mode string) (*exec.Cmd, string) {
	t.Helper()
	return childTB(t, mode)
}

// childTB is child for a test or a fuzz target.
func childTB(t testing.TB, mode string) (*exec.Cmd, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "child.dvt")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "DVG_CHILD="+mode, "DIVERGO_TRACE="+path)
	return cmd, path
}

// TestOffAtInit checks that DIVERGO_TRACE=off is known before the first
// instrumented function asks: Off is a single compare that does not start
// the session, so if init had not read the variable, the first function
// (main.main, with the program's loops) would run its recording copy.
func TestOffAtInit(t *testing.T) {
	for env, want := range map[string]string{"off": "true", filepath.Join(t.TempDir(), "t.dvt"): "false"} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "DVG_CHILD=offinit", "DIVERGO_TRACE="+env)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("DIVERGO_TRACE=%s: %v", env, err)
		}
		if got := strings.TrimSpace(string(out)); got != want {
			t.Errorf("DIVERGO_TRACE=%s: Off() = %s at the first instrumented statement, want %s", env, got, want)
		}
	}
}

// TestSignalDeath sends SIGTERM, SIGINT or SIGKILL to a running program
// that does not catch signals: it must die of the signal, as it does
// plain (the recorder catches none, doc.go), and reading its trace must
// complete it from the arena (recover_linux.go): every goroutine with
// every block it recorded.
func TestSignalDeath(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd, path := child(t, "wait")
			startReady(t, cmd)
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("child exited with %v, want death by %v", err, sig)
			}
			if ws := ee.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("child status %v, want death by %v", ee, sig)
			}
			r, gs := readTrace(t, path)
			if r.Truncated() {
				t.Errorf("trace not completed after %v", sig)
			}
			if len(gs) != 4 || gs["main"].info.Blocks != 200001+3 || gs["main"].info.Ended {
				t.Errorf("%d goroutines, main %+v; want 4, %d blocks, not ended", len(gs), gs["main"].info, 200001+3)
			}
			for p, w := range gs {
				if p != "main" && (w.info.Blocks != 100000+1 || w.info.Ended) {
					t.Errorf("%s: %+v, want %d blocks of a live goroutine", p, w.info, 100000+1)
				}
			}
		})
	}
}

// startOut starts cmd, its stderr the test's, and returns its stdout.
func startOut(t *testing.T, cmd *exec.Cmd) io.Reader {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return out
}

// startReady starts cmd and waits until it says "ready"; the rest of its
// output is in the reader it returns.
func startReady(t *testing.T, cmd *exec.Cmd) *bufio.Reader {
	t.Helper()
	rd := bufio.NewReader(startOut(t, cmd))
	if line, _ := rd.ReadString('\n'); line != "ready\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child said %q", line)
	}
	return rd
}

// TestProgramSignals checks that a program catching SIGTERM itself gets it
// as it does plain, and that its trace is complete when main then returns.
func TestProgramSignals(t *testing.T) {
	cmd, path := child(t, "notify")
	rd := startReady(t, cmd)
	cmd.Process.Signal(syscall.SIGTERM)
	line, _ := rd.ReadString('\n')
	if err := cmd.Wait(); err != nil || line != "terminated\n" {
		t.Fatalf("child: %v, said %q; want a clean exit after \"terminated\"", err, line)
	}
	r, gs := readTrace(t, path)
	if r.Truncated() || !gs["main"].info.Ended {
		t.Errorf("trace truncated %v, main %+v; want it complete", r.Truncated(), gs["main"].info)
	}
}

// TestExitPaths checks OsExit and unrecovered panics: the exit status is
// the program's own, and the trace is complete.
func TestExitPaths(t *testing.T) {
	tests := []struct {
		mode   string
		status int
		stderr string
		ended  []string
		exit   bool // the ended goroutines' streams end with a function exit
	}{
		{"exit", 3, "", []string{"main", "main/worker@main.go:7#1"}, false},
		{"panic", 2, "boom in worker", []string{"main/worker@main.go:7#1"}, true},
		{"mainpanic", 2, "boom in main", []string{"main"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			cmd, path := child(t, tt.mode)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tt.status {
				t.Fatalf("child: %v, want exit status %d; stderr:\n%s", err, tt.status, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, stderr.String())
			}
			r, gs := readTrace(t, path)
			if r.Truncated() {
				t.Error("trace truncated")
			}
			for _, p := range tt.ended {
				g, ok := gs[p]
				if !ok || !g.info.Ended {
					t.Errorf("%s: present %v, ended %v", p, ok, g.info.Ended)
				}
				if n := len(g.events); ok && tt.exit && (n < 2 || g.events[n-2].Kind.String() != "exit") {
					t.Errorf("%s: stream does not end with an exit: %v", p, kinds(g.events))
				}
			}
		})
	}
}

// TestExitLeavesNoOldTrace replaces a large trace and exits at once through
// an os.Exit the recorder does not see, a few times (whether the previous
// trace was still being removed is up to the scheduler): it must not be
// left next to the new one.
func TestExitLeavesNoOldTrace(t *testing.T) {
	for range 3 {
		cmd, path := child(t, "uninstrumented-exit")
		if err := os.WriteFile(path, make([]byte, 64<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		var ee *exec.ExitError
		if err := cmd.Run(); !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("child: %v, want exit status 1", err)
		}
		readTrace(t, path) // completes it from the arena, and removes that
		ents, err := os.ReadDir(filepath.Dir(path))
		if err != nil {
			t.Fatal(err)
		}
		if len(ents) != 1 || ents[0].Name() != filepath.Base(path) {
			t.Fatalf("directory holds %v, want only the trace", ents)
		}
	}
}

// useNonRaceChild makes cmd run this test binary built without -race when
// it was built with it: the race detector's runtime keeps Go from ever
// reporting a deadlock.
func useNonRaceChild(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if !raceEnabled {
		return
	}
	bin := filepath.Join(t.TempDir(), "child.test")
	build := exec.Command("go", "test", "-c", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the child without -race: %v\n%s", err, out)
	}
	cmd.Path, cmd.Args[0] = bin, bin
}

// TestDeadlockReported checks that a deadlocked program dies as Go makes it
// die, "all goroutines are asleep", with everything it recorded in its
// trace once read (the arena, recover_linux.go). A
// recorder catching signals would make it hang: the Go runtime does not
// report deadlocks once signals are caught.
func TestDeadlockReported(t *testing.T) {
	cmd, path := child(t, "deadlock")
	useNonRaceChild(t, cmd)
	wantDeadlockReport(t, cmd)
	r, gs := readTrace(t, path)
	if r.Truncated() || gs["main"].info.Blocks != 200001 {
		t.Errorf("trace after the deadlock: truncated %v, main %+v; want it completed, %d blocks", r.Truncated(), gs["main"].info, 200001)
	}
}

// TestBlockedAtEnd checks that a goroutine blocked for ever ends its stream
// with the wait it is in, marked blocked, however the run ends: main
// returns (a leak), or Go kills a deadlocked run for the deadlock
// (blocked.go: the checkpoint taken when the last goroutine blocked holds
// the waits).
func TestBlockedAtEnd(t *testing.T) {
	for _, how := range []string{"return", "deadlock"} {
		t.Run(how, func(t *testing.T) {
			mode := "leak"
			if how != "return" {
				mode = "stuck"
			}
			cmd, path := child(t, mode)
			if how == "deadlock" {
				useNonRaceChild(t, cmd)
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { io.Copy(io.Discard, out); done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(time.Minute):
				cmd.Process.Kill()
				<-done
				t.Fatal("the child hung")
			}
			if how == "deadlock" && !strings.Contains(stderr.String(), "all goroutines are asleep") {
				t.Fatalf("child: %v, want Go's deadlock report; stderr:\n%s", err, stderr.String())
			}
			_, gs := readTrace(t, path)
			var w *goroutine
			for p, g := range gs {
				if p != "main" {
					w = &g
				}
			}
			if w == nil {
				t.Fatalf("no worker in the trace: %v", gs)
			}
			last := w.events[len(w.events)-1]
			if !last.Blocked || !last.Waited || last.Op != trace.OpLock || last.Block != bWorkerL || last.Object == 0 || last.End < last.Begin {
				t.Errorf("worker's last event %+v, want a lock still blocked", last)
			}
			m := gs["main"].events
			var lock trace.Event
			for _, e := range m {
				if e.Kind == trace.EvSync && e.Op == trace.OpLock {
					lock = e
				}
			}
			if lock.Object != last.Object {
				t.Errorf("main locked %#x, the worker waits for %#x", lock.Object, last.Object)
			}
			if mode == "stuck" {
				if e := m[len(m)-1]; !e.Blocked || e.Op != trace.OpRecv || e.Block != bDone {
					t.Errorf("main's last event %+v, want a recv still blocked", e)
				}
			} else if !gs["main"].info.Ended {
				t.Error("main did not end")
			}
		})
	}
}

// wantDeadlockReport runs cmd, a child that deadlocks, and fails unless it
// dies as Go makes a deadlocked program die: exit status 2 and "all
// goroutines are asleep", within a minute.
func wantDeadlockReport(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatal("the deadlocked program hung")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "all goroutines are asleep - deadlock!") {
		t.Fatalf("child: %v, stderr:\n%s", err, stderr.String())
	}
}
