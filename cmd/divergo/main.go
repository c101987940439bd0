// Command divergo finds where two runs of a concurrent Go program went
// different ways, how far apart they are, and why goroutines waited.
//
// Usage:
//
//	divergo <command> [flags] [arguments]
//
// Run "divergo help" for the list of commands and "divergo <command> -h" for
// one of them. divergo also answers as a vet tool:
//
//	go vet -vettool=$(go tool -n divergo) ./...
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// A command is one subcommand of divergo. Each lives in a file of its own and
// registers itself from init.
type command struct {
	name    string
	usage   string // "divergo vet [packages]"
	summary string // one line, lowercase, for the command list
	help    string // paragraphs after the usage line, with an example
	// run executes the command with its arguments (after the name). It
	// returns the exit status; errors it returns are printed as one line
	// and mean status 2.
	run func(args []string, stdout, stderr io.Writer) (int, error)
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("divergo: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// errUsage reports a usage error: the command's usage is printed after it.
var errUsage = errors.New("usage")

func main() {
	if isVetToolInvocation(os.Args[1:]) {
		vetToolMain() // does not return
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printCommands(stderr)
		return 2
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 {
			c, ok := commands[rest[0]]
			if !ok {
				fmt.Fprintf(stderr, "divergo: unknown command %q; run 'divergo help' for the list\n", rest[0])
				return 2
			}
			printHelp(stdout, c)
			return 0
		}
		printCommands(stdout)
		return 0
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "divergo: unknown command %q; run 'divergo help' for the list\n", name)
		return 2
	}
	status, err := c.run(rest, stdout, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printHelp(stdout, c)
		return 0
	case errors.Is(err, errUsage):
		if msg := strings.TrimSuffix(strings.TrimSuffix(err.Error(), "usage"), ": "); msg != "" {
			fmt.Fprintf(stderr, "divergo %s: %s\n", name, msg)
		}
		fmt.Fprintf(stderr, "usage: %s\nrun 'divergo help %s' for details\n", c.usage, name)
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "divergo %s: %v\n", name, err)
		return 2
	}
	return status
}

// usageError wraps a message so that run prints it with the usage line.
func usageError(format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), errUsage)
}

// newFlagSet returns a flag set for c that reports -h as flag.ErrHelp and
// prints nothing itself: run prints help and errors in one place.
func newFlagSet(c string) *flag.FlagSet {
	fs := flag.NewFlagSet(c, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args into fs, turning flag errors into usage errors.
// Flags may come before or after positional arguments, as with go tools.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError("%v", err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func printCommands(w io.Writer) {
	fmt.Fprint(w, `divergo finds where two runs of a concurrent Go program went different ways,
how far apart they are, and why goroutines waited.

Usage:

	divergo <command> [flags] [arguments]

Commands:

`)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "\t%-11s %s\n", n, commands[n].summary)
	}
	fmt.Fprint(w, `
Run 'divergo help <command>' or 'divergo <command> -h' for details.
divergo is also a vet tool: go vet -vettool=$(go tool -n divergo) ./...
`)
}

func printHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", c.usage, strings.TrimSpace(c.help))
}
