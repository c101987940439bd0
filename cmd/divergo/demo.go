package main

import (
	_ "embed"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/divergo/divergo/analyzer"
	"github.com/divergo/divergo/internal/load"
)

//go:embed demodata/main.go.txt
var demoProgram []byte

func init() {
	register(&command{
		name:    "demo",
		usage:   "divergo demo [-keep]",
		summary: "run divergo on an embedded example program",
		help: `Demo writes a small concurrent program (three workers adding to a shared total)
to a temporary module and shows what divergo finds in it: the trace change
points, the statements where two runs of the same program on the same input
can go different ways, and where each pair of runs must come together again.

Flags:
	-keep	keep the temporary module and print where it is

Example:

	go run ./cmd/divergo demo`,
		run: runDemo,
	})
}

func runDemo(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("demo")
	keep := fs.Bool("keep", false, "keep the temporary module")
	if rest, err := parseFlags(fs, args); err != nil {
		return 2, err
	} else if len(rest) > 0 {
		return 2, usageError("demo takes no arguments")
	}
	dir, err := os.MkdirTemp("", "divergo-demo-")
	if err != nil {
		return 2, err
	}
	if *keep {
		fmt.Fprintf(stderr, "demo module kept in %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	files := map[string][]byte{
		"go.mod":  []byte("module example.com/tally\n\ngo 1.26\n"),
		"main.go": demoProgram,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return 2, fmt.Errorf("writing demo module: %w", err)
		}
	}
	res, err := load.Load(load.Config{Dir: dir}, analyzer.Analyzer)
	if err != nil {
		return 2, err
	}
	fmt.Fprintf(stdout, "divergo demo: example.com/tally, three workers adding to a shared total.\n\n")
	fmt.Fprintf(stdout, "Trace change points (where two runs on the same input can part):\n\n")
	n := 0
	for _, p := range res.Roots {
		for _, d := range p.Diagnostics {
			pos := res.Fset.Position(d.Pos)
			fmt.Fprintf(stdout, "  %s:%d:%d: %s\n", res.Rel(pos.Filename), pos.Line, pos.Column, d.Message)
			n++
		}
	}
	fmt.Fprintf(stdout, "\n%d change points. On your own module:\n\n  divergo vet ./...\n  go vet -vettool=$(command -v divergo) ./...\n", n)
	return 0, nil
}
