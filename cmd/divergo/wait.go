package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/divergo/divergo/internal/trace"
	"github.com/divergo/divergo/waittime"
)

func init() {
	register(&command{
		name:    "wait",
		usage:   "divergo wait [-json] [-pprof FILE] [-tolerance 0.95] [-threshold 0.5] [-steps 8] [-waits] TRACE",
		summary: "explain why goroutines waited at sync points (waiting-time analysis)",
		help: `Wait reads one trace and explains the time goroutines spent waiting at
mutexes, channels, selects, WaitGroups, Conds and Onces (Meira's waiting-time
analysis). Each wait is explained by the difference between the path of the
goroutine that released it and the path of the waiter since their last common
synchronization, with earlier waits on those paths expanded into their own
explanations and the steps both paths share removed.

Sites are ranked by total waiting time. For each, the waits fall into classes
of equivalent explanations; each class lists its steps as signed durations:
+ for time on the releasers' paths (what the waiter waited for), - for time
on the waiter's own path:

	1. pool.go:30  wg.wait (wg) in example.com/m.main  512 ms in 50 waits
	   class 1: 10 waits, 500 ms, 100% explained
	     + pool.go:42 in main/worker@pool.go:23#3  500 ms

Flags:
	-json		print the report as JSON instead
	-pprof FILE	also write a pprof profile of the explaining lines
			(go tool pprof -top -lines FILE, go tool pprof -http=: FILE)
	-tolerance T	share of each wait that removing shared steps must keep
			explained (default 0.95)
	-threshold D	relative distance below which explanations of a site merge
			into one class, in [0, 2] (default 0.5)
	-steps N	steps shown per class, 0 for all (default 8)
	-waits		also list every wait with its releaser

Example:

	divergo wait run-1.dvt
	divergo wait -pprof wait.pb.gz run-1.dvt && go tool pprof -top -lines wait.pb.gz`,
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
	if r.Truncated() {
		fmt.Fprintf(stderr, "divergo wait: %s has no index (the program did not finish); using every whole chunk\n", pos[0])
	}
	rep, err := waittime.Analyze(r, waittime.Options{Tolerance: *tolerance, Threshold: *threshold, KeepWaits: *waits})
	if err != nil {
		return 2, fmt.Errorf("analysing %s: %w", pos[0], err)
	}
	if *pprofFile != "" {
		if err := writeProfile(rep, *pprofFile); err != nil {
			return 2, err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return 0, enc.Encode(rep)
	}
	return 0, rep.WriteText(stdout, *steps)
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
