package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/divergo/divergo/analyzer"
	"github.com/divergo/divergo/internal/load"
	"github.com/divergo/divergo/internal/progress"
)

func init() {
	register(&command{
		name:    "vet",
		usage:   "divergo vet [-tests] [packages]",
		summary: "list the trace change points of packages and where each converges",
		help: `Vet analyses the named packages (default ".") and prints one line per trace
change point (TCP): a statement whose outcome can differ between two runs of
the program on the same input, because it depends on data shared between
goroutines or on another source of nondeterminism (map order, select, time,
random numbers). Each line says which shared data it depends on and where the
two runs must come together again (the convergence point, CP):

	path/file.go:LINE:COL: trace change point (KIND): WHY; converges at path/file.go:LINE

Paths are relative to the module root. Kinds are begin, spawn, branch, loop,
switch, select, lock, once, index, maprange and input. The exit status is 0 when the
packages were analysed, 2 when they could not be (they do not build, say).

The same analysis runs under go vet, with divergo as a tool of the module
(go tool -n prints the path of the tool's binary, building it if needed):

	go vet -vettool=$(go tool -n divergo) ./...
	go vet -vettool=$(command -v divergo) ./...   # divergo installed on PATH

go vet treats every diagnostic as a finding and exits 1 when it printed one,
so it exits 1 on any concurrent program; a change point is not a bug. Use
divergo vet (0 when analysed) or go vet -json (0) where a script needs the
status.

Flags:
	-tests	also analyse test files

Example:

	divergo vet ./...
	divergo vet std`,
		run: runVet,
	})
}

func runVet(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("vet")
	tests := fs.Bool("tests", false, "also analyse test files")
	pkgs, err := parseFlags(fs, args)
	if err != nil {
		return 2, err
	}
	stop := progress.Start(stderr, "divergo vet: loading and analysing packages", nil)
	res, err := load.Load(load.Config{Patterns: pkgs, Tests: *tests}, analyzer.Analyzer)
	stop()
	if err != nil {
		return 2, err
	}
	type line struct {
		file      string
		line, col int
		msg       string
	}
	var lines []line
	seen := map[line]bool{}
	for _, p := range res.Roots {
		if strings.HasSuffix(p.Pkg.ID, ".test") {
			// The test main go test generates, in the build cache: none of
			// the user's code, and no file to open.
			continue
		}
		for _, d := range p.Diagnostics {
			pos := res.Fset.Position(d.Pos)
			l := line{res.Rel(pos.Filename), pos.Line, pos.Column, d.Message}
			if !seen[l] { // a file shared by a package and its test variant is reported once
				seen[l] = true
				lines = append(lines, l)
			}
		}
	}
	sort.Slice(lines, func(i, j int) bool {
		a, b := lines[i], lines[j]
		if a.file != b.file {
			return a.file < b.file
		}
		if a.line != b.line {
			return a.line < b.line
		}
		return a.col < b.col
	})
	for _, l := range lines {
		fmt.Fprintf(stdout, "%s:%d:%d: %s\n", l.file, l.line, l.col, l.msg)
	}
	return 0, nil
}
