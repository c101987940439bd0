package e2e

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	xtrace "golang.org/x/exp/trace"
)

// unblock is one edge of Go's execution trace: a goroutine that had
// blocked was made runnable, by goroutine by (-1: by no goroutine, such as
// a timer run by the scheduler). Times are the divergo trace's.
type unblock struct {
	blocked, at int64
	reason      string // why it had blocked, as the tracer says ("chan receive", "sync", ...)
	by          int64
}

// goTrace is what the agreement test reads of an execution trace: per Go
// goroutine id, its unblock edges in time order.
type goTrace map[uint64][]unblock

// readGoTrace reads the execution trace the runtime wrote beside a divergo
// trace (DIVERGO_RUNTIME_TRACE) and puts its times on the divergo trace's
// clock: the tracer's clock snapshots give nanotime, and divergo's log
// event gives nanotime at its time 0 (runtime/gotrace.go).
func readGoTrace(t *testing.T, path string) goTrace {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := xtrace.NewReader(f)
	if err != nil {
		t.Fatalf("execution trace: %v", err)
	}
	type raw struct {
		g       uint64
		blocked xtrace.Time
		at      xtrace.Time
		reason  string
		by      int64
	}
	var (
		edges    []raw
		blockAt  = map[uint64]xtrace.Time{}
		reasonOf = map[uint64]string{}
		snaps    []*xtrace.ClockSnapshot
		base     int64
		haveBase bool
	)
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("execution trace: %v", err)
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
				blockAt[g], reasonOf[g] = ev.Time(), st.Reason
			case from == xtrace.GoWaiting && to == xtrace.GoRunnable:
				b, ok := blockAt[g]
				if !ok {
					continue // blocked before the trace began
				}
				edges = append(edges, raw{g, b, ev.Time(), reasonOf[g], int64(ev.Goroutine())})
				delete(blockAt, g)
			}
		}
	}
	if !haveBase || len(snaps) == 0 {
		t.Fatalf("execution trace %s: no clock anchor (base %v, %d clock snapshots)", path, haveBase, len(snaps))
	}
	// nearest snapshot at or before tt (the first one before any)
	conv := func(tt xtrace.Time) int64 {
		i := sort.Search(len(snaps), func(i int) bool { return snaps[i].Trace > tt }) - 1
		s := snaps[max(i, 0)]
		return int64(s.Mono) + int64(tt-s.Trace) - base
	}
	out := goTrace{}
	for _, e := range edges {
		by := e.by
		if xtrace.GoID(by) == xtrace.NoGoroutine {
			by = -1
		}
		out[e.g] = append(out[e.g], unblock{blocked: conv(e.blocked), at: conv(e.at), reason: e.reason, by: by})
	}
	return out
}

func (u unblock) String() string {
	return fmt.Sprintf("%q %d..%d by %d", u.reason, u.blocked, u.at, u.by)
}
