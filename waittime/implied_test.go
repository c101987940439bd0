package waittime

import (
	"reflect"
	"slices"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// impliedTrace is a worker whose loop keeps one probe per iteration, as the
// instrumenter's minimizer leaves it (internal/flow, "Fewer probes"), and
// main waiting for its result:
//
//	func main() {             // line 10: go work(); 12: <-ch
//	func work() {             // line 20, entry
//		for i < n {            // line 21, head: implied
//			x = step(x)        // line 22, body: probed
//			i += heavy(x)      // line 23, post: implied, 40 instructions
//		}
//		ch <- x                // line 25, done: probed (it sends)
//	}
//
// With full set, every block of the worker is recorded, as if nothing
// were implied.
func impliedTrace(full bool) (tr *fakeTrace, recv, post, body uint32) {
	b := newBuilder("implied.go")
	mEntry := b.block("main", 10, 4)
	recv = b.block("main", 12, 2)
	wEntry := b.block("work", 20, 2)
	head := b.block("work", 21, 1)
	body = b.block("work", 22, 2)
	post = b.block("work", 23, 40)
	done := b.block("work", 25, 2)
	g := b.tr.graph
	for _, blk := range g.Blocks {
		blk.Succs = nil // the builder's complete graph has no implied path
	}
	succ := func(from uint32, to ...uint32) {
		for _, t := range to {
			g.Blocks[from].Succs = append(g.Blocks[from].Succs, int(t))
		}
	}
	succ(mEntry, recv)
	succ(wEntry, head)
	succ(head, body, done)
	succ(body, post)
	succ(post, head)
	g.Blocks[recv].Exit, g.Blocks[done].Exit = true, true
	g.Blocks[head].Probe, g.Blocks[post].Probe = full, full

	const ch = 0xc4
	m := b.goroutine(1, 0, 0, 0, 0)
	m.exec(mEntry)
	m.spawn(mEntry, 2, 1)
	w := b.goroutine(2, 1, mEntry, 1, 0)
	w.exec(wEntry)
	if full {
		w.exec(head)
	}
	for range 10 {
		w.exec(body)
		if full {
			w.exec(post, head)
		}
	}
	w.advance(10 * ms)
	w.op(done, trace.OpSend, ch)
	w.emit(trace.Event{Kind: trace.EvExit, Block: wEntry})
	w.done()
	m.advance(1 * us)
	m.wait(recv, trace.OpRecv, ch, 10*ms+lat)
	m.emit(trace.Event{Kind: trace.EvExit, Block: mEntry})
	m.done()
	return b.trace(), recv, post, body
}

// TestImpliedBlocksExplainWaits checks that the worker's implied loop
// post, which runs most of its instructions, explains main's wait: the
// blocks put back between the recorded ones take their share of the time
// instead of leaving it to the probed body. The minimized trace must give
// the same report as one that recorded every block.
func TestImpliedBlocksExplainWaits(t *testing.T) {
	var reps [2]*Report
	for i, full := range []bool{false, true} {
		tr, recv, post, body := impliedTrace(full)
		rep, err := Analyze(tr, Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := siteAt(t, rep, recv, trace.OpRecv)
		// 10 iterations: post 400 instructions, body 20, head 11, entry 2.
		if got, want := attributed(s, post), 0.8*400/433; got < want {
			t.Errorf("full=%v: the implied post explains %.2f of the wait, want at least %.2f; classes %+v", full, got, want, s.Classes)
		}
		if got := attributed(s, body); got > 0.1 {
			t.Errorf("full=%v: the probed body explains %.2f of the wait, want its 20 instructions' share (%.2f)", full, got, 20.0/433)
		}
		var posts []string
		for _, c := range s.Classes {
			for _, st := range c.Steps {
				if st.Block == int(post) {
					posts = append(posts, st.Pos)
				}
			}
		}
		if !slices.Equal(posts, []string{"implied.go:23"}) {
			t.Errorf("full=%v: steps at the implied post %v, want one at implied.go:23", full, posts)
		}
		reps[i] = rep
	}
	a, b := reps[0].Sites[0].Classes, reps[1].Sites[0].Classes
	if len(a) != len(b) {
		t.Fatalf("minimized trace has %d classes, fully probed %d", len(a), len(b))
	}
	for i := range a {
		if !reflect.DeepEqual(a[i].Steps, b[i].Steps) {
			t.Errorf("class %d: minimized steps %+v, fully probed %+v", i, a[i].Steps, b[i].Steps)
		}
	}
}
