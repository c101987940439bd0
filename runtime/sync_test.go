package runtime

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/trace"
)

// TestSyncWaits drives each wrapper into a real wait: main blocks on an
// object a child releases after a pause. Every wait must be recorded with
// begin and end, and the child's release on the same object must fall
// inside the wait (the releaser a reader would name).
func TestSyncWaits(t *testing.T) {
	const pause = 20 * time.Millisecond
	var (
		mu   sync.Mutex
		rw   sync.RWMutex
		ch   = make(chan int)
		wg   sync.WaitGroup
		cmu  sync.Mutex
		cond = sync.NewCond(&cmu)
		flag bool
	)
	tests := []struct {
		name    string
		wait    trace.Op
		release trace.Op
		setup   func(g *G)    // in main, before the child starts
		child   func(g *G)    // releases after the pause
		block   func(g *G)    // in main: waits
		obj     func() uint64 // the object both sides name
	}{
		{"mutex", trace.OpLock, trace.OpUnlock,
			func(g *G) { g.Lock(bSpawn, &mu) },
			func(g *G) { g.Unlock(bWorker, &mu) },
			func(g *G) { g.Lock(bDone, &mu); g.Unlock(bDone, &mu) },
			func() uint64 { return addr(&mu) }},
		{"rwmutex", trace.OpRLock, trace.OpUnlock,
			func(g *G) { g.RWLock(bSpawn, &rw) },
			func(g *G) { g.RWUnlock(bWorker, &rw) },
			func(g *G) { g.RLock(bDone, &rw); g.RUnlock(bDone, &rw) },
			func() uint64 { return addr(&rw) }},
		{"chan recv", trace.OpRecv, trace.OpSend,
			func(g *G) {},
			func(g *G) { Send(g, bWorker, ch, 7) },
			func(g *G) {
				if v := Recv(g, bDone, ch); v != 7 {
					t.Errorf("received %d", v)
				}
			},
			func() uint64 { return chanAddr(ch) }},
		{"chan send", trace.OpSend, trace.OpRecv,
			func(g *G) {},
			func(g *G) { Recv2(g, bWorker, ch) },
			func(g *G) { Send(g, bDone, ch, 1) },
			func() uint64 { return chanAddr(ch) }},
		{"waitgroup", trace.OpWGWait, trace.OpWGDone,
			func(g *G) { g.WGAdd(bSpawn, &wg, 1) },
			func(g *G) { g.WGDone(bWorker, &wg) },
			func(g *G) { g.WGWait(bDone, &wg) },
			func() uint64 { return addr(&wg) }},
		{"cond", trace.OpCondWait, trace.OpCondSignal,
			func(g *G) { flag = false },
			func(g *G) { g.Lock(bWorker, &cmu); flag = true; g.CondSignal(bWorker, cond); g.Unlock(bWorker, &cmu) },
			func(g *G) {
				g.Lock(bDone, &cmu)
				for !flag {
					g.CondWait(bDone, cond)
				}
				g.Unlock(bDone, &cmu)
			},
			func() uint64 { return addr(cond) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := startSession(t)
			g := Main(testGraphJSON(t), bMain)
			tt.setup(g)
			c := g.Spawn(bSpawn)
			var gone sync.WaitGroup
			gone.Add(1)
			go func() {
				defer gone.Done()
				cg := c.Start()
				defer c.Done()
				time.Sleep(pause)
				tt.child(cg)
			}()
			tt.block(g)
			gone.Wait()
			g.Exit(bMain)

			_, gs := readTrace(t, path)
			var wait, rel *trace.Event
			for _, e := range gs["main"].events {
				if e.Kind == trace.EvSync && e.Op == tt.wait && e.Block == bDone {
					wait = &e
					break
				}
			}
			for _, e := range gs["main/?@main.go:7#1"].events {
				if e.Kind == trace.EvSync && e.Op == tt.release {
					rel = &e
				}
			}
			if wait == nil || rel == nil {
				t.Fatalf("wait %v, release %v: not both recorded", wait, rel)
			}
			if !wait.Waited || wait.End-wait.Begin < int64(pause/2) {
				t.Errorf("wait %+v: not a real wait of about %v", wait, pause)
			}
			if wait.Object != tt.obj() || rel.Object != wait.Object {
				t.Errorf("objects: wait %#x, release %#x, want %#x", wait.Object, rel.Object, tt.obj())
			}
			if rel.End < wait.Begin || rel.End > wait.End {
				t.Errorf("release at %d outside the wait [%d, %d]", rel.End, wait.Begin, wait.End)
			}
		})
	}
}

// TestLockTickets checks the lock TCP's outcome: acquisitions of one mutex
// are numbered 1, 2, 3 ... in the order they happened.
func TestLockTickets(t *testing.T) {
	path := startSession(t)
	g := Main(testGraphJSON(t), bMain)
	var mu sync.Mutex
	for range 3 {
		g.Lock(bSpawn, &mu)
		g.Unlock(bSpawn, &mu)
	}
	if !g.TryLock(bSpawn, &mu) || g.TryLock(bSpawn, &mu) {
		t.Fatal("TryLock")
	}
	g.Unlock(bSpawn, &mu)
	g.Exit(bMain)
	_, gs := readTrace(t, path)
	var got []uint64
	for _, e := range gs["main"].events {
		if e.Kind == trace.EvOutcome {
			got = append(got, e.Value)
		}
	}
	want := []uint64{1, 2, 3, 4, 0}
	if len(got) != len(want) {
		t.Fatalf("outcomes %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("outcomes %v, want %v", got, want)
		}
	}
}

// TestOnceOutcome checks the once TCP's outcome: 1 after the Do that ran
// the function, 0 after one that found it done, and only the first runs it.
func TestOnceOutcome(t *testing.T) {
	path := startSession(t)
	g := Main(testGraphJSON(t), bMain)
	var o sync.Once
	runs := 0
	for range 2 {
		g.OnceDo(bSpawn, &o, func() { runs++ })
	}
	g.Exit(bMain)
	if runs != 1 {
		t.Fatalf("the function ran %d times", runs)
	}
	_, gs := readTrace(t, path)
	var got []string
	for _, e := range gs["main"].events {
		switch e.Kind {
		case trace.EvSync:
			got = append(got, e.Op.String())
		case trace.EvOutcome:
			got = append(got, fmt.Sprint(e.Value))
		}
	}
	if want := "once 1 once 0"; strings.Join(got, " ") != want {
		t.Errorf("events %q, want %q", strings.Join(got, " "), want)
	}
}

// TestNoWait checks that operations that found their object ready are not
// recorded as waits.
func TestNoWait(t *testing.T) {
	path := startSession(t)
	g := Main(testGraphJSON(t), bMain)
	var mu sync.Mutex
	var wg sync.WaitGroup
	ch := make(chan int, 1)
	g.Lock(bSpawn, &mu)
	g.Unlock(bSpawn, &mu)
	Send(g, bSpawn, ch, 1)
	Recv(g, bSpawn, ch)
	g.WGWait(bSpawn, &wg)
	Close(g, bSpawn, ch)
	if _, ok := Recv2(g, bSpawn, ch); ok {
		t.Error("receive from a closed channel reported ok")
	}
	g.Exit(bMain)
	_, gs := readTrace(t, path)
	n := 0
	for _, e := range gs["main"].events {
		if e.Kind == trace.EvSync {
			n++
			if e.Waited {
				t.Errorf("%v recorded as a wait", e.Op)
			}
		}
	}
	if n != 7 || gs["main"].info.Waits != 0 {
		t.Errorf("%d sync events, %d waits; want 7, 0", n, gs["main"].info.Waits)
	}
}
