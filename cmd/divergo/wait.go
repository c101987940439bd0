package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/gotrace"
	"github.com/divergo/divergo/internal/progress"
	"github.com/divergo/divergo/internal/trace"
	"github.com/divergo/divergo/waittime"
	"github.com/google/pprof/profile"
)

func init() {
	register(&command{
		name:    "wait",
		usage:   "divergo wait [-json] [-html [OUT.html]] [-src DIR] [-pprof FILE] [-tolerance 0.95] [-threshold 0.5] [-steps 8] [-all] [-waits] [-blocks] TRACE [TRACE2]",
		summary: "explain why goroutines waited at sync points (waiting-time analysis)",
		help: `Wait reads one trace and explains the time goroutines spent waiting at
mutexes, channels, selects, WaitGroups, Conds and Onces (Meira's waiting-time
analysis). Each wait is explained by the difference between the path of the
goroutine that released it and the path of the waiter since their last common
synchronization, with earlier waits on those paths expanded into their own
explanations and the steps both paths share removed.

Sites are ranked by total waiting time; the first five are shown with their
three largest classes, and a last line says how much is left out: -all shows
every site and class (-waits, which lists every wait, does too). For each
site, the waits fall into classes
of equivalent explanations; each class lists its steps as signed durations:
+ for time on the releasers' paths (what the waiter waited for), - for time
on the waiter's own path:

	1. pool.go:30  wg.wait (wg) in example.com/m.main  512 ms in 50 waits
	   class 1: 10 waits, 500 ms, 100% explained
	     + pool.go:42 in main/worker@pool.go:23#3  500 ms

A step is a line of one goroutine (or of several, main/worker@pool.go:23#*)
in a state: running unless marked (runnable) for scheduler latency after a go
statement or a release, (sleep), or (mutex), (chan), ... for a wait whose
releaser is not in the trace. The blocks of one line (a loop header and its
post statement) are one step unless -blocks. Two kinds of step name no line:
divergo's own perturbation delays (DIVERGO_PERTURB), and time that cannot be
aligned with a goroutine started outside instrumented code (time.AfterFunc),
counted from that goroutine's start.

"% explained" is the share of a class's waiting time its steps account for:
each wait counts fully when its steps add up to its waiting time and loses
what they miss or overshoot by; it lies between 0 and 100%. What the steps
leave out is printed under them when it is 1% of the class or more.

The pprof profile (-pprof) holds the same steps, signed, plus what they leave
unexplained and the waits without a releaser: its values add up to the
waiting time of the text, which "go tool pprof -top -nodefraction=0" shows as
"Showing nodes accounting for" (pprof's "of N total" sums absolute values).
Steps in a state other than running carry it in their function's name.

A perturbed run (DIVERGO_PERTURB, divergo run -perturb) says so, with its
seed and what divergo's delays did to the waits, at the top of the report;
the delays are taken out of every waiting time the report gives and of the
paths before the waits are explained, and no step is ever divergo's.

A step can be larger than the wait it explains: the releaser's path ran
4.29 ms since the last common synchronization, the waiter's 4.06 ms, and the
wait was the 235 µs between. The class then says first how much the two
sides add up to, so that the steps are seen to cancel.

A running step is a block's time. With Go's CPU samples of the run, which an
instrumented program writes beside its trace unless run with
DIVERGO_CPUPROFILE=off (run-1.cpu.pprof beside run-1.dvt), a block's time is split
over the lines its samples were taken at, so that two heavy calls on the
second and third lines of a block are two steps at their own lines; without
them it is at the block's first line.

Goroutines still blocked when the trace ended come first: whether it was a
deadlock (every goroutine still running was blocked) or a leak (main had
returned), then each one with the statement it is blocked at, the object,
since when, and the goroutines that last operated on that object, with
their lines (those that could have released it):

	Deadlock: every goroutine still running (2) was blocked, none left to release the others.
	  main: recv at main.go:30 on chan 0xc000016120, blocked since 1.20 ms (for 3.00 s)
	      last on it: main/worker@main.go:20#1 lock at main.go:24 (1.10 ms), itself blocked at main.go:25

The first ten are listed, each with its last five operations; -json has
them all. Here and in the waiting time below, a spawn path longer than 72
characters keeps its root and its end around an ellipsis (in this list,
with the goroutine's ID, show's ID column); -json has every path whole.
Their waits have no end, so they are not in the waiting time below. A
deadlocked program dies of Go's deadlock report, as it does plain, and
its list comes from the checkpoint the runtime wrote when every goroutine
had blocked.

A wait ended in code that is not instrumented (a context's cancel closing
Done, a library's goroutine sending on a channel it returned, a timer) has
no releaser in the divergo trace; the report says why. Record the run with
DIVERGO_RUNTIME_TRACE=1 as well, and wait reads Go's execution trace beside
the divergo trace (run-1.gotrace beside run-1.dvt) and names who woke those
waits, at the first line of the program on the waker's stack (the library
function that woke is in -json's "inner", and in the text when no line of
the program is on that stack):

	woken, says Go's execution trace: 3 by main at main.go:45 (main), 61.9 ms

With that trace, a wait inside code that is not instrumented (errgroup's
g.Wait or the semaphore of its SetLimit in g.Go, http.Get, io.Pipe, a
library's mutex) is a wait too, at the line of the program that called the
library, with who woke it; a library's sleep is not:

	2. main.go:55  errgroup.(*Group).Wait (sync) in example.com/m.main  3.18 ms in 1 wait
	   1 without a releaser, 3.18 ms: 1 blocked in code that is not instrumented
	   woken, says Go's execution trace: 1 by ?/main$1#6 in golang.org/x/sync/errgroup.(*Group).done (errgroup.go:40), 3.18 ms

They have no releaser's path to be explained by, but in the paths that
explain other waits their time is a step at the call in state library (or
sleep in library), no longer running time of the lines around it.

With two traces of the same program, wait puts their waiting time side by
side: each site's total in run A and run B, and its classes marked appeared,
vanished, changed (their waiting time moved by more than 10%) or same.

Flags:
	-json		print the report as JSON instead
	-pprof FILE	also write a pprof profile of the explaining lines of the
			first trace (go tool pprof -top -lines FILE, or -http=:)
	-tolerance T	share of each wait that removing shared steps must keep
			explained (default 0.95)
	-threshold D	relative distance below which explanations of a site merge
			into one class, in [0, 2] (default 0.5)
	-steps N	steps shown per class, 0 for all (default 8)
	-all		every site and class, not the first screen's five sites
			and three classes each
	-waits		also list every wait with its releaser (and every site)
	-blocks		one step per block, even when blocks share a line
	-gotrace FILE	Go's execution trace of the same run, recorded with
			DIVERGO_RUNTIME_TRACE (default: TRACE's .gotrace beside it,
			when there; off to ignore it): each site's waits without a
			releaser then say who woke them and where, also in code
			that is not instrumented
	-html OUT.html	also write the report as one self-contained HTML page of the
			program's source: each sync site coloured by its share of the
			waiting time, with its classes, and the lines that explain its
			first class; with no file (divergo wait -html TRACE) the page
			goes to a temporary file opened in the browser
	-src DIR	the root of the module the trace was recorded from, for the
			page's source (default: the module above the working
			directory or above the trace whose path the trace names)

Example:

	divergo wait run-1.dvt
	divergo wait -pprof wait.pb.gz run-1.dvt && go tool pprof -top -lines wait.pb.gz
	divergo wait run-1.dvt run-2.dvt`,
		run: runWait,
	})
}

func runWait(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("wait")
	asJSON := fs.Bool("json", false, "print JSON")
	pprofFile := fs.String("pprof", "", "write a pprof profile to this file")
	tolerance := fs.Float64("tolerance", waittime.DefaultTolerance, "share kept explained by redundant step removal")
	threshold := fs.Float64("threshold", waittime.DefaultThreshold, "class merge distance")
	steps := fs.Int("steps", 8, "steps shown per class")
	waits := fs.Bool("waits", false, "list every wait")
	all := fs.Bool("all", false, "every site and class, not the first screen")
	blocks := fs.Bool("blocks", false, "one step per block")
	goTrace := fs.String("gotrace", "", "Go's execution trace of the run (default: the trace's .gotrace beside it, when there; off: none)")
	page := fs.String("html", "", "write the report as an HTML page of the source to this file")
	src := srcFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2, err
	}
	pos, openPage := htmlTarget(page, pos)
	if *page != "" && len(pos) != 1 {
		return 2, usageError("-html shows one trace, got %d", len(pos))
	}
	if len(pos) != 1 && len(pos) != 2 {
		return 2, usageError("want one or two trace files, got %d arguments", len(pos))
	}
	opts := waittime.Options{Tolerance: *tolerance, Threshold: *threshold, KeepWaits: *waits, Blocks: *blocks}
	var reps []*waittime.Report
	if *goTrace != "" && *goTrace != "off" && len(pos) != 1 {
		return 2, usageError("-gotrace names the execution trace of one run, got %d traces", len(pos))
	}
	if len(pos) == 2 {
		if err := sameProgramFiles(pos); err != nil {
			return 2, err
		}
	}
	for _, file := range pos {
		opts, err := withGoTrace(opts, file, *goTrace, stderr)
		if err != nil {
			return 2, err
		}
		// The sources put a deferred call's wait at its defer statement.
		opts.SourceRoot = sourceRoot(*src, file)
		rep, err := analyzeTrace(file, opts, stderr)
		if err != nil {
			return 2, err
		}
		reps = append(reps, rep)
	}
	if *pprofFile != "" {
		if err := writeProfile(reps[0], *pprofFile); err != nil {
			return 2, err
		}
	}
	if *page != "" {
		title := "divergo wait " + filepath.Base(pos[0])
		if err := writePage(*page, openPage, reps[0].Page(title, sourceRoot(*src, pos[0]), *steps), stderr); err != nil {
			return 2, err
		}
	}
	var out interface{ WriteText(io.Writer, int) error } = reps[0]
	if len(reps) == 2 {
		d, err := waittime.Diff(reps[0], reps[1], *threshold)
		if err != nil {
			return 2, fmt.Errorf("comparing %s and %s: %w", pos[0], pos[1], err)
		}
		out = d
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return 0, enc.Encode(out)
	}
	if len(pos) == 2 {
		// As diff says first: the runs' inputs differed.
		if line := inputsLine(pos[0], pos[1]); line != "" {
			fmt.Fprintf(stdout, "%s\n\n", line)
		}
	}
	if rep, ok := out.(*waittime.Report); ok && !*all && !*waits {
		return 0, rep.WriteTop(stdout, *steps)
	}
	return 0, out.WriteText(stdout, *steps)
}

// inputsLine is the line that says how the inputs of the runs traced in
// files a and b differed, "" when they did not or a trace does not say.
func inputsLine(a, b string) string {
	ra, err := trace.Open(a)
	if err != nil {
		return ""
	}
	defer ra.Close()
	rb, err := trace.Open(b)
	if err != nil {
		return ""
	}
	defer rb.Close()
	if d := compare.DiffInputs(compare.FromReader(ra), compare.FromReader(rb)); d != nil {
		na, nb := shortNames(a, b)
		return d.Line(na, nb)
	}
	return ""
}

func analyzeTrace(file string, opts waittime.Options, stderr io.Writer) (*waittime.Report, error) {
	r, err := trace.Open(file)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	noteArenaSetAside(stderr, "wait", file)
	if r.Truncated() {
		fmt.Fprintf(stderr, "divergo wait: %s has no index (the program did not finish); using every whole chunk\n", file)
	}
	if opts.CPUProfile == nil {
		opts.CPUProfile = cpuProfileBeside(file, stderr)
	}
	stop := progress.Start(stderr, "divergo wait: analysing "+file, readFraction(r))
	rep, err := waittime.Analyze(r, opts)
	stop()
	if err != nil {
		return nil, fmt.Errorf("analysing %s: %w", file, err)
	}
	return rep, nil
}

// cpuProfileBeside reads Go's CPU samples of the run whose trace is file,
// which the runtime writes beside it (trace.CPUProfileBeside): with them a
// block's time is split over the lines that spent it. None there (a run
// with DIVERGO_CPUPROFILE=off, a trace from before) is nil; one that cannot
// be read (the program exited without completing it) is said and nil.
func cpuProfileBeside(file string, stderr io.Writer) *profile.Profile {
	f, _, err := trace.OpenRegular(trace.CPUProfileBeside(file))
	if err != nil {
		return nil
	}
	defer f.Close()
	p, err := readCPUProfile(f)
	if err != nil {
		fmt.Fprintf(stderr, "divergo wait: CPU samples %s: %v; each block's time stays at its first line\n", f.Name(), err)
		return nil
	}
	return p
}

// withGoTrace adds to opts Go's execution trace of the run whose divergo
// trace is file: the one flag names, or the one beside the trace
// (DIVERGO_RUNTIME_TRACE=1 writes run-1.gotrace beside run-1.dvt), if any.
// One beside the trace that cannot be read (a run killed before the
// tracer was stopped has no clock anchor: a deadlocked program under the
// tracer hangs until killed) is said, and the report made without it; one
// the flag names must be read.
func withGoTrace(opts waittime.Options, file, flag string, stderr io.Writer) (waittime.Options, error) {
	p := flag
	switch flag {
	case "off":
		return opts, nil
	case "":
		p = gotrace.Beside(file)
		if _, err := os.Stat(p); err != nil {
			return opts, nil
		}
	}
	gt, err := gotrace.Open(p)
	if err != nil && flag == "" {
		fmt.Fprintf(stderr, "divergo wait: %v; the report does without it\n", err)
		return opts, nil
	}
	if err != nil {
		return opts, err
	}
	opts.GoTrace = gt
	return opts, nil
}

func writeProfile(rep *waittime.Report, file string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if err := rep.WriteProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", file, err)
	}
	return f.Close()
}
