package replay

import (
	"fmt"
	"slices"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// memSource is an in-memory run for Pair.
type memSource []trace.GoroutineEvents

func (m memSource) Goroutines() []trace.GoroutineInfo {
	var out []trace.GoroutineInfo
	for _, g := range m {
		out = append(out, trace.GoroutineInfo{ID: g.ID, GoID: g.ID + 100, Start: g.Start})
	}
	return out
}

func (m memSource) Events(id uint64) (trace.EventIter, error) {
	for _, g := range m {
		if g.ID == id {
			return trace.SliceIter(g.Events), nil
		}
	}
	return nil, fmt.Errorf("no goroutine %d", id)
}

// op is a sync event that did not wait, attempted at t.
func op(o trace.Op, obj uint64, t int64) trace.Event {
	return trace.Event{Kind: trace.EvSync, Op: o, Object: obj, Block: 1, End: t}
}

// wait is a sync event that waited from b to e.
func wait(o trace.Op, obj uint64, b, e int64) trace.Event {
	return trace.Event{Kind: trace.EvSync, Op: o, Object: obj, Block: 1, Begin: b, End: e, Waited: true}
}

func ticket(n uint64) trace.Event { return trace.Event{Kind: trace.EvOutcome, Value: n} }

// released lists "g.n<-g.n" for every wait with a releaser and "g.n: why"
// for the others, sorted.
func released(t *testing.T, src memSource) []string {
	t.Helper()
	p, err := Pair(src, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, g := range src {
		n := uint64(0)
		for _, ev := range g.Events {
			if ev.Kind != trace.EvSync {
				continue
			}
			ref := SyncRef{g.ID, n}
			n++
			if !ev.Waited {
				continue
			}
			if r, ok := p.Of(ref); ok {
				out = append(out, fmt.Sprintf("%d.%d<-%d.%d", ref.G, ref.N, r.G, r.N))
			} else {
				out = append(out, fmt.Sprintf("%d.%d: %v", ref.G, ref.N, p.Why(ref)))
			}
		}
	}
	slices.Sort(out)
	return out
}

func TestPair(t *testing.T) {
	const ch, mu, wg, cv = 0x10, 0x20, 0x30, 0x40
	for _, tc := range []struct {
		name string
		src  memSource
		want []string
	}{{
		// A reader waits for a writer; ten other readers take and free
		// the read lock between the writer's unlock and the reader's
		// wake (as in the RWMutex hammer tests): the writer's unlock is
		// still its releaser, whatever came between.
		name: "reader after many readers",
		src: func() memSource {
			src := memSource{
				{ID: 1, Events: []trace.Event{wait(trace.OpRLock, mu, 100, 2000)}},
				{ID: 2, Events: []trace.Event{op(trace.OpUnlock, mu, 500)}},
			}
			for i := range 10 {
				at := int64(600 + 100*i)
				src = append(src, trace.GoroutineEvents{ID: uint64(3 + i), Events: []trace.Event{op(trace.OpRLock, mu, at), op(trace.OpRUnlock, mu, at+50)}})
			}
			return src
		}(),
		want: []string{"1.0<-2.0"},
	}, {
		// The ticker scenario: a burst of three sends at 1000, received at
		// once; the fourth receive waits from 1300 until the next burst,
		// whose first send is stamped 100 ns after the receiver woke
		// (clocks a little apart). By timestamp its releaser would be the
		// burst's last send.
		name: "buffered burst",
		src: memSource{
			{ID: 1, Events: []trace.Event{op(trace.OpRecv, ch, 1100), op(trace.OpRecv, ch, 1200), op(trace.OpRecv, ch, 1250), wait(trace.OpRecv, ch, 1300, 50000)}},
			{ID: 2, Events: []trace.Event{op(trace.OpSend, ch, 1000), op(trace.OpSend, ch, 1001), op(trace.OpSend, ch, 1002), op(trace.OpSend, ch, 50100)}},
		},
		want: []string{"1.3<-2.3"},
	}, {
		// Two receivers wait; two sends serve them in the order they began
		// to wait, whichever woke first.
		name: "fifo receivers",
		src: memSource{
			{ID: 1, Events: []trace.Event{wait(trace.OpRecv, ch, 100, 900)}},
			{ID: 2, Events: []trace.Event{wait(trace.OpRecv, ch, 200, 800)}},
			{ID: 3, Events: []trace.Event{op(trace.OpSend, ch, 500), op(trace.OpSend, ch, 600)}},
		},
		want: []string{"1.0<-3.0", "2.0<-3.1"},
	}, {
		// A blocked sender is freed by the next receive, not by the one
		// that gets its value (capacity 1 here: 2's value waits in the
		// buffer behind 3's).
		name: "blocked sender",
		src: memSource{
			{ID: 1, Events: []trace.Event{op(trace.OpRecv, ch, 500), op(trace.OpRecv, ch, 700)}},
			{ID: 2, Events: []trace.Event{op(trace.OpSend, ch, 100), wait(trace.OpSend, ch, 200, 600)}},
		},
		want: []string{"2.1<-1.0"},
	}, {
		name: "close",
		src: memSource{
			{ID: 1, Events: []trace.Event{wait(trace.OpRecv, ch, 100, 900)}},
			{ID: 2, Events: []trace.Event{wait(trace.OpRecv, ch, 150, 950)}},
			{ID: 3, Events: []trace.Event{op(trace.OpClose, ch, 500)}},
		},
		want: []string{"1.0<-3.0", "2.0<-3.0"},
	}, {
		// A select's chosen receive is a receive of its channel.
		name: "select",
		src: memSource{
			{ID: 1, Events: []trace.Event{wait(trace.OpSelect, ch, 100, 900), wait(trace.OpSelect, 0, 1000, 2000)}},
			{ID: 2, Events: []trace.Event{{Kind: trace.EvSync, Op: trace.OpSelect, Object: ch, Sends: true, End: 500}}},
		},
		want: []string{"1.0<-2.0", "1.1: " + WhyUnnamed.String()},
	}, {
		// Two blocked senders queued in the other order than they began
		// to block (within the ~100 ns between a failed try and the
		// blocking send): the trace cannot tell, and the receive at 550
		// is counted as taking 2's value when it took 3's; 2's value is
		// taken by a select whose channel was not recorded. The receive
		// that waits at 2000 must not be paired with a value that was gone
		// before it began (3's, by the count): its releaser is the send
		// during its wait.
		name: "blocked senders out of order",
		src: memSource{
			{ID: 1, Events: []trace.Event{op(trace.OpRecv, ch, 550), op(trace.OpSelect, 0, 650), wait(trace.OpRecv, ch, 2000, 3000)}},
			{ID: 2, Events: []trace.Event{wait(trace.OpSend, ch, 100, 700)}},
			{ID: 3, Events: []trace.Event{wait(trace.OpSend, ch, 110, 600), op(trace.OpSend, ch, 2500)}},
		},
		want: []string{"1.2<-3.1", "2.0<-1.0", "3.0: " + WhyNoRelease.String()},
	}, {
		// 1's first wait is ended by a send the trace does not hold (a
		// select whose channel was not recorded) at 600. 2's send,
		// attempted at 1200, after 1 woke, is not what woke it: it blocks
		// until 1's next receive at 1900 takes its value. Pairing it with
		// the stale waiting receiver called it "not blocked" (ken_chan).
		name: "receiver woken elsewhere",
		src: memSource{
			{ID: 1, Events: []trace.Event{wait(trace.OpRecv, ch, 100, 600), op(trace.OpRecv, ch, 1900)}},
			{ID: 2, Events: []trace.Event{wait(trace.OpSend, ch, 1200, 2000)}},
		},
		want: []string{"1.0: " + WhyNoRelease.String(), "2.0<-1.1"},
	}, {
		// A receive on a channel nobody recorded a send on (a ticker's).
		name: "timer channel",
		src: memSource{
			{ID: 1, Events: []trace.Event{wait(trace.OpRecv, ch, 100, 900), wait(trace.OpSleep, 0, 1000, 2000)}},
		},
		want: []string{"1.0: " + WhyNoRelease.String(), "1.1: " + WhySleep.String()},
	}, {
		// An unrecorded receive took the value sent at 100: the wait at
		// 5000 is not paired with it but with the send during it.
		name: "resync",
		src: memSource{
			{ID: 1, Events: []trace.Event{wait(trace.OpRecv, ch, 5000, 9000)}},
			{ID: 2, Events: []trace.Event{op(trace.OpSend, ch, 100), op(trace.OpSend, ch, 8000)}},
		},
		want: []string{"1.0<-2.1"},
	}, {
		// Tickets: 3 waits for ticket 3, released by the unlock of ticket
		// 2's holder even though another goroutine's unlock of an earlier
		// ticket is stamped later.
		name: "mutex",
		src: memSource{
			{ID: 1, Events: []trace.Event{op(trace.OpLock, mu, 100), ticket(1), op(trace.OpUnlock, mu, 450)}},
			{ID: 2, Events: []trace.Event{wait(trace.OpLock, mu, 200, 500), ticket(2), op(trace.OpUnlock, mu, 600)}},
			{ID: 3, Events: []trace.Event{wait(trace.OpLock, mu, 300, 700), ticket(3)}},
		},
		want: []string{"2.0<-1.1", "3.0<-2.1"},
	}, {
		// Barging (docs/FORMAT.md, "Mutexes: barging"): 1's unlock at 300
		// wakes 3, waiting since 200, but 2 arrives, takes the mutex
		// without waiting (ticket 2) and unlocks at 400; 3 takes it after
		// that (ticket 3). Its releaser is 2's unlock, the one it
		// acquired after, not 1's, which woke it.
		name: "barged mutex",
		src: memSource{
			{ID: 1, Events: []trace.Event{op(trace.OpLock, mu, 100), ticket(1), op(trace.OpUnlock, mu, 300)}},
			{ID: 2, Events: []trace.Event{op(trace.OpLock, mu, 310), ticket(2), op(trace.OpUnlock, mu, 400)}},
			{ID: 3, Events: []trace.Event{wait(trace.OpLock, mu, 200, 450), ticket(3)}},
		},
		want: []string{"3.0<-2.1"},
	}, {
		// The recorder stamps an unlock, writes its event (which can
		// flush a chunk) and only then unlocks: the unlock that ends a
		// wait can be stamped before the wait began. The ticket still
		// names it.
		name: "unlock stamped before the wait",
		src: memSource{
			{ID: 1, Events: []trace.Event{op(trace.OpLock, mu, 100), ticket(1), op(trace.OpUnlock, mu, 150)}},
			{ID: 2, Events: []trace.Event{wait(trace.OpLock, mu, 200, 9000), ticket(2)}},
		},
		want: []string{"2.0<-1.1"},
	}, {
		name: "waitgroup",
		src: memSource{
			{ID: 1, Events: []trace.Event{wait(trace.OpWGWait, wg, 100, 900)}},
			{ID: 2, Events: []trace.Event{op(trace.OpWGDone, wg, 300)}},
			{ID: 3, Events: []trace.Event{op(trace.OpWGDone, wg, 700)}},
		},
		want: []string{"1.0<-3.0"},
	}, {
		// Signal wakes the waiter that began first, even if the other wakes
		// sooner.
		name: "cond",
		src: memSource{
			{ID: 1, Events: []trace.Event{wait(trace.OpCondWait, cv, 100, 900)}},
			{ID: 2, Events: []trace.Event{wait(trace.OpCondWait, cv, 200, 800)}},
			{ID: 3, Events: []trace.Event{op(trace.OpCondSignal, cv, 500), op(trace.OpCondSignal, cv, 600)}},
		},
		want: []string{"1.0<-3.0", "2.0<-3.1"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := released(t, tc.src)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}
