package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/perfetto"
	"github.com/divergo/divergo/internal/progress"
	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
	"github.com/divergo/divergo/waittime"
)

func init() {
	register(&command{
		name:    "show",
		usage:   "divergo show [-events] [-json] [-perfetto OUT.json] TRACE",
		summary: "print what a trace recorded: goroutines, spawn paths, blocks, waits",
		help: `Show reads a trace written by a program built with divergo instrument and
prints the program, the hash of its TBB graph, and one line per goroutine:
its spawn path (main, or parent/function@file:line#ordinal of the go
statement that started it), its parent, the block executions, events and
waits it recorded, and its time span from the start of the trace.
Goroutines still blocked in a sync operation when the trace ended (a
deadlock, a leak) are listed before the table, as divergo wait lists them
(the first ten; -json has them all).

It also says how the run ended: main returned, os.Exit(code), a panic
(and in which goroutine), a test timeout, or killed: the process died
without writing its end (SIGKILL, a signal, a fatal error, an os.Exit in
code that is not instrumented). On Linux such a run's buffers are in
TRACE.live, and reading the trace completes it from there first: it is
then complete, and says killed. A trace that could not be completed (no
.live file: elsewhere than Linux, or it was removed) is read up to its last
whole chunk and reported as truncated, with no ending. A file that is not
a trace, is empty, is cut inside its header or was written by a newer
divergo gives a one-line error and exit status 2.

Flags:
	-events	also list every event of every goroutine, with its source position
	-json	print JSON: {"program", "graph_hash", "truncated", "ending": {"kind",
		"code", "goroutine", "message", "text"}, "goroutines": [{"id",
		"path", "parent", "parent_id", "creator", "blocks", "events", "waits",
		"start_ns", "end_ns", "ended", ...}], "blocked": {...}}; with -events each goroutine
		has "event_list"; "blocked" is there when goroutines were still blocked
		at the end, as in divergo wait -json
	-perfetto OUT.json
		also write a timeline in the Chrome trace-event format, for
		ui.perfetto.dev or chrome://tracing: one track per goroutine, function
		frames (times estimated between timestamps), waits as slices with
		arrows from the goroutine that released them, spawns as arrows

Example:

	divergo show run-1.dvt
	divergo show -events run-1.dvt | less
	divergo show -json run-1.dvt | jq '.goroutines[] | {path, waits}'
	divergo show -perfetto run-1.json run-1.dvt`,
		run: runShow,
	})
}

func runShow(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("show")
	events := fs.Bool("events", false, "list every event")
	asJSON := fs.Bool("json", false, "print JSON")
	timeline := fs.String("perfetto", "", "write a Chrome/Perfetto timeline to this file")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2, err
	}
	if len(pos) != 1 {
		return 2, usageError("want one trace file, got %d arguments", len(pos))
	}
	r, err := trace.Open(pos[0])
	if err != nil {
		return 2, err
	}
	defer r.Close()
	noteArenaSetAside(stderr, "show", pos[0])
	// show writes as it reads: on a terminal its output is its progress,
	// and a progress line there would cut into it.
	if !progress.IsTerminal(stdout) {
		defer progress.Start(stderr, "divergo show: reading "+pos[0], readFraction(r))()
	}
	if *timeline != "" {
		if err := perfetto.WriteFile(*timeline, func(w io.Writer) error { return perfetto.WriteTrace(w, r) }); err != nil {
			return 2, fmt.Errorf("writing timeline: %w", err)
		}
		fmt.Fprintf(stderr, "divergo show: wrote the timeline to %s; open it in ui.perfetto.dev or chrome://tracing\n", *timeline)
	}
	w := bufio.NewWriter(stdout)
	if *asJSON {
		err = showJSON(w, r, *events)
	} else {
		err = showText(w, r, *events)
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return 2, err
	}
	return 0, nil
}

// padRight pads s with spaces to n characters (not bytes: an ellipsis is
// one).
func padRight(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}

func parentPath(r *trace.Reader, gi trace.GoroutineInfo) string {
	if gi.Parent == 0 {
		return ""
	}
	if p, ok := r.Goroutine(gi.Parent); ok {
		return p.Path
	}
	return fmt.Sprintf("?g%d", gi.Parent)
}

func showText(w io.Writer, r *trace.Reader, events bool) error {
	g := r.Graph()
	fmt.Fprintf(w, "program:    %s\n", r.Program())
	fmt.Fprintf(w, "graph:      %s (module %s, %d functions, %d blocks)\n", g.Hash, g.Module, len(g.Funcs), len(g.Blocks))
	fmt.Fprintf(w, "started:    %s\n", r.Start().UTC().Format(time.RFC3339Nano))
	if seed, ok := r.Perturbed(); ok {
		fmt.Fprintf(w, "perturbed:  DIVERGO_PERTURB=%d\n", seed)
	}
	if in, ok := r.Inputs(); ok {
		fmt.Fprintf(w, "args:       %s\n", compare.CommandLine(in.Args))
		fmt.Fprintf(w, "processors: GOMAXPROCS %d, NumCPU %d\n", in.GOMAXPROCS, in.NumCPU)
		fmt.Fprintf(w, "environ:    %d variables (%s)\n", len(in.Env), envSchemeText(in))
	}
	if r.Truncated() {
		fmt.Fprintf(w, "trace:      truncated (no index: read up to the last whole chunk)\n")
	} else {
		fmt.Fprintf(w, "trace:      complete\n")
	}
	fmt.Fprintf(w, "ended:      %s\n", endingText(r))
	gs := r.Sorted()
	fmt.Fprintf(w, "goroutines: %d\n", len(gs))
	// A test binary's trace: each test's result, in the order of names.
	var tests []string
	for _, gi := range gs {
		if gi.Test != "" {
			tests = append(tests, gi.Test+" "+gi.Result.String())
		}
	}
	if len(tests) > 0 {
		fmt.Fprintf(w, "tests:      %s\n", strings.Join(tests, ", "))
	}
	fmt.Fprintln(w)
	bl, err := waittime.FindBlocked(r)
	if err != nil {
		return err
	}
	if bl != nil {
		// Before the table: a deadlock or a leak is what a reader must see first.
		if err := bl.WriteText(w, 5); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	// Spawn paths grow with nesting. The parent is named by its ID, as
	// ps names a process's parent: its path is the child's path less the
	// last step. A path longer than trace.MaxPathText keeps its root and its
	// end (the goroutine's own function and site) around an ellipsis, so
	// that a deep spawn tree does not make every row hundreds of columns
	// wide; -json has every path whole.
	paths := make([]string, len(gs))
	pw, cut := len("PATH"), false
	for i, gi := range gs {
		paths[i] = trace.ElidePath(gi.Path, trace.MaxPathText)
		cut = cut || paths[i] != gi.Path
		pw = max(pw, utf8.RuneCountInString(paths[i]))
	}
	exec, err := compare.Executed(compare.FromReader(r))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s %6s %6s %10s %10s %10s %6s  %s\n", padRight("PATH", pw), "ID", "PARENT", "BLOCKS", "RECORDED", "EVENTS", "WAITS", "SPAN")
	for i, gi := range gs {
		parent := "-"
		if gi.Parent != 0 {
			parent = strconv.FormatUint(gi.Parent, 10)
		}
		ret := false
		if !gi.Ended {
			if ret, err = returned(r, gi); err != nil {
				return err
			}
		}
		fmt.Fprintf(w, "%s %6d %6s %10d %10d %10d %6d  %s\n", padRight(paths[i], pw), gi.ID, parent, exec[gi.ID], gi.Blocks, gi.Events, gi.Waits, span(gi, ret))
	}
	fmt.Fprintf(w, "\nBLOCKS counts block executions as diff does, the implied blocks put back between the\nRECORDED ones (docs/TBB.md, \"Probed and implied blocks\").\n")
	if cut {
		fmt.Fprintf(w, "PATH is shortened in the middle (…) to %d characters; -json prints every path whole.\n", trace.MaxPathText)
	}
	if len(g.PackedLoops()) > 0 {
		// A packed loop's word is one event in the file for up to 64
		// recorded blocks, a run of equal words one event for all of
		// them, so EVENTS can be far below RECORDED.
		fmt.Fprintf(w, "EVENTS counts events as the file holds them: the blocks of a tight loop are packed, up to\n64 in one event, and a word that repeats is one event with its count (docs/FORMAT.md,\n\"Packed loops\"); -events lists the blocks one by one.\n")
	}
	if !events {
		return nil
	}
	for _, gi := range gs {
		fmt.Fprintf(w, "\ngoroutine %d %s (go id %d)\n", gi.ID, gi.Path, gi.GoID)
		it, err := r.Events(gi.ID)
		if err != nil {
			return err
		}
		for it.Next() {
			fmt.Fprintf(w, "\t%s\n", describe(g, it.Event()))
		}
		if err := it.Err(); err != nil {
			return err
		}
	}
	return nil
}

// span is when the goroutine ran. One without its last chunk (the
// program ended while it ran, or it was killed) did not end, unless its
// stream ends with the return of the function it started in (ret): it
// returned, and only the time of its end is missing.
func span(gi trace.GoroutineInfo, ret bool) string {
	start := time.Duration(gi.Start)
	switch {
	case !gi.Ended && ret:
		return fmt.Sprintf("%v .. (returned; end time not recorded)", start)
	case !gi.Ended:
		return fmt.Sprintf("%v .. (did not end)", start)
	}
	return fmt.Sprintf("%v .. %v (%v)", start, time.Duration(gi.End), time.Duration(gi.End-gi.Start))
}

// returned reports whether gi's stream ends with the return of the
// function it started in: its last event an exit of its first block's
// function (recursion into that function, which could end a stream the
// same way while the outer frame is still open, is taken as returned).
func returned(r *trace.Reader, gi trace.GoroutineInfo) (bool, error) {
	if !gi.HasFirst {
		return false, nil
	}
	it, err := r.Events(gi.ID)
	if err != nil {
		return false, err
	}
	var last trace.Event
	seen := false
	for it.Next() {
		if e := it.Event(); e.Kind != trace.EvClock && e.Kind != trace.EvPerturb {
			last, seen = e, true // a clock closing a chunk is no step
		}
	}
	if err := it.Err(); err != nil {
		return false, err
	}
	return seen && last.Kind == trace.EvExit && last.Block == gi.FirstBlock, nil
}

// where is the source position and function of block id.
func where(g *tbb.Graph, id uint32) string {
	b := g.Block(int(id))
	if b == nil {
		return fmt.Sprintf("block %d (not in the graph)", id)
	}
	name := "?"
	if f := g.Func(b.Func); f != nil {
		name = trace.ShortFuncName(f.Name)
	}
	return fmt.Sprintf("%s in %s", b.Pos.FileLine(), name)
}

// whereSite is the source position of a sync or spawn event's own
// statement (its site) and the function holding it.
func whereSite(g *tbb.Graph, e trace.Event) string {
	b := g.Block(int(e.Block))
	if b == nil {
		return fmt.Sprintf("block %d (not in the graph)", e.Block)
	}
	name := "?"
	if f := g.Func(b.Func); f != nil {
		name = trace.ShortFuncName(f.Name)
	}
	return fmt.Sprintf("%s in %s", trace.SitePos(g, e.Site, e.Block).FileLine(), name)
}

func describe(g *tbb.Graph, e trace.Event) string {
	switch e.Kind {
	case trace.EvBlock:
		return fmt.Sprintf("block %-6d %s", e.Block, where(g, e.Block))
	case trace.EvExit:
		return fmt.Sprintf("exit  %-6d %s", e.Block, where(g, e.Block))
	case trace.EvOutcome:
		return fmt.Sprintf("outcome %d", e.Value)
	case trace.EvSpawn:
		return fmt.Sprintf("spawn goroutine %d (#%d at %s)", e.Child, e.Ordinal, trace.SitePos(g, e.Site, e.Block).FileLine())
	case trace.EvSync:
		s := fmt.Sprintf("%-14s object %#x at %s, t=%v", e.Op, e.Object, whereSite(g, e), time.Duration(e.End))
		switch {
		case e.Blocked:
			s += fmt.Sprintf(", still blocked since t=%v", time.Duration(e.Begin))
		case e.Waited:
			s += fmt.Sprintf(", waited %v", time.Duration(e.End-e.Begin))
		}
		return s
	case trace.EvClock:
		return fmt.Sprintf("clock t=%v", time.Duration(e.Time))
	case trace.EvPerturb:
		return fmt.Sprintf("perturb t=%v, delayed %v (DIVERGO_PERTURB)", time.Duration(e.Begin), time.Duration(e.End-e.Begin))
	}
	return e.Kind.String()
}

type showGoroutine struct {
	ID       uint64 `json:"id"`
	GoID     uint64 `json:"goid"`
	Path     string `json:"path"`
	Parent   string `json:"parent"`
	ParentID uint64 `json:"parent_id"`
	Site     string `json:"site,omitempty"`
	Ordinal  uint32 `json:"ordinal,omitempty"`
	Creator  string `json:"creator,omitempty"` // what started a goroutine of uninstrumented code (docs/FORMAT.md, "Creators")
	Blocks   int64  `json:"blocks"`            // block executions, implied ones included, as diff counts them
	Recorded uint64 `json:"recorded"`          // block events the trace holds (probed blocks)
	Events   uint64 `json:"events"`
	Waits    uint64 `json:"waits"`
	StartNS  int64  `json:"start_ns"`
	EndNS    int64  `json:"end_ns"`
	Ended    bool   `json:"ended"`
	Chunks   int    `json:"chunks"`
}

type showEvent struct {
	Kind    string `json:"kind"`
	Block   *int64 `json:"block,omitempty"`
	Site    *int64 `json:"site,omitempty"` // spawn and sync: the statement's site in the graph
	Pos     string `json:"pos,omitempty"`  // the block's first line; for spawn and sync, the site's own line
	Value   uint64 `json:"value,omitempty"`
	Child   uint64 `json:"child,omitempty"`
	Ordinal uint32 `json:"ordinal,omitempty"`
	Op      string `json:"op,omitempty"`
	Object  uint64 `json:"object,omitempty"`
	Waited  bool   `json:"waited,omitempty"`
	Blocked bool   `json:"blocked,omitempty"` // still blocked when the trace ended (end_ns: when last seen)
	BeginNS int64  `json:"begin_ns,omitempty"`
	EndNS   int64  `json:"end_ns,omitempty"`
	TimeNS  int64  `json:"time_ns,omitempty"`
}

// showJSON streams the report: one goroutine, and with -events one event,
// at a time, so that a long trace is never held in memory.
func showJSON(w io.Writer, r *trace.Reader, events bool) error {
	g := r.Graph()
	head, err := json.Marshal(struct {
		Program   string            `json:"program"`
		GraphHash string            `json:"graph_hash"`
		Version   int               `json:"version"`
		Start     string            `json:"start"`
		Truncated bool              `json:"truncated"`
		Ending    compare.RunEnding `json:"ending"`
		Perturbed *int64            `json:"perturb_seed,omitempty"`
		Inputs    *showInputs       `json:"inputs,omitempty"`
	}{r.Program(), g.Hash, r.Version(), r.Start().UTC().Format(time.RFC3339Nano), r.Truncated(), compare.EndingOf(r.Ending()), perturbSeed(r), inputsOf(r)})
	if err != nil {
		return err
	}
	w.Write(head[:len(head)-1])
	exec, err := compare.Executed(compare.FromReader(r))
	if err != nil {
		return err
	}
	io.WriteString(w, `,"goroutines":[`)
	for i, gi := range r.Sorted() {
		if i > 0 {
			io.WriteString(w, ",")
		}
		sg := showGoroutine{ID: gi.ID, GoID: gi.GoID, Path: gi.Path, Parent: parentPath(r, gi), ParentID: gi.Parent,
			Ordinal: gi.Ordinal, Creator: gi.Creator, Blocks: exec[gi.ID], Recorded: gi.Blocks, Events: gi.Events, Waits: gi.Waits,
			StartNS: gi.Start, EndNS: gi.End, Ended: gi.Ended, Chunks: gi.Chunks}
		if gi.Parent != 0 {
			sg.Site = trace.SiteName(g, gi.Site)
		}
		b, err := json.Marshal(sg)
		if err != nil {
			return err
		}
		if !events {
			w.Write(b)
			continue
		}
		w.Write(b[:len(b)-1])
		io.WriteString(w, `,"event_list":[`)
		it, err := r.Events(gi.ID)
		if err != nil {
			return err
		}
		for n := 0; it.Next(); n++ {
			if n > 0 {
				io.WriteString(w, ",")
			}
			b, err := json.Marshal(jsonEvent(g, it.Event()))
			if err != nil {
				return err
			}
			w.Write(b)
		}
		if err := it.Err(); err != nil {
			return err
		}
		io.WriteString(w, "]}")
	}
	io.WriteString(w, "]")
	bl, err := waittime.FindBlocked(r)
	if err != nil {
		return err
	}
	if bl != nil {
		b, err := json.Marshal(bl)
		if err != nil {
			return err
		}
		io.WriteString(w, `,"blocked":`)
		w.Write(b)
	}
	_, err = io.WriteString(w, "}\n")
	return err
}

func jsonEvent(g *tbb.Graph, e trace.Event) showEvent {
	se := showEvent{Kind: e.Kind.String()}
	withBlock := func() {
		b := int64(e.Block)
		se.Block = &b
		if blk := g.Block(int(e.Block)); blk != nil {
			se.Pos = blk.Pos.FileLine()
		}
	}
	withSite := func() {
		withBlock()
		s := int64(e.Site)
		se.Site = &s
		se.Pos = trace.SitePos(g, e.Site, e.Block).FileLine()
	}
	switch e.Kind {
	case trace.EvBlock, trace.EvExit:
		withBlock()
	case trace.EvOutcome:
		se.Value = e.Value
	case trace.EvSpawn:
		withSite()
		se.Child, se.Ordinal = e.Child, e.Ordinal
	case trace.EvSync:
		withSite()
		se.Op, se.Object, se.Waited, se.Blocked, se.EndNS = e.Op.String(), e.Object, e.Waited, e.Blocked, e.End
		if e.Waited {
			se.BeginNS = e.Begin
		}
	case trace.EvClock:
		se.TimeNS = e.Time
	case trace.EvPerturb:
		se.BeginNS, se.EndNS = e.Begin, e.End
	}
	return se
}

// showInputs is what show -json says of the program's inputs.
type showInputs struct {
	Args       []string  `json:"args"`
	GOMAXPROCS int       `json:"gomaxprocs"`
	NumCPU     int       `json:"numcpu"`
	Env        []showEnv `json:"env"`
	// EnvScheme is how the values were hashed: "keyed" (under the key
	// EnvKey names), "names" (not at all), "fnv" (unkeyed, by an older
	// divergo).
	EnvScheme string `json:"env_scheme"`
	EnvKey    string `json:"env_key,omitempty"`
}

type showEnv struct {
	Name string `json:"name"`
	Hash string `json:"hash"` // of the value as env_scheme says, hexadecimal
}

// envSchemeText says how a run recorded its environment's values.
func envSchemeText(in trace.Inputs) string {
	switch in.EnvScheme {
	case trace.EnvKeyed:
		return fmt.Sprintf("values recorded as hashes under the recording user's key %016x", in.EnvKeyID)
	case trace.EnvNames:
		return "names only: the run had no key to hash values with"
	}
	return "values recorded as unkeyed FNV-1a hashes, by an older divergo"
}

// envSchemeName is the scheme's name in show -json.
func envSchemeName(s trace.EnvScheme) string {
	switch s {
	case trace.EnvKeyed:
		return "keyed"
	case trace.EnvNames:
		return "names"
	}
	return "fnv"
}

// inputsOf is the run's inputs, nil when the trace does not record them.
func inputsOf(r *trace.Reader) *showInputs {
	in, ok := r.Inputs()
	if !ok {
		return nil
	}
	out := &showInputs{Args: append([]string{}, in.Args...), GOMAXPROCS: in.GOMAXPROCS, NumCPU: in.NumCPU, Env: []showEnv{}, EnvScheme: envSchemeName(in.EnvScheme)}
	if in.EnvScheme == trace.EnvKeyed {
		out.EnvKey = fmt.Sprintf("%016x", in.EnvKeyID)
	}
	for _, e := range in.Env {
		out.Env = append(out.Env, showEnv{e.Name, fmt.Sprintf("%016x", e.Hash)})
	}
	return out
}

// perturbSeed is the run's DIVERGO_PERTURB seed, nil when it was not
// perturbed.
func perturbSeed(r *trace.Reader) *int64 {
	if seed, ok := r.Perturbed(); ok {
		return &seed
	}
	return nil
}

// endingText says how the run ended, naming the goroutine that ended it
// by its spawn path.
func endingText(r *trace.Reader) string {
	e := r.Ending()
	s := e.String()
	if gi, ok := r.Goroutine(e.G); ok && e.G != 0 && (e.Kind == trace.EndPanic || e.Kind == trace.EndExit) {
		s += " in " + gi.Path
	}
	return s
}
