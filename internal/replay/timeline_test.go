package replay

import (
	"fmt"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// memRun is an in-memory run: goroutines with their starts and events.
type memRun struct {
	gs  []trace.GoroutineInfo
	evs map[uint64][]trace.Event
}

func (m *memRun) Goroutines() []trace.GoroutineInfo { return m.gs }
func (m *memRun) Events(id uint64) (trace.EventIter, error) {
	return &sliceIter{evs: m.evs[id], i: -1}, nil
}

type sliceIter struct {
	evs []trace.Event
	i   int
}

func (s *sliceIter) Next() bool         { s.i++; return s.i < len(s.evs) }
func (s *sliceIter) Event() trace.Event { return s.evs[s.i] }
func (s *sliceIter) Err() error         { return nil }

// logger is a consumer that writes down what it is handed.
type logger struct {
	out     []string
	putOff  map[uint64]int64 // goroutine → a time to put its first wait off to
	holding bool
}

func (c *logger) log(f string, args ...any) { c.out = append(c.out, fmt.Sprintf(f, args...)) }
func (c *logger) Open(l *Lane) error        { c.log("open %d@%d", l.Info.ID, l.T0()); return nil }
func (c *logger) Ran(l *Lane) error {
	if !c.holding {
		c.items(l)
	}
	return nil
}
func (c *logger) Apply(l *Lane) (bool, error) {
	if c.holding {
		c.items(l)
	}
	ev := l.Head
	if t, ok := c.putOff[l.Info.ID]; ok && ev.Waited {
		delete(c.putOff, l.Info.ID)
		l.PutOff(t)
		c.log("put off %d to %d", l.Info.ID, t)
		return false, nil
	}
	switch ev.Kind {
	case trace.EvClock:
		c.log("%d clock@%d", l.Info.ID, ev.Time)
	case trace.EvPerturb:
		c.log("%d perturb %d..%d", l.Info.ID, ev.Begin, ev.End)
	default:
		c.log("%d %s#%d %d..%d", l.Info.ID, ev.Op, l.NSync-1, ev.Begin, ev.End)
	}
	return true, nil
}
func (c *logger) Close(l *Lane) error {
	if c.holding {
		c.items(l)
	}
	c.log("close %d@%d", l.Info.ID, l.T0())
	return nil
}

// items logs a stretch as "  b@at+dur" per block, "go@at" per spawn.
func (c *logger) items(l *Lane) {
	var s []string
	for _, it := range l.Items() {
		switch {
		case it.Step.Kind == 0:
			s = append(s, fmt.Sprintf("go@%d", it.At))
		case it.Step.Kind != Exit:
			s = append(s, fmt.Sprintf("%d@%d+%d", it.Step.Block, it.At, it.Dur))
		}
	}
	if len(s) > 0 {
		c.log("  %d ran %s", l.Info.ID, strings.Join(s, " "))
	}
}

func sync(op trace.Op, begin, end int64) trace.Event {
	return trace.Event{Kind: trace.EvSync, Op: op, Object: 9, Block: 2, Waited: begin < end, Begin: begin, End: end}
}

func block(b uint32) trace.Event { return trace.Event{Kind: trace.EvBlock, Block: b} }

// twoGoroutines: 1 runs f's entry and body, starts 2, then waits on a
// receive from 10 to 40; 2 starts at 20, sends at 40 (not waiting) and
// ends. The send and the receive's end have the same time: the send comes
// first.
func twoGoroutines() *memRun {
	return &memRun{
		gs: []trace.GoroutineInfo{
			{ID: 2, Start: 20, End: 50, Ended: true},
			{ID: 1, Start: 0, End: 60, Ended: true},
		},
		evs: map[uint64][]trace.Event{
			1: {block(0), {Kind: trace.EvSpawn, Child: 2}, block(2), sync(trace.OpRecv, 10, 40), {Kind: trace.EvExit, Block: 0}},
			2: {block(5), sync(trace.OpSend, 40, 40), {Kind: trace.EvExit, Block: 5}},
		},
	}
}

func runLog(t *testing.T, m *memRun, c *logger) string {
	t.Helper()
	p := weighted()
	tl, err := NewTimeline(m, NewPaths(p), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	tl.Hold = c.holding
	if err := tl.Run(c); err != nil {
		t.Fatal(err)
	}
	return strings.Join(c.out, "\n")
}

func TestTimelineOrder(t *testing.T) {
	// 1's stretch to the receive's begin (10 ns over weights 3, 1, go, 4,
	// 1, 1) is spread as soon as the receive is read, before 2 opens at
	// 20; the go statement is 4 ns in. The send and the receive's end
	// have the same key, 40: the send first. After them g and f run their
	// exit paths (g's done, f's done).
	want := `open 1@0
  1 ran 0@0+3 1@3+1 go@4 2@4+4 3@8+1 1@9+1
open 2@20
  2 ran 5@20+20
2 send#0 40..40
  2 ran 7@40+10
close 2@50
1 recv#0 10..40
  1 ran 4@40+20
close 1@60`
	if got := runLog(t, twoGoroutines(), &logger{}); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Holding, a consumer sees each stretch when its head is due, with the
// same times.
func TestTimelineHold(t *testing.T) {
	want := `open 1@0
open 2@20
  2 ran 5@20+20
2 send#0 40..40
  2 ran 7@40+10
close 2@50
  1 ran 0@0+3 1@3+1 go@4 2@4+4 3@8+1 1@9+1
1 recv#0 10..40
  1 ran 4@40+20
close 1@60`
	if got := runLog(t, twoGoroutines(), &logger{holding: true}); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A wait put off comes back at the time asked, after the heads before it.
func TestTimelinePutOff(t *testing.T) {
	m := twoGoroutines()
	m.evs[2] = []trace.Event{block(5), sync(trace.OpSend, 45, 45), {Kind: trace.EvExit, Block: 5}}
	got := runLog(t, m, &logger{putOff: map[uint64]int64{1: 45}})
	want := `open 1@0
  1 ran 0@0+3 1@3+1 go@4 2@4+4 3@8+1 1@9+1
open 2@20
  2 ran 5@20+25
put off 1 to 45
2 send#0 45..45
  2 ran 7@45+5
close 2@50
1 recv#0 10..40
  1 ran 4@40+20
close 1@60`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A perturb event's delay is no block's time; a wait still blocked at the
// end is keyed by its begin; clocks end stretches.
func TestTimelineStamps(t *testing.T) {
	blocked := sync(trace.OpRecv, 30, 90)
	blocked.Blocked = true
	m := &memRun{
		gs: []trace.GoroutineInfo{{ID: 1, Start: 0}, {ID: 2, Start: 0, End: 70, Ended: true}},
		evs: map[uint64][]trace.Event{
			1: {block(0), {Kind: trace.EvPerturb, Begin: 10, End: 20}, block(2), blocked},
			2: {block(5), {Kind: trace.EvClock, Time: 50}, block(6), {Kind: trace.EvExit, Block: 5}},
		},
	}
	want := `open 1@0
  1 ran 0@0+8 1@8+2
open 2@0
  2 ran 5@0+50
1 perturb 10..20
  1 ran 2@20+7 3@27+1 1@28+2
1 recv#0 30..90
close 1@90
2 clock@50
  2 ran 6@50+17 7@67+3
close 2@70`
	if got := runLog(t, m, &logger{}); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestTimelineErrors(t *testing.T) {
	p := NewPaths(weighted())
	dup := &memRun{gs: []trace.GoroutineInfo{{ID: 1}, {ID: 1}}}
	if _, err := NewTimeline(dup, p, nil, 0); err == nil || err.Error() != "goroutine 1 is listed twice" {
		t.Errorf("duplicate goroutine: %v", err)
	}
	for _, tt := range []struct {
		evs  []trace.Event
		want string
	}{
		{[]trace.Event{block(0), block(99)}, "goroutine 1 event 2: block 99 is not in the graph"},
		{[]trace.Event{{Kind: trace.EvSync, Op: trace.OpLock, Block: 99}}, "goroutine 1 event 1: lock at block 99, which is not in the graph"},
		{[]trace.Event{{Kind: 42}}, "goroutine 1 event 1: unknown event kind 42"},
	} {
		m := &memRun{gs: []trace.GoroutineInfo{{ID: 1}}, evs: map[uint64][]trace.Event{1: tt.evs}}
		tl, err := NewTimeline(m, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := tl.Run(&logger{}); err == nil || err.Error() != tt.want {
			t.Errorf("got %v, want %s", err, tt.want)
		}
	}
}
