package waittime

import (
	"math/rand/v2"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

const (
	us  = int64(1e3)
	lat = 20 * us // wake-up latency: a waiter's end follows its release
)

// jitter returns d varied by up to ±frac, deterministically from r.
func jitter(r *rand.Rand, d int64, frac float64) int64 {
	return d + int64((r.Float64()*2-1)*frac*float64(d))
}

// attributed is the share of a site's waiting time that its classes put on
// the given blocks.
func attributed(s *Site, blocks ...uint32) float64 {
	var ns int64
	for _, c := range s.Classes {
		for _, st := range c.Steps {
			for _, b := range blocks {
				if st.Block == int(b) {
					ns += st.Ns
				}
			}
		}
	}
	return float64(ns) / float64(s.TotalNs)
}

func siteAt(t *testing.T, rep *Report, block uint32, op trace.Op) *Site {
	t.Helper()
	for _, s := range rep.Sites {
		if s.Block == int(block) && s.Op == op.String() {
			return s
		}
	}
	t.Fatalf("no site at block %d %s; sites: %+v", block, op, rep.Sites)
	return nil
}

// barrierTrace is Figure 2 of "Merging equivalent paths": four workers meet
// at a barrier 100 times; every worker runs the loop at line 6, worker 0
// then the long loop at line 10, the others the short one at line 8. The
// barrier is a sync.Cond: the last to arrive broadcasts.
func barrierTrace() (tr *fakeTrace, barrier, long uint32) {
	r := rand.New(rand.NewPCG(1, 2))
	b := newBuilder("barrier.go")
	spawnB := b.block("main", 20, 4)
	loop6, loop8, loop10 := b.block("worker", 6, 20), b.block("worker", 8, 20), b.block("worker", 10, 20)
	barrier, bcast := b.block("worker", 3, 5), b.block("worker", 4, 5)
	const cond = 0xc0
	m := b.goroutine(1, 0, 0, 0, 0)
	ws := make([]*gscript, 4)
	for i := range ws {
		m.spawn(spawnB, uint64(10+i), uint32(i+1))
		ws[i] = b.goroutine(uint64(10+i), 1, spawnB, uint32(i+1), 0)
	}
	m.done()
	for iter := 0; iter < 100; iter++ {
		for i, w := range ws {
			w.run(loop6, jitter(r, 10*ms, 0.05))
			if i == 0 {
				w.run(loop10, jitter(r, 40*ms, 0.05))
			} else {
				w.run(loop8, jitter(r, 5*ms, 0.05))
			}
		}
		last := ws[0]
		for _, w := range ws {
			if w.now > last.now {
				last = w
			}
		}
		release := last.now
		last.op(bcast, trace.OpCondBroadcast, cond)
		for _, w := range ws {
			if w != last {
				w.wait(barrier, trace.OpCondWait, cond, release+lat)
			}
		}
	}
	for _, w := range ws {
		w.done()
	}
	return b.trace(), barrier, loop10
}

func TestBarrier(t *testing.T) {
	tr, barrier, long := barrierTrace()
	rep, err := Analyze(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := siteAt(t, rep, barrier, trace.OpCondWait)
	if s.Waits != 300 {
		t.Errorf("%d waits at the barrier, want 300", s.Waits)
	}
	if len(s.Classes) != 1 {
		t.Errorf("%d classes at the barrier, want 1: %+v", len(s.Classes), s.Classes)
	}
	if got := attributed(s, long); got < 0.9 {
		t.Errorf("%.2f of the barrier's waiting time attributed to the long loop, want >= 0.9", got)
	}
}

// forkJoinTrace: each round main starts three workers, does a share of the
// work itself and waits on a WaitGroup; every fifth round worker 2 runs an
// extra slow block.
func forkJoinTrace() (tr *fakeTrace, wait, slow uint32) { return forkJoinTraceOpt(true) }

func forkJoinTraceOpt(withSlow bool) (tr *fakeTrace, wait, slow uint32) {
	r := rand.New(rand.NewPCG(3, 4))
	b := newBuilder("pool.go")
	spawnB, work, waitB := b.block("main", 12, 4), b.block("work", 20, 30), b.block("main", 14, 3)
	slow = b.block("work", 22, 30)
	done := b.block("work", 24, 2)
	const wg = 0x66
	m := b.goroutine(1, 0, 0, 0, 0)
	id := uint64(10)
	for round := 0; round < 50; round++ {
		start := m.now
		end := int64(0)
		for i := 0; i < 3; i++ {
			m.spawn(spawnB, id, uint32(round*3+i+1))
			w := b.goroutine(id, 1, spawnB, uint32(round*3+i+1), start)
			id++
			w.run(work, jitter(r, 10*ms, 0.01))
			if withSlow && i == 2 && round%5 == 0 {
				w.run(slow, jitter(r, 50*ms, 0.01))
			}
			w.op(done, trace.OpWGDone, wg)
			w.done()
			end = max(end, w.now)
		}
		m.advance(0) // the go statements take no time of main's work
		m.run(work, jitter(r, 10*ms, 0.01))
		m.wait(waitB, trace.OpWGWait, wg, end+lat)
	}
	m.done()
	return b.trace(), waitB, slow
}

func TestForkJoin(t *testing.T) {
	tr, wait, slow := forkJoinTrace()
	rep, err := Analyze(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := siteAt(t, rep, wait, trace.OpWGWait)
	if s.Unmatched != 0 {
		t.Errorf("%d waits without a releaser", s.Unmatched)
	}
	if got := attributed(s, slow); got < 0.85 {
		t.Errorf("%.2f of the join's waiting time attributed to the slow block, want >= 0.85", got)
	}
}

// pipelineTrace: stage 1 (1 ms per item) → unbuffered → stage 2 (10 ms) →
// unbuffered → stage 3 (1 ms), 50 items. Stage 1 waits to send, stage 3 to
// receive, both because of stage 2.
func pipelineTrace() (tr *fakeTrace, send1, recv3, slow uint32) {
	b := newBuilder("pipe.go")
	spawnB := b.block("main", 5, 4)
	work1, send1 := b.block("stage1", 10, 10), b.block("stage1", 11, 2)
	recv2, slow, send2 := b.block("stage2", 20, 2), b.block("stage2", 21, 10), b.block("stage2", 22, 2)
	recv3, work3 := b.block("stage3", 30, 2), b.block("stage3", 31, 10)
	const ch1, ch2 = 0xc1, 0xc2
	m := b.goroutine(1, 0, 0, 0, 0)
	for i := uint64(2); i <= 4; i++ {
		m.spawn(spawnB, i, uint32(i-1))
	}
	m.done()
	s1, s2, s3 := b.goroutine(2, 1, spawnB, 1, 0), b.goroutine(3, 1, spawnB, 2, 0), b.goroutine(4, 1, spawnB, 3, 0)
	for i := 0; i < 50; i++ {
		s1.run(work1, 1*ms)
		if s1.now >= s2.now { // stage 2 is waiting to receive
			at := s1.now
			s1.op(send1, trace.OpSend, ch1)
			s2.wait(recv2, trace.OpRecv, ch1, at+lat)
		} else {
			at := s2.now
			s2.op(recv2, trace.OpRecv, ch1)
			s1.wait(send1, trace.OpSend, ch1, at+lat)
		}
		s2.run(slow, 10*ms)
		if s2.now >= s3.now {
			at := s2.now
			s2.op(send2, trace.OpSend, ch2)
			s3.wait(recv3, trace.OpRecv, ch2, at+lat)
		} else {
			at := s3.now
			s3.op(recv3, trace.OpRecv, ch2)
			s2.wait(send2, trace.OpSend, ch2, at+lat)
		}
		s3.run(work3, 1*ms)
	}
	s1.done()
	s2.done()
	s3.done()
	return b.trace(), send1, recv3, slow
}

func TestPipeline(t *testing.T) {
	tr, send1, recv3, slow := pipelineTrace()
	rep, err := Analyze(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, site := range []struct {
		block uint32
		op    trace.Op
	}{{send1, trace.OpSend}, {recv3, trace.OpRecv}} {
		s := siteAt(t, rep, site.block, site.op)
		if s.Waits < 45 {
			t.Errorf("site %s %s: %d waits, want about 50", s.Pos, s.Op, s.Waits)
		}
		if got := attributed(s, slow); got < 0.85 {
			t.Errorf("site %s %s: %.2f attributed to the slow stage, want >= 0.85", s.Pos, s.Op, got)
		}
	}
}

// lockTrace: four workers take a mutex 30 times each; worker 0's critical
// section (line 42) takes 20 ms, the others' (line 40) 0.1 ms, and all work
// 2 ms outside. Requests are granted in order of arrival.
func lockTrace() (tr *fakeTrace, lock, long uint32) {
	r := rand.New(rand.NewPCG(5, 6))
	b := newBuilder("lock.go")
	spawnB := b.block("main", 5, 4)
	lock = b.block("worker", 39, 3)
	short, long := b.block("worker", 40, 10), b.block("worker", 42, 10)
	unlock, outside := b.block("worker", 43, 3), b.block("worker", 45, 10)
	const mu = 0x3a
	m := b.goroutine(1, 0, 0, 0, 0)
	ws := make([]*gscript, 4)
	left := make([]int, 4)
	for i := range ws {
		m.spawn(spawnB, uint64(10+i), uint32(i+1))
		ws[i] = b.goroutine(uint64(10+i), 1, spawnB, uint32(i+1), 0)
		ws[i].run(outside, jitter(r, 2*ms, 0.1))
		left[i] = 30
	}
	m.done()
	free := int64(0)
	for {
		next := -1
		for i, w := range ws {
			if left[i] > 0 && (next < 0 || w.now < ws[next].now) {
				next = i
			}
		}
		if next < 0 {
			break
		}
		w := ws[next]
		left[next]--
		end := w.now
		if free > w.now {
			end = free + lat
		}
		w.wait(lock, trace.OpLock, mu, end)
		if next == 0 {
			w.run(long, jitter(r, 20*ms, 0.02))
		} else {
			w.run(short, jitter(r, 100*us, 0.02))
		}
		w.op(unlock, trace.OpUnlock, mu)
		free = w.now
		w.run(outside, jitter(r, 2*ms, 0.1))
	}
	for _, w := range ws {
		w.done()
	}
	return b.trace(), lock, long
}

func TestLockContention(t *testing.T) {
	tr, lock, long := lockTrace()
	rep, err := Analyze(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := siteAt(t, rep, lock, trace.OpLock)
	if got := attributed(s, long); got < 0.85 {
		t.Errorf("%.2f of the lock's waiting time attributed to the long critical section, want >= 0.85", got)
		var buf bytesBuffer
		rep.WriteText(&buf, 8)
		t.Log(buf.String())
	}
}
