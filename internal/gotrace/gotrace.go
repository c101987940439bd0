// Package gotrace reads Go's execution trace, recorded beside a divergo
// trace when a run sets DIVERGO_RUNTIME_TRACE (runtime/gotrace.go), for
// what divergo cannot see itself: which goroutine woke a goroutine that
// had blocked, also when the wake happened in code divergo does not
// instrument (the standard library, other modules), and where; and, to
// check divergo against, where the goroutine had blocked.
//
// Times are put on the divergo trace's clock: the tracer's clock
// snapshots give its times as nanotime, and the log event "divergo"
// (category) with the message "base=N", written when recording ends, gives
// nanotime at the divergo trace's time 0. A trace without that anchor is
// refused: its times cannot be joined with the divergo trace's.
//
// Goroutines are named by Go's goroutine ids, which the divergo trace
// carries too (trace.GoroutineInfo.GoID).
package gotrace

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/divergo/divergo/internal/trace"
	xtrace "golang.org/x/exp/trace"
)

// Wake is one wake-up the tracer saw: goroutine G, blocked since Blocked
// at WaitStack, was made runnable at At by goroutine By.
type Wake struct {
	G       uint64
	Blocked int64
	At      int64
	// Reason is why G had blocked, as the tracer says ("chan receive",
	// "select", "sync", "sync.(*Cond).Wait", "sleep", ...).
	Reason string
	// By is the goroutine that woke G; -1 when no goroutine did (a
	// timer run by the scheduler, the network poller).
	By int64
	// Where is the waker's innermost frame outside the Go runtime when
	// it woke G, "function file:line"; "" when the tracer has no stack.
	Where string
	// Stack is the waker's stack when it woke G, innermost first, without
	// the frames of the Go runtime, package sync and divergo's recorder.
	Stack []Frame
	// WaitStack is G's own stack when it blocked, innermost first, without
	// the same frames: the first frame in the program's own files is the
	// statement G waited at (a lock, a receive, a select, ...). nil when the
	// tracer has no stack.
	WaitStack []Frame
	// GC says the block was the garbage collector's, not the program's:
	// G blocked in an allocation that started or assisted a collection,
	// or in runtime.GC (the waiter's stack holds a frame of the
	// allocator or the collector). Its WaitStack looks like a wait in
	// whatever allocated (strings.(*Builder).WriteString).
	GC bool
}

// Block is a block the tracer saw no end of: goroutine G blocked at
// Blocked, for Reason, at WaitStack (as in a [Wake]), and was still
// blocked when the trace ended (a deadlock, a leak, a run cut short).
type Block struct {
	G         uint64
	Blocked   int64
	Reason    string
	WaitStack []Frame
	GC        bool // as a Wake's
}

// Frame is one frame of a waker's or a waiter's stack.
type Frame struct {
	Func string
	File string
	Line int
}

// Trace is the wake-ups of an execution trace, per goroutine in time
// order.
type Trace struct {
	byG map[uint64][]Wake
	n   int
	// unended: per goroutine, the block it was in when the trace ended.
	unended map[uint64]Block
}

// Beside is where DIVERGO_RUNTIME_TRACE=1 writes the execution trace of a
// run whose divergo trace is at dvt.
func Beside(dvt string) string {
	return strings.TrimSuffix(dvt, ".dvt") + ".gotrace"
}

// Open reads the execution trace at path.
func Open(path string) (*Trace, error) {
	f, _, err := trace.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// errNoAnchor is the error of a trace that cannot be put on the divergo
// trace's clock.
var errNoAnchor = errors.New("not an execution trace of a divergo run: no clock anchor (DIVERGO_RUNTIME_TRACE writes one when recording ends; was the run cut short?)")

// Read reads an execution trace.
func Read(r io.Reader) (*Trace, error) {
	xr, err := xtrace.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("execution trace: %w", err)
	}
	type raw struct {
		w       Wake
		blocked xtrace.Time
		at      xtrace.Time
	}
	// block is a goroutine's block not yet ended: since when, why and
	// where.
	type block struct {
		at     xtrace.Time
		reason string
		stack  xtrace.Stack
	}
	var (
		wakes    []raw
		blocks   = map[uint64]block{}
		snaps    []*xtrace.ClockSnapshot
		stacks   = map[xtrace.Stack]stackInfo{}
		base     int64
		haveBase bool
	)
	for {
		ev, err := xr.ReadEvent()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("execution trace: %w", err)
		}
		switch ev.Kind() {
		case xtrace.EventSync:
			if s := ev.Sync().ClockSnapshot; s != nil {
				snaps = append(snaps, s)
			}
		case xtrace.EventLog:
			if l := ev.Log(); l.Category == "divergo" && strings.HasPrefix(l.Message, "base=") {
				base, err = strconv.ParseInt(strings.TrimPrefix(l.Message, "base="), 10, 64)
				haveBase = err == nil
			}
		case xtrace.EventStateTransition:
			st := ev.StateTransition()
			if st.Resource.Kind != xtrace.ResourceGoroutine {
				continue
			}
			g := uint64(st.Resource.Goroutine())
			from, to := st.Goroutine()
			switch {
			case from == xtrace.GoRunning && to == xtrace.GoWaiting:
				// The transition's own stack is the blocking
				// goroutine's (it emits the event itself).
				blocks[g] = block{ev.Time(), st.Reason, st.Stack}
			case from == xtrace.GoWaiting && to == xtrace.GoRunnable:
				b, ok := blocks[g]
				if !ok {
					continue // blocked before the trace began
				}
				delete(blocks, g)
				by := int64(ev.Goroutine())
				if ev.Goroutine() == xtrace.NoGoroutine {
					by = -1
				}
				waiter := frames(b.stack, stacks)
				w := Wake{G: g, Reason: b.reason, By: by, Stack: frames(ev.Stack(), stacks).fs, WaitStack: waiter.fs, GC: waiter.gc}
				if len(w.Stack) > 0 {
					w.Where = w.Stack[0].String()
				}
				wakes = append(wakes, raw{w, b.at, ev.Time()})
			}
		}
	}
	if !haveBase || len(snaps) == 0 {
		return nil, errNoAnchor
	}
	// The nearest snapshot at or before tt (the first one before any).
	conv := func(tt xtrace.Time) int64 {
		i := sort.Search(len(snaps), func(i int) bool { return snaps[i].Trace > tt }) - 1
		s := snaps[max(i, 0)]
		return int64(s.Mono) + int64(tt-s.Trace) - base
	}
	t := &Trace{byG: map[uint64][]Wake{}, n: len(wakes), unended: map[uint64]Block{}}
	for _, w := range wakes {
		w.w.Blocked, w.w.At = conv(w.blocked), conv(w.at)
		t.byG[w.w.G] = append(t.byG[w.w.G], w.w)
	}
	for g, b := range blocks {
		waiter := frames(b.stack, stacks)
		t.unended[g] = Block{G: g, Blocked: conv(b.at), Reason: b.reason, WaitStack: waiter.fs, GC: waiter.gc}
	}
	return t, nil
}

// stackInfo is what frames keeps of a stack.
type stackInfo struct {
	fs []Frame
	gc bool // a frame of the allocator or the garbage collector
}

// frames returns the frames of s that are not the machinery of waking or
// blocking, innermost first, the same slice for the same stack, and
// whether s was in the allocator or the garbage collector.
func frames(s xtrace.Stack, cache map[xtrace.Stack]stackInfo) stackInfo {
	if s == xtrace.NoStack {
		return stackInfo{}
	}
	if si, ok := cache[s]; ok {
		return si
	}
	var si stackInfo
	for f := range s.Frames() {
		if !skipFrame(f.Func) {
			si.fs = append(si.fs, Frame{f.Func, f.File, int(f.Line)})
		}
		si.gc = si.gc || f.Func == "runtime.mallocgc" || f.Func == "runtime.GC" || strings.HasPrefix(f.Func, "runtime.gc")
	}
	cache[s] = si
	return si
}

// skipFrame reports whether a frame belongs to the machinery of waking
// and blocking (the Go runtime, package sync, divergo's recorder and its
// wrappers) rather than to the code that woke or waited. The recorder is a
// package of the instrumented module, MODULE/_divergo (and its own
// internal packages below it).
func skipFrame(fn string) bool {
	for _, p := range []string{"runtime.", "internal/", "sync.", "github.com/divergo/divergo/runtime."} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return strings.Contains(fn, "/_divergo.") || strings.Contains(fn, "/_divergo/")
}

// Fits reports whether the tracer's reason for a block can be the block of
// a wait in op: a goroutine blocked in a receive is "chan receive", in a
// mutex "sync" or "sync.(*Mutex).Lock", and so on.
func Fits(op trace.Op, reason string) bool {
	switch op {
	case trace.OpSend, trace.OpRecv, trace.OpSelect:
		return strings.HasPrefix(reason, "chan") || strings.HasPrefix(reason, "select")
	case trace.OpLock, trace.OpRLock:
		return reason == "sync" || strings.Contains(reason, "Mutex")
	case trace.OpWGWait:
		return reason == "sync" || strings.Contains(reason, "WaitGroup")
	case trace.OpCondWait:
		return strings.Contains(reason, "Cond")
	case trace.OpOnce:
		return reason == "sync" || strings.Contains(reason, "Once")
	}
	return false
}

// New is a trace of the given wake-ups and blocks still open when it
// ended, already on the divergo trace's clock: for readers' tests, which
// script what the tracer saw.
func New(wakes []Wake, unended ...Block) *Trace {
	t := &Trace{byG: map[uint64][]Wake{}, n: len(wakes), unended: map[uint64]Block{}}
	for _, b := range unended {
		t.unended[b.G] = b
	}
	for _, w := range wakes {
		t.byG[w.G] = append(t.byG[w.G], w)
	}
	for _, ws := range t.byG {
		sort.SliceStable(ws, func(i, j int) bool { return ws[i].At < ws[j].At })
	}
	return t
}

// Len is the number of wake-ups.
func (t *Trace) Len() int { return t.n }

// Wakes returns goroutine g's wake-ups in time order.
func (t *Trace) Wakes(g uint64) []Wake { return t.byG[g] }

// Unended returns the block goroutine g was in when the trace ended, if it
// was blocked then.
func (t *Trace) Unended(g uint64) (Block, bool) {
	b, ok := t.unended[g]
	return b, ok
}

// Open returns the block goroutine g was in at cut, where the divergo
// trace ended, for its wait that began at begin and had not ended by then:
// a block that began inside the wait and was woken after cut (the program
// runs on until the tracer stops, after the divergo trace ends) or never,
// among those fits accepts (nil: all).
func (t *Trace) Open(g uint64, begin, cut int64, fits func(reason string) bool) (Block, bool) {
	in := func(blocked int64, reason string) bool {
		return blocked >= begin-JoinEps && blocked <= cut && (fits == nil || fits(reason))
	}
	if b, ok := t.unended[g]; ok && in(b.Blocked, b.Reason) {
		return b, true
	}
	var found Block
	ok := false
	for _, w := range t.byG[g] {
		if w.Blocked > cut {
			break
		}
		if w.At > cut && in(w.Blocked, w.Reason) {
			found, ok = Block{G: w.G, Blocked: w.Blocked, Reason: w.Reason, WaitStack: w.WaitStack, GC: w.GC}, true
		}
	}
	return found, ok
}

// JoinEps is how far a wake-up's block may stick out of divergo's wait:
// divergo reads the clock before trying and after waking, the tracer in
// between, so the block lies inside the wait up to the error of joining
// the clocks through nanotime (TSC conversion, clock snapshots). Measured
// on the end-to-end programs: the tracer's block began 74 ns or more after
// divergo's begin and ended 1.3 µs or more before its end; a wider margin
// picks up the goroutine's next block when waits follow each other
// closely.
const JoinEps = 1000

// Find returns the wake-up that ended goroutine g's wait from begin to
// end (divergo's stamps): the last one whose block began inside the wait
// (the goroutine's next block can begin a few hundred ns after its end)
// and that came by its end, among those fits accepts (nil: all). A wake
// before the wait began is not one of its own: it ended the goroutine's
// previous block, which can begin within JoinEps of the wait when the
// goroutine went straight from one to the other (sieve1: a receive woken
// 400 ns before a send that was still blocked when the trace ended, and
// has no wake of its own, took the receive's).
//
// A wake after the wait's end is taken only when none came by it: divergo
// stamps the end after the goroutine runs again, so its own wake comes
// first (1.3 µs or more before, on the end-to-end programs), and a block
// that began within the clocks' error of the end and was woken after it
// is the goroutine's next one (doubleselect: a mux's receive ended 3 ns
// after its next send blocked, by the joined clocks, and that send's wake
// 765 ns after the receive's end was taken for the receive's).
func (t *Trace) Find(g uint64, begin, end int64, fits func(reason string) bool) (Wake, bool) {
	var found, late Wake
	ok, lateOK := false, false
	for _, w := range t.byG[g] {
		if w.Blocked >= end {
			break
		}
		if w.Blocked < begin-JoinEps || w.At < begin || w.At > end+JoinEps || fits != nil && !fits(w.Reason) {
			continue
		}
		if w.At <= end {
			found, ok = w, true
		} else {
			late, lateOK = w, true
		}
	}
	if ok {
		return found, true
	}
	return late, lateOK
}

func (f Frame) String() string { return fmt.Sprintf("%s %s:%d", f.Func, f.File, f.Line) }

func (w Wake) String() string {
	s := fmt.Sprintf("%q %d..%d by %d", w.Reason, w.Blocked, w.At, w.By)
	if w.Where != "" {
		s += " at " + w.Where
	}
	return s
}
