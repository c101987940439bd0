package main

import (
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/divergo/divergo/analyzer"
	"github.com/divergo/divergo/internal/load"
	"github.com/divergo/divergo/internal/progress"
	"github.com/divergo/divergo/internal/tbb"
)

func init() {
	register(&command{
		name:    "graph",
		usage:   "divergo graph [-o FILE] [-stats] [-tests] [packages]",
		summary: "write the TCP basic block graph of packages as JSON",
		help: `Graph analyses the named packages (default ".") and writes their TCP basic
block (TBB) graph: every function cut into blocks that hold at most one trace
change point, with each change point's convergence point, the blocks'
source spans, successors and instruction counts. The format is versioned JSON
with a content hash (docs/TBB.md); instrumented programs embed the same graph
in their traces, so its hash names the program a trace came from.

Flags:
	-o FILE	write the graph to FILE instead of standard output
	-stats	print counts to standard error: functions, blocks, branch
		points and the share of them that are change points, TCPs by kind
	-tests	also analyse test files

Example:

	divergo graph -o graph.json ./...
	divergo graph -stats -o /dev/null std`,
		run: runGraph,
	})
}

func runGraph(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("graph")
	out := fs.String("o", "", "output file")
	stats := fs.Bool("stats", false, "print statistics")
	tests := fs.Bool("tests", false, "also analyse test files")
	pkgs, err := parseFlags(fs, args)
	if err != nil {
		return 2, err
	}
	stop := progress.Start(stderr, "divergo graph: loading and analysing packages", nil)
	g, err := loadGraph(load.Config{Patterns: pkgs, Tests: *tests})
	stop()
	if err != nil {
		return 2, err
	}
	data, err := tbb.Marshal(g)
	if err != nil {
		return 2, err
	}
	data = append(data, '\n')
	if *out == "" {
		if _, err := stdout.Write(data); err != nil {
			return 2, err
		}
	} else if err := os.WriteFile(*out, data, 0o644); err != nil {
		return 2, err
	}
	if *stats {
		printGraphStats(stderr, g)
	}
	return 0, nil
}

// loadGraph analyses the packages cfg names and builds their TBB graph.
func loadGraph(cfg load.Config) (*tbb.Graph, error) {
	res, err := load.Load(cfg, analyzer.Analyzer)
	if err != nil {
		return nil, err
	}
	var results []*analyzer.Result
	for _, p := range res.Roots {
		if r, ok := p.Result.(*analyzer.Result); ok && r != nil {
			results = append(results, r)
		}
	}
	return analyzer.Graph(res.Module, res.ModuleDir, res.Fset, results)
}

func printGraphStats(w io.Writer, g *tbb.Graph) {
	decisions, flagged := 0, 0
	kinds := map[tbb.Kind]int{}
	for _, b := range g.Blocks {
		for _, t := range append([]*tbb.TCP{b.TCP}, b.Also...) {
			if t != nil {
				kinds[t.Kind]++
			}
		}
		if len(b.Succs) >= 2 {
			decisions++
			if b.TCP != nil {
				flagged++
			}
		}
	}
	fmt.Fprintf(w, "%d packages, %d functions, %d blocks (%s)\n", len(g.Packages), len(g.Funcs), len(g.Blocks), g.Hash)
	share := 0.0
	if decisions > 0 {
		share = 100 * float64(flagged) / float64(decisions)
	}
	fmt.Fprintf(w, "branch points: %d, change points among them: %d (%.1f%%)\n", decisions, flagged, share)
	var ks []string
	for k := range kinds {
		ks = append(ks, string(k))
	}
	sort.Strings(ks)
	fmt.Fprint(w, "TCPs by kind:")
	for _, k := range ks {
		fmt.Fprintf(w, " %s %d", k, kinds[tbb.Kind(k)])
	}
	fmt.Fprintln(w)
}
