package trace

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// A Schedule is the order in which a run's goroutines passed the runtime's
// schedule hook, the point every sync wrapper (and the start of a goroutine
// started through Spawn) calls before its operation: DIVERGO_REPLAY=FILE
// makes a run take those turns in the same order (runtime/replay.go).
//
// A turn names its goroutine by spawn structure, not by recorder id, which
// depends on the schedule: a root (main, or a test's goroutine by the
// test's name) or the Ordinal-th child of another at the go statement of
// Site. The runtime turns that structure into the identities its
// goroutines have in the replaying run, so that the file does not depend on
// the seed of the recorded run. Goroutines started by code divergo did not
// instrument are left out: their turns proceed at once.
type Schedule struct {
	Gs    []SchedG
	Turns []Turn
}

// SchedG is a goroutine of a schedule.
type SchedG struct {
	// Parent is the index in Gs of the parent, plus one; 0 for a root.
	Parent  int
	Test    string // a root's test name, "" for main
	Site    uint32 // a child's go statement
	Ordinal uint32 // a child's ordinal at Site, from 1
}

// Turn is the K-th pass through the hook (from 0) of goroutine G (an index
// in Gs). The pass of a select that said which clause it chose has it in
// Case (Event.Case: from 1, the default counted), which the replay forces.
type Turn struct {
	G    int
	K    uint32
	Case uint32
}

// Hooked reports whether the runtime's schedule hook precedes a sync
// operation op: releases of a lock and sleeps have none (what waits for
// them is ordered already), and a cond.Wait records an unlock before its
// wait under one hook.
func Hooked(op Op) bool {
	return op != OpUnlock && op != OpRUnlock && op != OpSleep
}

// scheduleMagic opens a schedule file. Version 2 added a select's clause
// to its turn; a version 1 file still reads.
const (
	scheduleMagic   = "divergo schedule 2"
	scheduleMagicV1 = "divergo schedule 1"
)

// WriteTo writes s as text: the magic line, one line per goroutine
// ("main", "test NAME", or "go PARENT SITE ORDINAL", numbered from 1 in
// that order), "turns", then one line per turn ("G K", or "G K C" for a
// select that chose clause C).
func (s *Schedule) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	b.WriteString(scheduleMagic + "\n")
	for _, g := range s.Gs {
		switch {
		case g.Parent > 0:
			fmt.Fprintf(&b, "go %d %d %d\n", g.Parent, g.Site, g.Ordinal)
		case g.Test != "":
			fmt.Fprintf(&b, "test %s\n", g.Test)
		default:
			b.WriteString("main\n")
		}
	}
	b.WriteString("turns\n")
	for _, t := range s.Turns {
		if t.Case != 0 {
			fmt.Fprintf(&b, "%d %d %d\n", t.G+1, t.K, t.Case)
		} else {
			fmt.Fprintf(&b, "%d %d\n", t.G+1, t.K)
		}
	}
	return b.WriteTo(w)
}

// ParseSchedule reads a schedule written by WriteTo.
func ParseSchedule(data []byte) (*Schedule, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	line := 0
	next := func() (string, bool) {
		ok := sc.Scan()
		line++
		return sc.Text(), ok
	}
	bad := func(format string, args ...any) (*Schedule, error) {
		return nil, fmt.Errorf("schedule line %d: %s", line, fmt.Sprintf(format, args...))
	}
	if l, ok := next(); !ok || l != scheduleMagic && l != scheduleMagicV1 {
		return bad("not a divergo schedule")
	}
	s := &Schedule{}
	for {
		l, ok := next()
		if !ok {
			return bad("no turns line")
		}
		if l == "turns" {
			break
		}
		var g SchedG
		switch f := strings.Fields(l); {
		case l == "main":
		case strings.HasPrefix(l, "test "):
			g.Test = l[len("test "):]
		case len(f) == 4 && f[0] == "go":
			p, err1 := strconv.Atoi(f[1])
			site, err2 := strconv.ParseUint(f[2], 10, 32)
			ord, err3 := strconv.ParseUint(f[3], 10, 32)
			if err1 != nil || err2 != nil || err3 != nil || p < 1 || p > len(s.Gs) {
				return bad("bad goroutine %q", l)
			}
			g = SchedG{Parent: p, Site: uint32(site), Ordinal: uint32(ord)}
		default:
			return bad("bad goroutine %q", l)
		}
		s.Gs = append(s.Gs, g)
	}
	for {
		l, ok := next()
		if !ok {
			break
		}
		f := strings.Split(l, " ")
		if len(f) != 2 && len(f) != 3 {
			return bad("bad turn %q", l)
		}
		g, err1 := strconv.Atoi(f[0])
		k, err2 := strconv.ParseUint(f[1], 10, 32)
		var c uint64
		var err3 error
		if len(f) == 3 {
			c, err3 = strconv.ParseUint(f[2], 10, 32)
			if err3 == nil && (c == 0 || c > MaxCase) {
				err3 = errors.New("case out of range")
			}
		}
		if err1 != nil || err2 != nil || err3 != nil || g < 1 || g > len(s.Gs) {
			return bad("bad turn %q", l)
		}
		s.Turns = append(s.Turns, Turn{G: g - 1, K: uint32(k), Case: uint32(c)})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading the schedule: %w", err)
	}
	return s, nil
}

// Schedule is the order of the turns of the goroutines of test and its
// subtests, and of every goroutine they started through go statements
// (test "": main's and its descendants'), by the time each turn's operation
// began: the goroutine's start for the first turn of a child, a sync
// operation's Begin when it waited, its End (read just after the hook)
// when it did not, but for a Once's runner, whose end comes after the
// function it ran: the time it took the Once. Ties keep the order of the
// goroutines and their turns.
func (r *Reader) Schedule(test string) (*Schedule, error) {
	children := map[uint64][]GoroutineInfo{}
	var roots []GoroutineInfo
	for _, gi := range ByID(r.Goroutines()) {
		switch {
		case gi.Test != "" && (test == "" || gi.Test == test || strings.HasPrefix(gi.Test, test+"/")):
			if test != "" {
				roots = append(roots, gi)
			}
		case gi.ID == 1 && test == "":
			roots = append(roots, gi)
		case gi.Parent != 0 && gi.Test == "":
			children[gi.Parent] = append(children[gi.Parent], gi)
		}
	}
	if len(roots) == 0 {
		if test == "" {
			return nil, fmt.Errorf("no main goroutine in the trace")
		}
		return nil, fmt.Errorf("no goroutine of %s in the trace", test)
	}
	type timed struct {
		at   int64
		turn Turn
	}
	var ts []timed
	s := &Schedule{}
	queue := make([]GoroutineInfo, 0, len(roots))
	parentOf := map[uint64]int{}
	queue = append(queue, roots...)
	for i := 0; i < len(queue); i++ {
		gi := queue[i]
		sg := SchedG{Parent: parentOf[gi.ID], Test: gi.Test}
		if sg.Parent > 0 {
			sg.Site, sg.Ordinal = gi.Site, gi.Ordinal
		}
		s.Gs = append(s.Gs, sg)
		idx := len(s.Gs) - 1
		for _, c := range children[gi.ID] {
			parentOf[c.ID] = idx + 1
			queue = append(queue, c)
		}
		var k uint32
		if sg.Parent > 0 { // Child.Start's hook
			ts = append(ts, timed{gi.Start, Turn{G: idx, K: k}})
			k++
		}
		it, err := r.Events(gi.ID)
		if err != nil {
			return nil, err
		}
		// A Once's runner records its event after f returned, with only
		// that end: the first clock since the goroutine's turn before it
		// (the runtime writes one as f starts, with the time it took the
		// Once) says when it began, and its outcome 1 that it ran f.
		since, once, onceAt := int64(-1), -1, int64(0)
		for it.Next() {
			ev := it.Event()
			if ev.Kind == EvClock && since < 0 {
				since = ev.Time
			}
			if ev.Kind == EvOutcome && once >= 0 && ev.Value == 1 {
				ts[once].at = min(ts[once].at, onceAt)
			}
			if ev.Kind != EvClock {
				once = -1
			}
			if ev.Kind != EvSync || !Hooked(ev.Op) {
				continue
			}
			at := ev.End
			if ev.Waited {
				at = ev.Begin
			}
			if ev.Op == OpOnce && !ev.Waited && since >= 0 {
				once, onceAt = len(ts), since
			}
			ts = append(ts, timed{at, Turn{idx, k, ev.Case}})
			k++
			since = -1
		}
		if err := it.Err(); err != nil {
			return nil, fmt.Errorf("goroutine %s: %w", gi.Path, err)
		}
	}
	slices.SortStableFunc(ts, func(a, b timed) int { return cmp.Compare(a.at, b.at) })
	s.Turns = make([]Turn, len(ts))
	for i, t := range ts {
		s.Turns[i] = t.turn
	}
	return s, nil
}
