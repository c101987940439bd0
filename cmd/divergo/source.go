package main

import (
	"bufio"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/divergo/divergo/internal/trace"
)

// srcFlag is the -src flag of the commands that show source lines.
func srcFlag(fs *flag.FlagSet) *string {
	return fs.String("src", "", "the root of the module the traces were recorded from (default: found from the working directory or the traces)")
}

// sourceRoot is the root of the module whose source the reports show: src
// when given; else the module, above the working directory or above one of
// the traces (divergo run writes them inside the module), whose path is the
// one the traces' graph names, so that a report asked for from anywhere
// shows the right files. Without traces, or a graph that names no module,
// it is the working directory's module; "" when none is found.
func sourceRoot(src string, traces ...string) string {
	if src != "" {
		if abs, err := filepath.Abs(src); err == nil {
			return abs
		}
		return src
	}
	module := ""
	if len(traces) > 0 {
		if r, err := trace.Open(traces[0]); err == nil {
			if g := r.Graph(); g != nil {
				module = g.Module
			}
			r.Close()
		}
	}
	starts := []string{"."}
	for _, t := range traces {
		starts = append(starts, filepath.Dir(t))
	}
	for _, start := range starts {
		dir, err := filepath.Abs(start)
		if err != nil {
			continue
		}
		if root, path := enclosingModule(dir); root != "" && (module == "" || path == module) {
			return root
		}
	}
	return ""
}

// enclosingModule finds the go.mod at or above dir and returns its
// directory and module path.
func enclosingModule(dir string) (root, path string) {
	for {
		if p, ok := modulePath(filepath.Join(dir, "go.mod")); ok {
			return dir, p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ""
		}
		dir = parent
	}
}

// modulePath reads the module path of a go.mod file: its module line,
// which may be quoted and may carry a comment.
func modulePath(gomod string) (string, bool) {
	f, err := os.Open(gomod)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		rest, ok := strings.CutPrefix(line, "module")
		if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		rest, _, _ = strings.Cut(rest, "//")
		rest = strings.TrimSpace(rest)
		if p, err := strconv.Unquote(rest); err == nil {
			rest = p
		}
		return rest, true
	}
	return "", true
}
