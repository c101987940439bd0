package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/trace"
	"github.com/divergo/divergo/waittime"
)

//go:embed demodata/main.go.txt
var demoProgram []byte

func init() {
	register(&command{
		name:    "demo",
		usage:   "divergo demo [-keep] [-tries N]",
		summary: "run divergo end to end on an embedded example program",
		help: `Demo shows the whole of divergo on a small concurrent program embedded in the
binary: three workers take jobs from a channel and add them to a shared total
under a mutex. It writes the program to a temporary module, instruments it
(divergo instrument), builds it with the overlay, and runs it under perturbed
schedules (DIVERGO_PERTURB) until two runs took different paths. Then it
prints where the two runs went different ways and how far apart they are
(divergo diff), and why goroutines waited in the first run (divergo wait).

It runs anywhere divergo does, with no network: the temporary module
requires nothing, and the recorder comes with divergo (as for any module).

Flags:
	-keep	keep the temporary module and its traces, and print where they are
	-tries N
		runs at most, looking for a run that differs from the first (default 8)

Example:

	go run ./cmd/divergo demo
	go run ./cmd/divergo demo -keep`,
		run: runDemo,
	})
}

func runDemo(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("demo")
	keep := fs.Bool("keep", false, "keep the temporary module")
	tries := fs.Int("tries", 8, "runs at most")
	if rest, err := parseFlags(fs, args); err != nil {
		return 2, err
	} else if len(rest) > 0 {
		return 2, usageError("demo takes no arguments")
	}
	if *tries < 2 {
		return 2, usageError("-tries must be at least 2, not %d", *tries)
	}
	dir, err := os.MkdirTemp("", "divergo-demo-")
	if err != nil {
		return 2, err
	}
	if *keep {
		defer fmt.Fprintf(stdout, "\nThe demo module and its traces are in %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	if err := writeDemoModule(dir); err != nil {
		return 2, fmt.Errorf("writing the demo module: %w", err)
	}

	fmt.Fprint(stdout, `divergo demo: a program where three workers take twelve jobs from a channel
and add them to a shared total; when the running total is a multiple of
three, a worker takes a slow path. Which worker sees which total is up to the
scheduler, so two runs of the same program on the same input can differ.

`)
	fmt.Fprintln(stdout, "1. Instrumenting it and building it with the overlay (divergo instrument; go build -overlay).")
	var buildLog bytes.Buffer
	bin, cleanup, err := buildInstrumentedIn(dir, dir, ".", &buildLog)
	if err != nil {
		return 2, err
	}
	defer cleanup()

	fmt.Fprintln(stdout, "2. Running it under perturbed schedules until two runs took different paths (divergo run -perturb).")
	first := filepath.Join(dir, "run-1.dvt")
	out, err := demoRun(bin, dir, first, 1)
	if err != nil {
		return 2, err
	}
	fmt.Fprintf(stdout, "   run 1: %s", out)
	var rep *compare.Report
	second := ""
	for k := 2; k <= *tries; k++ {
		path := filepath.Join(dir, fmt.Sprintf("run-%d.dvt", k))
		out, err := demoRun(bin, dir, path, k)
		if err != nil {
			return 2, err
		}
		fmt.Fprintf(stdout, "   run %d: %s", k, out)
		if rep, err = demoCompare(first, path); err != nil {
			return 2, err
		}
		second = path
		if !rep.Summary.Same {
			break
		}
	}
	if rep.Summary.Same {
		fmt.Fprintf(stdout, "   all %d runs took the same paths; the report below says so.\n", *tries)
	}

	fmt.Fprintf(stdout, "\n3. Where run 1 and run %s went different ways (divergo diff):\n\n", strings.TrimSuffix(strings.TrimPrefix(filepath.Base(second), "run-"), ".dvt"))
	if err := rep.WriteText(stdout, compare.TextOptions{NameA: "run-1.dvt", NameB: filepath.Base(second), Root: dir}); err != nil {
		return 2, err
	}

	// Waiting time of a run divergo did not perturb, as divergo run's
	// first run is: a perturbed run's waits are partly divergo's own
	// delays, which the report takes out of the explanations, but the
	// waits themselves are not the program's as it runs.
	plain := filepath.Join(dir, "run-plain.dvt")
	if _, err := demoRun(bin, dir, plain, 0); err != nil {
		return 2, err
	}
	fmt.Fprint(stdout, "\n4. Why goroutines waited in a run with its own schedule (divergo wait):\n\n")
	wrep, err := analyzeTrace(plain, waittime.Options{}, stderr)
	if err != nil {
		return 2, err
	}
	if err := wrep.WriteText(stdout, 4); err != nil {
		return 2, err
	}

	fmt.Fprint(stdout, `
On your own module:

	divergo vet ./...                     # the change points
	divergo run -n 2 -perturb ./cmd/app   # instrument, build, run twice
	divergo diff divergo-traces/run-1.dvt divergo-traces/run-2.dvt
	divergo wait -pprof wait.pprof divergo-traces/run-1.dvt
	go tool pprof -top wait.pprof
	divergo check ./cmd/app               # holes in the analysis, if any

(go install ./cmd/divergo in a divergo checkout puts divergo on your PATH;
your module's go.mod and go.sum are left as they are.)

README.md walks through the same steps with divergo instrument and the overlay.
`)
	return 0, nil
}

// writeDemoModule writes the embedded program as a module of its own. It
// requires nothing: the recorder comes with the instrumented copies.
func writeDemoModule(dir string) error {
	gomod := "module example.com/tally\n\ngo 1.21\n"
	for name, data := range map[string][]byte{"go.mod": []byte(gomod), "main.go": demoProgram} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// demoRun runs the instrumented program once with schedule perturbation and
// returns its output.
func demoRun(bin, dir, tracePath string, seed int) (string, error) {
	var out bytes.Buffer
	env := []string{"DIVERGO_TRACE=" + tracePath}
	if seed > 0 { // seed 0: the program's own schedule
		env = append(env, fmt.Sprintf("DIVERGO_PERTURB=%d", seed))
	}
	code, err := runProgram(bin, nil, env, nil, &out, &out)
	if err != nil {
		return "", fmt.Errorf("running the demo program: %w", err)
	}
	if code != 0 {
		return "", fmt.Errorf("the demo program exited with status %d: %s", code, firstLine(out.String(), nil))
	}
	return out.String(), nil
}

func demoCompare(a, b string) (*compare.Report, error) {
	ra, err := trace.Open(a)
	if err != nil {
		return nil, err
	}
	defer ra.Close()
	rb, err := trace.Open(b)
	if err != nil {
		return nil, err
	}
	defer rb.Close()
	return compare.Traces(compare.FromReader(ra), compare.FromReader(rb), compare.Options{})
}
