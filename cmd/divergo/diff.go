package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/perfetto"
	"github.com/divergo/divergo/internal/progress"
	"github.com/divergo/divergo/internal/trace"
)

func init() {
	register(&command{
		name:    "diff",
		usage:   "divergo diff [-json] [-n N | -all] [-sections] [-html [OUT.html]] [-src DIR] [-test NAME] [-wait] [-perfetto OUT.json] [-wd W] [-wnd W] [-wtr W] A B [C ...]",
		summary: "compare runs: where they diverged and how far apart they are",
		help: `Diff corresponds two traces of the same program (Eckert & Nutt's linear
algorithm): goroutines are matched by spawn path, each pair is walked in
step; where a trace change point (TCP) had a different outcome both runs are
followed to its convergence point and the divergent section is measured.

When the two runs had different inputs (the command line, GOMAXPROCS,
NumCPU, or environment variables, which the trace's header records), diff
says so first, in one line (with -wait too), and then compares them all
the same: the analysis takes inputs to be the same in both runs, so where
such runs part may be the input's doing rather than the schedule's:

	inputs differ: run-1.dvt ran with args [-n 10], run-2.dvt with [-n 12]

With three traces or more, such a line comes for each run whose inputs
differ from the first's, before the matrix.

When a run did not end by main's return (os.Exit, a panic, a test
timeout, or killed: it died without writing its end), or the two ended
differently, diff says how each ended first, in one line; -json always has
it, as "endings": {"a": {"kind", "code", "goroutine", "message", "text"},
"b": {...}}:

	the runs ended differently: run-1.dvt: main returned; run-2.dvt: os.Exit(3)

It prints, then, a summary: whether the runs took the same paths, how
their goroutines matched, where they first parted (the statement, its
goroutine, when), how much of their work lies where they went different
ways, and at how many statements. Then the statements where they parted,
grouped (one group per statement, however many goroutines and times), most
work first, at most -n of them: each with its source line when the file is
found under the module root, the goroutines (ordinals collapsed to #*
where several of one go statement parted there), what each run did there
in plain words (the line it went to, how many iterations, the value it
recorded), the work inside and where the runs met again:

	a.dvt and b.dvt took different paths.

	  goroutines     4 matched, none only in one run
	  first parted   main.go:25 (branch) in main/work@main.go:50#1, 150µs into a.dvt
	  how far apart  40% of the work lies where they went different ways: ...

	Where they parted, most work first:

	1. main.go:20  loop, 3 times
	     20	for j := range jobs {
	   goroutines   main/work@main.go:50#* (3)
	   what they did
	     a.dvt: 0 iterations; b.dvt: 12 iterations (1 time)
	     a.dvt: 6 iterations; b.dvt: 0 iterations (2 times)
	   inside       a.dvt: 12018 blocks, ...; b.dvt: ...
	   meet again   main.go:33

The paper's distance comes last, explained: each divergent section adds
wd + fanout·wnd + tcp_distance·wtr (the paper's (4)); a goroutine present
in one run only adds wd + its TCPs·wtr. Statements the analyzer did not mark
are reported as holes (see divergo check). Lock-order differences are
annotations, not divergences. -sections lists every section with its
measures; -json has everything, sections and groups, each section placed
in its goroutine's stream in both runs (steps_a, steps_b: from and to a
step, counting every block executed, call, return, outcome, spawn and sync
event from 0).

With three or more traces, diff prints the matrix of pairwise distances and
the most representative run: the one with the least total distance.

The exit status is 0 when the runs are the same, 1 when they differ, 2 on
trouble.

With -perfetto, diff also writes both runs as one timeline in Chrome
trace-event JSON, which ui.perfetto.dev and chrome://tracing open: each run
is a process ("run A", "run B"), each goroutine a thread named by its spawn
path, with its function frames (times estimated between timestamps), its
waits and arrows from the goroutine that released them, and the divergent
sections marked "divergent: KIND at file:line" ("divergent (unflagged)"
where the analyzer did not mark the block) on the goroutine's track in both
runs.

With -wait, diff compares waiting time instead (Meira's analysis, as in
divergo wait): the sync sites of the two runs side by side, each with its
waiting time in both, and the classes of explanation that appeared, vanished
or changed between them.

Flags:
	-json	print the report (or the matrix) as JSON
	-n N	print at most N statements where the runs parted (default 10)
	-all	print every statement where the runs parted
	-sections
		also list every divergent section with the paper's measures
	-html OUT.html
		also write the report as one self-contained HTML page of the
		program's source, lines coloured and annotated where the runs
		parted, with the summary at the top and a navigation by statement;
		with -html given no file (divergo diff -html A B) the page goes to
		a temporary file opened in the browser, as go tool cover -html does
	-src DIR
		the root of the module the traces were recorded from, for the
		source lines (default: the module above the working directory or
		above a trace whose path the traces name)
	-test NAME
		compare only test NAME's goroutines (its subtests' and every
		goroutine they started) of runs of a test binary, which record
		every test of the package: what divergo test suggests
	-wait	compare the waiting time at the sync sites of the two runs
	-perfetto OUT.json
		also write the timeline of the two runs to OUT.json
	-wd W	weight of each divergent section (default 1)
	-wnd W	weight of the fanout (default 1)
	-wtr W	weight of the TCP distance (default 1)

Example:

	divergo diff run-1.dvt run-2.dvt
	divergo diff -json run-*.dvt
	divergo diff -wait run-1.dvt run-2.dvt
	divergo diff -perfetto diff.json run-1.dvt run-2.dvt  # then open diff.json in ui.perfetto.dev`,
		run: runDiff,
	})
}

func runDiff(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("diff")
	asJSON := fs.Bool("json", false, "print JSON")
	wd := fs.Float64("wd", 1, "weight of a divergent section")
	wnd := fs.Float64("wnd", 1, "weight of the fanout")
	wtr := fs.Float64("wtr", 1, "weight of the TCP distance")
	timeline := fs.String("perfetto", "", "write a Chrome/Perfetto trace-event JSON timeline of both runs to this file")
	wait := fs.Bool("wait", false, "compare waiting time")
	ngroups := fs.Int("n", 10, "print at most this many statements where the runs parted")
	all := fs.Bool("all", false, "print every statement where the runs parted")
	sections := fs.Bool("sections", false, "also list every divergent section with the paper's measures")
	page := fs.String("html", "", "write the report as an HTML page of the source to this file")
	test := fs.String("test", "", "compare only the goroutines of this test (its subtests and what they started) of test binaries' runs")
	src := srcFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2, err
	}
	if *wait {
		if len(pos) != 2 || *timeline != "" {
			return 2, usageError("-wait compares two traces and draws no timeline")
		}
		// The same comparison as "divergo wait A B", under the name the
		// comparison of runs has.
		return runWait(append(jsonFlag(*asJSON), pos...), stdout, stderr)
	}
	pos, openPage := htmlTarget(page, pos)
	if len(pos) < 2 {
		return 2, usageError("want two or more trace files, got %d", len(pos))
	}
	if *page != "" && len(pos) != 2 {
		return 2, usageError("-html shows two traces, got %d", len(pos))
	}
	if *timeline != "" && len(pos) != 2 {
		return 2, usageError("-perfetto draws two traces, got %d", len(pos))
	}
	traces := make([]compare.Trace, len(pos))
	readers := make([]*trace.Reader, len(pos))
	for i, p := range pos {
		r, err := trace.Open(p)
		if err != nil {
			return 2, err
		}
		defer r.Close()
		noteArenaSetAside(stderr, "diff", p)
		if r.Truncated() {
			fmt.Fprintf(stderr, "divergo diff: %s has no index (the program did not finish); using every whole chunk\n", p)
		}
		traces[i] = compare.FromReader(r)
		readers[i] = r
		if *test != "" {
			if traces[i], err = onlyTest(r, traces[i], *test, p); err != nil {
				return 2, err
			}
		}
	}
	if err := sameProgram(pos, traces); err != nil {
		return 2, err
	}
	opts := compare.Options{Weights: compare.Weights{D: *wd, ND: *wnd, TR: *wtr}}
	// The report is written once the line is gone: drawn while it is
	// written, the line would cut into it.
	stop := progress.Start(stderr, "divergo diff: reading traces", readFraction(readers...))
	defer stop()
	if len(pos) > 2 {
		return diffMany(pos, traces, opts, *asJSON, stdout, stop)
	}
	rep, err := compare.Traces(traces[0], traces[1], opts)
	if err != nil {
		return 2, fmt.Errorf("%s and %s: %w", pos[0], pos[1], err)
	}
	rep.Endings = &compare.Endings{A: compare.EndingOf(readers[0].Ending()), B: compare.EndingOf(readers[1].Ending())}
	if *timeline != "" {
		if err := writeTimeline(*timeline, pos, readers, rep); err != nil {
			return 2, fmt.Errorf("%s and %s: %w", pos[0], pos[1], err)
		}
	}
	stop()
	na, nb := shortNames(pos[0], pos[1])
	topts := compare.TextOptions{NameA: na, NameB: nb, Root: sourceRoot(*src, pos...), Groups: groupLimit(*ngroups, *all), Sections: *sections}
	if *page != "" {
		if err := writePage(*page, openPage, rep.Page(topts), stderr); err != nil {
			return 2, err
		}
	}
	if *asJSON {
		if err := rep.WriteJSON(stdout); err != nil {
			return 2, err
		}
	} else if err := rep.WriteText(stdout, topts); err != nil {
		return 2, err
	}
	if rep.Summary.Same {
		return 0, nil
	}
	return 1, nil
}

// shortNames names two traces by their base names when those differ, so
// that "run-1.dvt" rather than a long path starts every line of a report.
func shortNames(a, b string) (string, string) {
	ba, bb := filepath.Base(a), filepath.Base(b)
	if ba == bb {
		return a, b
	}
	return ba, bb
}

// groupLimit turns -n and -all into TextOptions.Groups.
func groupLimit(n int, all bool) int {
	if all || n <= 0 {
		return -1
	}
	return n
}

// writeTimeline draws the two runs to path with the report's sections
// marked. A file left half written by an error is removed.
func writeTimeline(path string, names []string, rs []*trace.Reader, rep *compare.Report) error {
	ma, mb := rep.Marks()
	return perfetto.WriteFile(path, func(w io.Writer) error {
		return perfetto.Write(w, perfetto.Options{},
			perfetto.Run{Name: "run A: " + names[0], Reader: rs[0], Marks: ma},
			perfetto.Run{Name: "run B: " + names[1], Reader: rs[1], Marks: mb})
	})
}

func diffMany(names []string, traces []compare.Trace, opts compare.Options, asJSON bool, stdout io.Writer, stopProgress func()) (int, error) {
	m, err := compare.Compare(traces, opts)
	stopProgress()
	if err != nil {
		return 2, err
	}
	status := 1
	if m.Same {
		status = 0
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		return status, enc.Encode(struct {
			Traces []string `json:"traces"`
			*compare.Matrix
		}{names, m})
	}
	// Runs whose inputs differ from the first's, first: the analysis
	// takes them to be the same.
	said := false
	for k := 1; k < len(traces); k++ {
		if d := compare.DiffInputs(traces[0], traces[k]); d != nil {
			fmt.Fprintln(stdout, d.Line(names[0], names[k]))
			said = true
		}
	}
	if said {
		fmt.Fprintln(stdout)
	}
	return status, m.WriteText(stdout, names)
}

// jsonFlag passes -json on to another command when it was given.
func jsonFlag(on bool) []string {
	if on {
		return []string{"-json"}
	}
	return nil
}

// readFraction is the share of the traces read so far, for progress lines.
func readFraction(rs ...*trace.Reader) func() float64 {
	var size int64
	for _, r := range rs {
		size += r.Size()
	}
	return func() float64 {
		var read int64
		for _, r := range rs {
			read += r.BytesRead()
		}
		return float64(read) / float64(max(size, 1))
	}
}
