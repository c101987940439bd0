package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/divergo/divergo/analyzer"
)

// TestWant runs the analyzer over the packages of testdata/src, whose
// "// want" comments list exactly the TCPs (and facts) expected. One run
// takes them all: each run loads and type-checks the standard library
// packages they import from source, which was most of the package's test
// time when every package had a test (and a load) of its own.
func TestWant(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), analyzer.Analyzer,
		"branches", "loops", "switches", "selects", "locks", "once",
		"indexes", "maprange", "spawn", "begin", "input", "closures",
		"generics", "negatives", "memory", "factstore", "fresh",
		// Across packages: lib's facts reach crosspkg.
		"crosspkg", "lib",
		// Programs in the shape of the benchmarks game's Go entries: no
		// change point that depends only on flags, GOMAXPROCS, a constant
		// seed or data written before the goroutines started.
		"binarytrees", "fannkuch", "spectralnorm", "knucleotide",
		// The same algorithms as others write them: workers that get their
		// data as go arguments, input built with a strings.Builder.
		"fannkuchargs", "spectralnormargs", "binarytreesargs", "knucleotideslices",
		"builders")
}
