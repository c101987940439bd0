package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/divergo/divergo/instrument"
)

func init() {
	register(&command{
		name:    "instrument",
		usage:   "divergo instrument [-pack=false] [packages]",
		summary: "write instrumented copies of the main module's packages and a build overlay",
		help: `Instrument analyses the named packages of the main module (default ./...),
writes instrumented copies of their files under .divergo/ at the module root,
and .divergo/overlay.json, which tells the go command to build the copies in
place of the originals. The module's own files are never modified. Meant for
go generate, with divergo as a tool of the module:

	go get -tool github.com/divergo/divergo/cmd/divergo
	//go:generate go tool divergo instrument ./...

then build and run the instrumented program:

	go build -overlay=$PWD/.divergo/overlay.json
	DIVERGO_TRACE=run1.dvt ./prog

Tight loops that record nothing but which blocks they run (no call, no
channel operation, no lock, no recorded index) keep those blocks as codes of a
few bits in a word and record the word when it is full and when the loop ends:
the trace holds the same events, at a fraction of the cost
(docs/FORMAT.md, "Packed loops"). -pack=false records each block on its own.

The copies keep the original line numbers (//line directives), so compile
errors, panics and stack traces name the original files. Constructs that are
left uninstrumented are listed as warnings on standard error; see
docs/INSTRUMENT.md. The exit status is 0 when the copies were written, 2
otherwise.

Example:

	divergo instrument ./...`,
		run: runInstrument,
	})
}

func runInstrument(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("instrument")
	pack := fs.Bool("pack", true, "")
	pkgs, err := parseFlags(fs, args)
	if err != nil {
		return 2, err
	}
	res, err := instrument.Instrument(instrument.Config{Patterns: pkgs, NoPack: !*pack})
	if err != nil {
		return 2, err
	}
	reportInstrument(res, stdout, stderr)
	return 0, nil
}

// reportInstrument prints the warnings (their count when .divergo was
// reused: they were printed when it was written), then one line saying
// what was written and how to build it.
func reportInstrument(res *instrument.Result, stdout, stderr io.Writer) {
	if n := len(res.Skipped) + len(res.Warnings); res.Reused && n > 0 {
		// They were printed when .divergo was written: a suite tested
		// again and again would print them every time.
		fmt.Fprintf(stderr, "divergo: %d warnings, as when %s was written\n", n, instrument.OutDir)
	} else {
		for _, s := range res.Skipped {
			fmt.Fprintf(stderr, "divergo: warning: %s\n", rel(res.ModuleDir, s))
		}
		for _, w := range res.Warnings {
			fmt.Fprintf(stderr, "divergo: warning: %s\n", rel(res.ModuleDir, w))
		}
	}
	did := "instrumented"
	if res.Reused {
		did = "nothing changed: reused" // the sources, divergo and the go command's settings are those .divergo was written from
	}
	fmt.Fprintf(stdout, "divergo: %s %d files of %d packages (%d blocks) in %s; build with: go build -overlay=%s\n",
		did, res.Files, res.Packages, len(res.Graph.Blocks), filepath.Join(res.ModuleDir, instrument.OutDir), res.Overlay)
}

// rel shortens a message that starts with a path under dir.
func rel(dir, msg string) string {
	if r, err := filepath.Rel(dir, msg); err == nil && len(msg) > len(dir) && msg[:len(dir)] == dir {
		return r
	}
	return msg
}
