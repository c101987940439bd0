package perfetto

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
)

// File is a Chrome trace-event file in its JSON object form, as [Validate]
// decodes it.
type File struct {
	TraceEvents     []Event        `json:"traceEvents"`
	DisplayTimeUnit string         `json:"displayTimeUnit,omitempty"`
	OtherData       map[string]any `json:"otherData,omitempty"`
}

// Event is one trace event. Pointer fields tell a missing field from a zero
// one.
type Event struct {
	Ph    string          `json:"ph"`
	Name  *string         `json:"name"`
	Cat   *string         `json:"cat"`
	Pid   *int64          `json:"pid"`
	Tid   *int64          `json:"tid"`
	Ts    *float64        `json:"ts"`
	Dur   *float64        `json:"dur"`
	ID    json.RawMessage `json:"id"`
	BP    *string         `json:"bp"`
	S     *string         `json:"s"`
	Args  map[string]any  `json:"args"`
	Cname *string         `json:"cname"`
	Tts   *float64        `json:"tts"`
	Tdur  *float64        `json:"tdur"`
}

// Phases this validator knows; only they pass.
var knownPhases = map[string]bool{
	"B": true, "E": true, "X": true, "i": true, "I": true, "C": true,
	"b": true, "n": true, "e": true, "s": true, "t": true, "f": true,
	"M": true, "N": true, "O": true, "D": true,
}

// Validate decodes a Chrome trace-event JSON file with encoding/json into
// typed events and checks the format's rules for every event:
//
//   - the object form, with a traceEvents array and a displayTimeUnit of
//     "ms" or "ns" if any; no unknown fields;
//   - every event has a known ph, a pid and a tid (process metadata may
//     omit the tid), and a finite, non-negative ts unless it is metadata;
//     every phase but E has a name;
//   - X has a finite dur >= 0, and nothing else has a dur;
//   - metadata names known records with the args they need, at most once
//     per process or thread, and every pid and pid/tid used by an event is
//     named by process_name and thread_name metadata;
//   - B and E are balanced per thread (sorted by ts, file order at equal
//     times, as viewers do), an E's name and category, if any, match its
//     B's;
//   - the slices of a thread (B/E pairs and X) nest: none overlaps another
//     without containing it, and of two that start at the same time the
//     one first in the file contains the other (viewers take it as the
//     parent);
//   - flow events (s, t, f) have an id and a category; every s has exactly
//     one f with the same id, category and name (Perfetto matches flows by
//     all three), no earlier than it, and nothing
//     but s starts a flow; s, t and an f with bp "e" fall inside a slice of
//     their thread, and an f without bp is followed by a slice there;
//   - instant scopes are g, p or t.
//
// It returns the decoded file so that tests can look further.
func Validate(data []byte) (*File, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("decoding trace JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("decoding trace JSON: data after the top-level object")
	}
	if f.TraceEvents == nil {
		return nil, errors.New("no traceEvents array")
	}
	switch f.DisplayTimeUnit {
	case "", "ms", "ns":
	default:
		return nil, fmt.Errorf("displayTimeUnit %q is neither ms nor ns", f.DisplayTimeUnit)
	}
	v := validator{f: &f, procs: map[int64]string{}, threads: map[[2]int64]string{}, slices: map[[2]int64][]interval{}}
	for i := range f.TraceEvents {
		if err := v.event(i, &f.TraceEvents[i]); err != nil {
			return nil, fmt.Errorf("event %d (ph %q): %w", i, f.TraceEvents[i].Ph, err)
		}
	}
	if err := v.named(); err != nil {
		return nil, err
	}
	if err := v.nesting(); err != nil {
		return nil, err
	}
	if err := v.flows(); err != nil {
		return nil, err
	}
	return &f, nil
}

type interval struct {
	start, end int64 // ns
	ev         int   // index of the X or B event
	name       string
}

type validator struct {
	f       *File
	procs   map[int64]string
	threads map[[2]int64]string
	used    [][2]int64 // pid/tid of non-metadata events, in order
	usedSet map[[2]int64]int
	begins  map[[2]int64][]int // B and E events per thread, in file order
	slices  map[[2]int64][]interval
}

// ns converts microseconds to integer nanoseconds, the precision that
// viewers keep.
func ns(us float64) int64 { return int64(math.Round(us * 1000)) }

func (v *validator) event(i int, e *Event) error {
	if e.Ph == "" {
		return errors.New("no ph")
	}
	if !knownPhases[e.Ph] {
		return fmt.Errorf("unknown phase %q", e.Ph)
	}
	if e.Pid == nil {
		return errors.New("no pid")
	}
	if e.Ph == "M" {
		return v.meta(e)
	}
	if e.Tid == nil {
		return errors.New("no tid")
	}
	if e.Name == nil && e.Ph != "E" {
		return errors.New("no name")
	}
	if e.Ts == nil {
		return errors.New("no ts")
	}
	if math.IsNaN(*e.Ts) || math.IsInf(*e.Ts, 0) || *e.Ts < 0 {
		return fmt.Errorf("ts %v is not a finite non-negative number", *e.Ts)
	}
	if e.Ph == "X" {
		if e.Dur == nil {
			return errors.New("complete event without dur")
		}
		if math.IsNaN(*e.Dur) || math.IsInf(*e.Dur, 0) || *e.Dur < 0 {
			return fmt.Errorf("dur %v is not a finite number >= 0", *e.Dur)
		}
	} else if e.Dur != nil {
		return errors.New("dur on an event that is not complete (X)")
	}
	switch e.Ph {
	case "s", "t", "f":
		if len(e.ID) == 0 {
			return errors.New("flow event without id")
		}
		if e.Cat == nil || *e.Cat == "" {
			return errors.New("flow event without cat")
		}
		if e.BP != nil && *e.BP != "e" {
			return fmt.Errorf("flow binding point %q is not \"e\"", *e.BP)
		}
	case "i", "I":
		if e.S != nil && *e.S != "g" && *e.S != "p" && *e.S != "t" {
			return fmt.Errorf("instant scope %q is not g, p or t", *e.S)
		}
	}
	if e.BP != nil && e.Ph != "s" && e.Ph != "t" && e.Ph != "f" {
		return errors.New("bp on an event that is not a flow event")
	}
	key := [2]int64{*e.Pid, *e.Tid}
	if v.usedSet == nil {
		v.usedSet = map[[2]int64]int{}
		v.begins = map[[2]int64][]int{}
	}
	if _, ok := v.usedSet[key]; !ok {
		v.usedSet[key] = i
		v.used = append(v.used, key)
	}
	switch e.Ph {
	case "B", "E":
		v.begins[key] = append(v.begins[key], i)
	case "X":
		start := ns(*e.Ts)
		v.slices[key] = append(v.slices[key], interval{start: start, end: start + ns(*e.Dur), ev: i, name: *e.Name})
	}
	return nil
}

func (v *validator) meta(e *Event) error {
	if e.Name == nil {
		return errors.New("metadata without name")
	}
	need := func(key string, str bool) error {
		a, ok := e.Args[key]
		if !ok {
			return fmt.Errorf("%s metadata without args.%s", *e.Name, key)
		}
		if _, isStr := a.(string); str && !isStr {
			return fmt.Errorf("%s metadata: args.%s is not a string", *e.Name, key)
		}
		if _, isNum := a.(float64); !str && !isNum {
			return fmt.Errorf("%s metadata: args.%s is not a number", *e.Name, key)
		}
		return nil
	}
	switch *e.Name {
	case "process_name":
		if err := need("name", true); err != nil {
			return err
		}
		name := e.Args["name"].(string)
		if old, ok := v.procs[*e.Pid]; ok && old != name {
			return fmt.Errorf("process %d named twice: %q and %q", *e.Pid, old, name)
		}
		v.procs[*e.Pid] = name
	case "thread_name":
		if e.Tid == nil {
			return errors.New("thread_name without tid")
		}
		if err := need("name", true); err != nil {
			return err
		}
		key := [2]int64{*e.Pid, *e.Tid}
		name := e.Args["name"].(string)
		if old, ok := v.threads[key]; ok && old != name {
			return fmt.Errorf("thread %d/%d named twice: %q and %q", key[0], key[1], old, name)
		}
		v.threads[key] = name
	case "process_sort_index", "thread_sort_index":
		return need("sort_index", false)
	case "process_labels":
		return need("labels", true)
	default:
		return fmt.Errorf("unknown metadata %q", *e.Name)
	}
	return nil
}

// named checks that every process and thread used is named.
func (v *validator) named() error {
	for _, k := range v.used {
		i := v.usedSet[k]
		if _, ok := v.procs[k[0]]; !ok {
			return fmt.Errorf("event %d: pid %d has no process_name metadata", i, k[0])
		}
		if _, ok := v.threads[k]; !ok {
			return fmt.Errorf("event %d: pid %d tid %d has no thread_name metadata", i, k[0], k[1])
		}
	}
	return nil
}

// nesting pairs B with E and checks that each thread's slices nest.
func (v *validator) nesting() error {
	evs := v.f.TraceEvents
	for _, k := range v.used {
		be := v.begins[k]
		sort.SliceStable(be, func(i, j int) bool { return ns(*evs[be[i]].Ts) < ns(*evs[be[j]].Ts) })
		var stack []int
		for _, i := range be {
			e := &evs[i]
			if e.Ph == "B" {
				stack = append(stack, i)
				continue
			}
			if len(stack) == 0 {
				return fmt.Errorf("event %d: E on pid %d tid %d with no open B", i, k[0], k[1])
			}
			bi := stack[len(stack)-1]
			b := &evs[bi]
			stack = stack[:len(stack)-1]
			if e.Name != nil && *e.Name != *b.Name {
				return fmt.Errorf("event %d: E named %q ends B %q", i, *e.Name, *b.Name)
			}
			// Perfetto drops an E whose category is not its B's.
			if e.Cat != nil && (b.Cat == nil || *e.Cat != *b.Cat) {
				return fmt.Errorf("event %d: E of category %q ends B %q of category %q", i, *e.Cat, *b.Name, str0(b.Cat))
			}
			v.slices[k] = append(v.slices[k], interval{start: ns(*b.Ts), end: ns(*e.Ts), ev: bi, name: *b.Name})
		}
		if len(stack) > 0 {
			i := stack[len(stack)-1]
			return fmt.Errorf("event %d: B %q on pid %d tid %d never ends", i, *evs[i].Name, k[0], k[1])
		}
		// Viewers sort by time and take events of equal times in file
		// order: of two slices that start together, the first in the file
		// is the parent, and must not be the shorter.
		ivs := v.slices[k]
		sort.Slice(ivs, func(i, j int) bool {
			if ivs[i].start != ivs[j].start {
				return ivs[i].start < ivs[j].start
			}
			return ivs[i].ev < ivs[j].ev
		})
		var open []interval
		for _, iv := range ivs {
			for len(open) > 0 && iv.start >= open[len(open)-1].end {
				open = open[:len(open)-1]
			}
			if n := len(open); n > 0 && iv.end > open[n-1].end {
				p := open[n-1]
				return fmt.Errorf("event %d: slice %q [%d, %d] ns overlaps slice %q [%d, %d] ns (event %d) on pid %d tid %d without nesting",
					iv.ev, iv.name, iv.start, iv.end, p.name, p.start, p.end, p.ev, k[0], k[1])
			}
			open = append(open, iv)
		}
	}
	return nil
}

type flowEnd struct {
	s, f []int
}

// flows checks that flows are whole and bind to slices.
func (v *validator) flows() error {
	evs := v.f.TraceEvents
	byID := map[string]*flowEnd{}
	var order []string
	for i := range evs {
		e := &evs[i]
		if e.Ph != "s" && e.Ph != "t" && e.Ph != "f" {
			continue
		}
		// Perfetto matches v1 flow events by id, category and name.
		key := string(e.ID) + " (cat " + strconv.Quote(*e.Cat) + ", name " + strconv.Quote(*e.Name) + ")"
		fe := byID[key]
		if fe == nil {
			fe = &flowEnd{}
			byID[key] = fe
			order = append(order, key)
		}
		switch e.Ph {
		case "s":
			fe.s = append(fe.s, i)
		case "f":
			fe.f = append(fe.f, i)
		}
		k := [2]int64{*e.Pid, *e.Tid}
		ts := ns(*e.Ts)
		next := e.Ph == "f" && e.BP == nil
		if !v.bound(k, ts, next) {
			if next {
				return fmt.Errorf("event %d: flow end at %v us on pid %d tid %d has no slice starting at or after it to bind to", i, *e.Ts, k[0], k[1])
			}
			return fmt.Errorf("event %d: flow event at %v us on pid %d tid %d is inside no slice to bind to", i, *e.Ts, k[0], k[1])
		}
	}
	for _, key := range order {
		fe := byID[key]
		switch {
		case len(fe.s) == 0:
			return fmt.Errorf("event %d: flow id %s has no start (s)", firstOf(fe), key)
		case len(fe.s) > 1:
			return fmt.Errorf("event %d: flow id %s starts twice (also event %d)", fe.s[1], key, fe.s[0])
		case len(fe.f) == 0:
			return fmt.Errorf("event %d: flow id %s never finishes (no f)", fe.s[0], key)
		case len(fe.f) > 1:
			return fmt.Errorf("event %d: flow id %s finishes twice (also event %d)", fe.f[1], key, fe.f[0])
		}
		if s, f := ns(*evs[fe.s[0]].Ts), ns(*evs[fe.f[0]].Ts); f < s {
			return fmt.Errorf("event %d: flow id %s finishes at %d ns, before it starts at %d ns", fe.f[0], key, f, s)
		}
	}
	return nil
}

func firstOf(fe *flowEnd) int {
	if len(fe.f) > 0 {
		return fe.f[0]
	}
	return -1
}

// bound reports whether a flow event at ts on thread k has a slice to bind
// to: one that contains ts, or with next, one that starts at or after it.
func (v *validator) bound(k [2]int64, ts int64, next bool) bool {
	for _, iv := range v.slices[k] {
		if next && iv.start >= ts {
			return true
		}
		if !next && iv.start <= ts && ts <= iv.end {
			return true
		}
	}
	return false
}

// str0 is *p, or "" for nil.
func str0(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
