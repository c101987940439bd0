package waittime

import (
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/gotrace"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// TestChildStartsGoStatement: main runs a go statement among blocks that
// share one stretch of 1 ms, and the child starts 10 µs into it. The
// spread would put the go statement in the middle of the stretch; the
// child's start shows it came before, so main's path since the go
// statement is the whole 990 µs after the start, and the child's wait for
// main's send is explained exactly, not by half.
func TestChildStartsGoStatement(t *testing.T) {
	b := newBuilder("spawn.go")
	entry, work, send := b.block("main", 10, 10), b.block("main", 11, 10), b.block("main", 12, 1)
	recv := b.block("child", 20, 1)
	const ch = 1
	m := b.goroutine(1, 0, 0, 0, 0)
	m.exec(entry)
	m.spawn(entry, 2, 1)
	m.run(work, 1*ms)
	m.op(send, trace.OpSend, ch)
	m.done()
	c := b.goroutine(2, 1, entry, 1, 10*us)
	c.wait(recv, trace.OpRecv, ch, 1*ms)
	c.done()

	rep, err := Analyze(b.trace(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := siteAt(t, rep, recv, trace.OpRecv)
	if len(s.Classes) != 1 || s.TotalNs != 990*us {
		t.Fatalf("site: %d classes, %s; want 1 class of 990 µs", len(s.Classes), FormatNs(s.TotalNs))
	}
	if c := s.Classes[0]; c.Explained != 1 || c.UnexplainedNs != 0 {
		t.Errorf("class %.1f%% explained, %s unexplained; want all of it", 100*c.Explained, FormatNs(c.UnexplainedNs))
	}
	checkAddsUp(t, rep)
}

// TestLibraryWaitAfterGoStatement is errgroupfan's shape: main starts a
// reader, then blocks 895 µs inside a library (g.Go's semaphore) in the
// same stretch, and the reader, started 10 µs in, sends main the value it
// waits 5 µs for. The library's block began before the reader started,
// but at a call main reaches only after the go statement: it is main's
// path since the go statement, and the wait is explained exactly.
func TestLibraryWaitAfterGoStatement(t *testing.T) {
	b := newBuilder("main.go")
	entry, call, recv := b.block("main", 10, 1), b.block("main", 11, 1), b.block("main", 20, 1)
	b.tr.graph.Blocks[call].End = tbb.Pos{File: "main.go", Line: 13}
	rd := b.block("reader", 30, 1)
	const ch = 7
	m := b.goroutine(1, 0, 0, 0, 0)
	m.exec(entry)
	m.spawn(entry, 2, 1)
	m.run(call, 1000*us)
	m.wait(recv, trace.OpRecv, ch, 1005*us)
	m.done()
	r := b.goroutine(2, 1, entry, 1, 10*us)
	r.run(rd, 995*us)
	r.op(rd, trace.OpSend, ch)
	r.done()
	tr := b.trace()
	tr.gs[0].GoID, tr.gs[1].GoID = 1, 2
	gt := gotrace.New([]gotrace.Wake{{G: 1, Blocked: 5 * us, At: 900 * us, Reason: "chan receive", By: 3,
		WaitStack: []gotrace.Frame{
			{Func: "example.org/lib.(*Group).Go", File: "/mod/lib/lib.go", Line: 5},
			{Func: "example.com/m.main", File: "/src/m/main.go", Line: 12},
		}}})
	rep, err := Analyze(tr, Options{GoTrace: gt})
	if err != nil {
		t.Fatal(err)
	}
	s := siteAt(t, rep, recv, trace.OpRecv)
	if len(s.Classes) != 1 || s.TotalNs != 5*us {
		t.Fatalf("site: %d classes, %s; want 1 class of 5 µs", len(s.Classes), FormatNs(s.TotalNs))
	}
	if c := s.Classes[0]; c.Explained != 1 {
		var text strings.Builder
		rep.WriteText(&text, 0)
		t.Errorf("class %.1f%% explained; want all of it:\n%s", 100*c.Explained, text.String())
	}
	checkAddsUp(t, rep)
}
