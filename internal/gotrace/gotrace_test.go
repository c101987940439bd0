package gotrace

import (
	"bytes"
	"context"
	"runtime"
	rtrace "runtime/trace"
	"strconv"
	"strings"
	"testing"
	"time"
)

// goid is the calling goroutine's id, from its stack's header.
func goid() uint64 {
	var buf [64]byte
	s := string(buf[:runtime.Stack(buf[:], false)])
	s = strings.TrimPrefix(s, "goroutine ")
	id, _ := strconv.ParseUint(s[:strings.IndexByte(s, ' ')], 10, 64)
	return id
}

// record runs f under the execution tracer, anchored as the divergo
// runtime anchors it when log is true, and returns the trace.
func record(t testing.TB, log bool, f func()) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := rtrace.Start(&buf); err != nil {
		t.Skipf("the execution tracer is in use: %v", err)
	}
	f()
	if log {
		rtrace.Log(context.Background(), "divergo", "base=0")
	}
	rtrace.Stop()
	return buf.Bytes()
}

// line is the line of its caller.
func line() int {
	_, _, l, _ := runtime.Caller(1)
	return l
}

// TestReadWake has a goroutine block on a channel until this one sends,
// and requires the wake-up, by this goroutine, inside the receive's wait,
// named at the send's line, and the receiver's own stack at the receive's
// line.
func TestReadWake(t *testing.T) {
	ch := make(chan uint64)
	got := make(chan uint64)
	var me uint64
	var sendAt, recvAt int
	data := record(t, true, func() {
		me = goid()
		go func() {
			id := goid()
			got <- id
			recvAt = line() + 1
			<-ch // the wait, at this line
			got <- id
		}()
		<-got
		time.Sleep(20 * time.Millisecond) // the receiver blocks
		sendAt = line() + 1
		ch <- 1 // the wake-up, at this line
		<-got
	})
	tr, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() == 0 {
		t.Fatal("no wake-ups")
	}
	var found bool
	for _, ws := range tr.byG {
		for _, w := range ws {
			if w.By == int64(me) && w.Reason == "chan receive" {
				found = true
				if want := "gotrace_test.go:" + strconv.Itoa(sendAt); !strings.Contains(w.Where, "gotrace.TestReadWake") || !strings.HasSuffix(w.Where, want) {
					t.Errorf("woken at %q, want this test's send (%s)", w.Where, want)
				}
				// The receiver's stack without the runtime's frames
				// (chanrecv, gopark below it, goexit above): the receive
				// in the goroutine's function alone.
				if len(w.WaitStack) != 1 {
					t.Fatalf("waited at %v, want the receive alone", w.WaitStack)
				}
				if f := w.WaitStack[0]; !strings.HasSuffix(f.Func, "TestReadWake.func1.1") || !strings.HasSuffix(f.File, "gotrace_test.go") || f.Line != recvAt {
					t.Errorf("waited at %v, want the receive in TestReadWake's goroutine at line %d", f, recvAt)
				}
				if w.At-w.Blocked < int64(15*time.Millisecond) {
					t.Errorf("blocked %d ns, want about 20 ms", w.At-w.Blocked)
				}
				if f, ok := tr.Find(w.G, w.Blocked-100, w.At+100, func(r string) bool { return r == "chan receive" }); !ok || f.G != w.G || f.At != w.At || f.By != w.By {
					t.Errorf("Find = %v, %v; want %v", f, ok, w)
				}
				// After the wake-up the goroutine sends on got, and that
				// send may block until this goroutine receives: a wake-up
				// of its own, so only another receive's counts.
				receive := func(r string) bool { return r == "chan receive" }
				if f, ok := tr.Find(w.G, w.At+10*JoinEps, w.At+20*JoinEps, receive); ok {
					t.Errorf("Find found a receive's wake-up in a wait after it: %+v", f)
				}
			}
		}
	}
	if !found {
		t.Fatalf("no wake-up by goroutine %d of a receive among %d", me, tr.Len())
	}
}

// TestFindOwnBlock joins a wait with the block woken inside it, and not
// with a neighbour of it:
//   - the goroutine's previous block, which began within JoinEps before the
//     wait and was woken before it began (a wait still blocked when the
//     trace ended has no wake of its own);
//   - its next block, which by the joined clocks began a few ns before the
//     wait's end and was woken after it (doubleselect), unless that is the
//     only block there is.
func TestFindOwnBlock(t *testing.T) {
	prev := Wake{G: 1, Blocked: 9_200, At: 9_600, Reason: "chan receive", By: 2}
	own := Wake{G: 1, Blocked: 10_100, At: 30_000, Reason: "chan send", By: 3}
	recv := Wake{G: 1, Blocked: 483_100, At: 484_752, Reason: "chan receive", By: 2}
	next := Wake{G: 1, Blocked: 486_672, At: 487_440, Reason: "chan send", By: 3}
	for _, c := range []struct {
		name       string
		wakes      []Wake
		begin, end int64
		want       *Wake // nil: none
	}{
		{"previous block", []Wake{prev, own}, 10_000, 31_000, &own},
		{"only the previous block", []Wake{prev}, 10_000, 31_000, nil},
		{"next block", []Wake{recv, next}, 483_099, 486_675, &recv},
		{"only the next block", []Wake{next}, 483_099, 486_675, &next},
	} {
		tr := &Trace{byG: map[uint64][]Wake{1: c.wakes}, n: len(c.wakes)}
		w, ok := tr.Find(1, c.begin, c.end, nil)
		if c.want == nil && ok || c.want != nil && (!ok || w.At != c.want.At) {
			t.Errorf("%s: Find = %v, %v; want %v", c.name, w, ok, c.want)
		}
	}
}

// TestUnended keeps the block of a goroutine still blocked when the trace
// ends, with its stack at the receive it waits in.
func TestUnended(t *testing.T) {
	never := make(chan bool)
	defer close(never)
	got := make(chan uint64)
	var recvAt int
	var g uint64
	data := record(t, true, func() {
		go func() {
			recvAt = line() + 2 // before the send, which orders it before the test reads it
			got <- goid()
			<-never // blocked until the test ends
		}()
		g = <-got
		time.Sleep(10 * time.Millisecond) // it blocks
	})
	tr, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b, ok := tr.Unended(g)
	if !ok {
		t.Fatalf("goroutine %d not blocked at the end", g)
	}
	if b.Reason != "chan receive" || len(b.WaitStack) != 1 || b.WaitStack[0].Line != recvAt || !strings.HasSuffix(b.WaitStack[0].File, "gotrace_test.go") {
		t.Errorf("blocked at %v for %q, want a receive at line %d", b.WaitStack, b.Reason, recvAt)
	}
	if _, ok := tr.Unended(goid()); ok {
		t.Errorf("this goroutine, running, is called blocked")
	}
}

// TestOpen finds the block a wait was in when the divergo trace ended: one
// woken after the end, or never woken; not one that ended before it, nor
// one that began after it.
func TestOpen(t *testing.T) {
	recv := []Frame{{"main.f", "/m/main.go", 29}}
	send := []Frame{{"main.f", "/m/main.go", 31}}
	before := Wake{G: 1, Blocked: 500, At: 900, Reason: "chan receive", WaitStack: recv}
	after := Wake{G: 1, Blocked: 1_100, At: 8_000, Reason: "chan send", WaitStack: send}
	later := Block{G: 1, Blocked: 9_000, Reason: "chan receive", WaitStack: recv}
	tr := &Trace{byG: map[uint64][]Wake{1: {before, after}}, unended: map[uint64]Block{1: later}}
	if b, ok := tr.Open(1, 1_000, 5_000, nil); !ok || b.Blocked != after.Blocked || b.WaitStack[0].Line != 31 {
		t.Errorf("Open = %v, %v; want the send woken after the end", b, ok)
	}
	if b, ok := tr.Open(1, 1_000, 5_000, func(r string) bool { return r == "chan receive" }); ok {
		t.Errorf("Open = %v, want none: the receive ended before the wait, the next one began after the end", b)
	}
	tr = &Trace{byG: map[uint64][]Wake{1: {before}}, unended: map[uint64]Block{1: {G: 1, Blocked: 1_100, Reason: "chan send", WaitStack: send}}}
	if b, ok := tr.Open(1, 1_000, 5_000, nil); !ok || b.Blocked != 1_100 {
		t.Errorf("Open = %v, %v; want the send never woken", b, ok)
	}
}

// TestNoAnchor refuses an execution trace that was not written by a
// divergo run: its times cannot be joined.
func TestNoAnchor(t *testing.T) {
	data := record(t, false, func() { time.Sleep(time.Millisecond) })
	if _, err := Read(bytes.NewReader(data)); err == nil || !strings.Contains(err.Error(), "no clock anchor") {
		t.Fatalf("err = %v, want no clock anchor", err)
	}
}

// TestNotATrace gives a one-line error for other files.
func TestNotATrace(t *testing.T) {
	for _, in := range []string{"", "not a trace", "go 1.26 trace\x00\x00\x00"} {
		if _, err := Read(strings.NewReader(in)); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: err = %v, want one line", in, err)
		}
	}
}

func TestBeside(t *testing.T) {
	if got := Beside("/x/run-1.dvt"); got != "/x/run-1.gotrace" {
		t.Errorf("Beside = %q", got)
	}
}

// FuzzRead: any input gives a trace or an error, never a panic.
func FuzzRead(f *testing.F) {
	f.Add([]byte("go 1.26 trace\x00\x00\x00"))
	f.Add([]byte{})
	ch := make(chan int)
	f.Add(record(f, true, func() {
		go func() { ch <- 1 }()
		<-ch
	}))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Read(bytes.NewReader(data))
		if err == nil && tr == nil {
			t.Fatal("nil trace without an error")
		}
	})
}
