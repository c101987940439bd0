package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/divergo/divergo/instrument"
	"github.com/divergo/divergo/internal/trace"
)

func init() {
	register(&command{
		name:    "run",
		usage:   "divergo run [-n N] [-o DIR] [-perturb [-seed S]] [package] [-- args]",
		summary: "instrument, build and run a program N times, writing one trace per run",
		help: `Run instruments the packages of the main module that the named main package
(default ".") links, reusing .divergo when nothing changed since it was
written, builds the package with the overlay into a temporary binary, and
runs it N times with the arguments after --, each run writing its trace to
DIR/run-K.dvt (K from 1). The program's standard streams are passed
through. Run prints each run's exit status and where its trace is.

With -perturb, run 1 is the program as it runs, unperturbed, and run K from
2 on perturbs the schedule with seed S+K-2 (DIVERGO_PERTURB): before sync
operations and at goroutine starts the program yields or sleeps a few
microseconds, so that the runs explore different interleavings. run-1.dvt is
then the one to explain with divergo wait, whose waits are the program's
own; diff compares the others with it. A run is repeated with the same seed
by setting DIVERGO_PERTURB to the seed run prints. -perturb needs -n 2 or
more.

The exit status is 0 when every run exited 0, 1 when some run did not, and 2
when the program could not be instrumented or built.

Flags:
	-n N	number of runs (default 2)
	-o DIR	directory for the traces (default divergo-traces)
	-perturb	perturb the schedule of runs 2 to N, a different seed per run
	-seed S	seed of run 2 with -perturb (default 1)

Example:

	divergo run -n 2 ./cmd/server -- -port 0
	divergo run -n 5 -perturb ./cmd/server -- -port 0
	divergo diff divergo-traces/run-1.dvt divergo-traces/run-2.dvt`,
		run: runRun,
	})
}

func runRun(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("run")
	n := fs.Int("n", 2, "number of runs")
	dir := fs.String("o", "divergo-traces", "directory for the traces")
	perturb := fs.Bool("perturb", false, "perturb the schedule of runs 2 to N, seed S+K-2 in run K")
	seed := fs.Int64("seed", 1, "seed of run 2 with -perturb")
	args, progArgs := splitProgramArgs(args)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2, err
	}
	if *n < 1 {
		return 2, usageError("-n must be at least 1, not %d", *n)
	}
	if *perturb && *n < 2 {
		return 2, usageError("-perturb needs -n 2 or more: run 1 is never perturbed")
	}
	pkg, err := onePackage(pos)
	if err != nil {
		return 2, err
	}
	// Said before building: the recorder refuses too, but only once the
	// program runs, and would run it without a trace.
	for k := 1; k <= *n; k++ {
		if err := trace.NotLink(filepath.Join(*dir, fmt.Sprintf("run-%d.dvt", k))); err != nil {
			return 2, err
		}
	}
	bin, cleanup, err := buildInstrumented(pkg, stderr)
	if err != nil {
		return 2, err
	}
	defer cleanup()
	if err := os.MkdirAll(*dir, 0o777); err != nil {
		return 2, fmt.Errorf("making the trace directory: %w", err)
	}
	absDir, err := filepath.Abs(*dir)
	if err != nil {
		return 2, fmt.Errorf("making the trace directory: %w", err)
	}
	status := 0
	for k := 1; k <= *n; k++ {
		tr := filepath.Join(absDir, fmt.Sprintf("run-%d.dvt", k))
		env := []string{"DIVERGO_TRACE=" + tr}
		seedNote := ""
		// Run 1 is never perturbed: it is the run whose waits divergo
		// wait explains, and divergo's delays there would be explained
		// instead of the program.
		if *perturb && k > 1 {
			s := *seed + int64(k) - 2
			env = append(env, fmt.Sprintf("DIVERGO_PERTURB=%d", s))
			seedNote = fmt.Sprintf("; DIVERGO_PERTURB=%d", s)
		}
		code, err := runProgram(bin, progArgs, env, os.Stdin, stdout, stderr)
		if err != nil {
			return 2, fmt.Errorf("running %s: %w", pkg, err)
		}
		if code != 0 {
			status = 1
		}
		if _, err := os.Stat(tr); err != nil {
			// Said rather than named: a path to no file sends the user to
			// diff and wait for an error there.
			fmt.Fprintf(stderr, "divergo: run %d: exit status %d; no trace written (the program ran no instrumented code)%s\n", k, code, seedNote)
			continue
		}
		fmt.Fprintf(stderr, "divergo: run %d: exit status %d; trace %s%s\n", k, code, tr, seedNote)
	}
	return status, nil
}

// buildInstrumented instruments the main module of the current directory
// and builds package pkg with the overlay into a temporary binary; cleanup
// removes it.
func buildInstrumented(pkg string, stderr io.Writer) (bin string, cleanup func(), err error) {
	root, err := moduleRoot()
	if err != nil {
		return "", nil, err
	}
	return buildInstrumentedIn(root, "", pkg, stderr)
}

// buildInstrumentedIn is buildInstrumented for the module rooted at root,
// with pkg resolved in directory dir ("" for the current one).
func buildInstrumentedIn(root, dir, pkg string, stderr io.Writer) (bin string, cleanup func(), err error) {
	if err := isCommand(dir, pkg); err != nil {
		return "", nil, err
	}
	pkgs, err := targetPackages(root, dir, false, pkg)
	if err != nil {
		return "", nil, err
	}
	res, err := instrument.Instrument(instrument.Config{Dir: root, Patterns: pkgs, Linked: true})
	if err != nil {
		return "", nil, err
	}
	reportInstrument(res, stderr, stderr)

	tmp, err := os.MkdirTemp("", "divergo-run-")
	if err != nil {
		return "", nil, fmt.Errorf("making a directory for the binary: %w", err)
	}
	cleanup = func() { os.RemoveAll(tmp) }
	bin = filepath.Join(tmp, "prog")
	build := exec.Command("go", "build", "-overlay="+res.Overlay, "-o", bin, pkg)
	build.Dir = dir
	var out bytes.Buffer
	build.Stdout, build.Stderr = &out, &out
	if err := build.Run(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("building %s with the overlay: %s", pkg, firstLine(out.String(), err))
	}
	return bin, cleanup, nil
}

// isCommand says in one line when pkg is not a main package: go build
// writes no binary for a library, and running the file it leaves was
// "permission denied", which does not say what to do.
func isCommand(dir, pkg string) error {
	list := exec.Command("go", "list", "-f", "{{.Name}}", pkg)
	list.Dir = dir
	var out, errOut bytes.Buffer
	list.Stdout, list.Stderr = &out, &errOut
	if err := list.Run(); err != nil {
		return fmt.Errorf("%s: %s", pkg, firstLine(errOut.String(), err))
	}
	names := strings.Fields(out.String())
	if len(names) != 1 {
		return fmt.Errorf("%s names %d packages; name one main package", pkg, len(names))
	}
	if names[0] != "main" {
		return fmt.Errorf("%s is package %s, not a command (no main): use divergo test %s to record its tests (divergo check -test for the soundness check)", pkg, names[0], pkg)
	}
	return nil
}

// runProgram runs bin with args and env added to the environment, and
// returns its exit status; err only when it could not run at all.
func runProgram(bin string, args, env []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	return runProgramIn("", bin, args, env, stdin, stdout, stderr)
}

// runProgramIn is runProgram in directory dir ("" for the current one).
func runProgramIn(dir, bin string, args, env []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	cmd.Env = append(os.Environ(), env...)
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), nil
	case err != nil:
		return 0, err
	}
	return 0, nil
}

// moduleRoot is the root directory of the main module of the current
// directory.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("finding the main module: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not in a module: run needs a main module (go.mod)")
	}
	return filepath.Dir(gomod), nil
}

// firstLine is the first line of the go command's output that says
// something, for one-line errors.
func firstLine(out string, err error) string {
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return err.Error()
}

// splitProgramArgs separates divergo's own arguments from the program's,
// which follow "--".
func splitProgramArgs(args []string) (own, prog []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}

// onePackage is the package a command builds: the one named, or ".".
func onePackage(pos []string) (string, error) {
	switch len(pos) {
	case 0:
		return ".", nil
	case 1:
		return pos[0], nil
	}
	return "", usageError("one package at most, got %d (program arguments go after --)", len(pos))
}
