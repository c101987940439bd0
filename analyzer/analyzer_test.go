package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/divergo/divergo/analyzer"
)

// Each test runs the analyzer over one package of testdata/src, whose
// "// want" comments list exactly the TCPs (and facts) expected.
func run(t *testing.T, pkgs ...string) {
	t.Helper()
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), analyzer.Analyzer, pkgs...)
}

func TestBranches(t *testing.T)  { run(t, "branches") }
func TestLoops(t *testing.T)     { run(t, "loops") }
func TestSwitches(t *testing.T)  { run(t, "switches") }
func TestSelects(t *testing.T)   { run(t, "selects") }
func TestLocks(t *testing.T)     { run(t, "locks") }
func TestOnce(t *testing.T)      { run(t, "once") }
func TestIndex(t *testing.T)     { run(t, "indexes") }
func TestMapRange(t *testing.T)  { run(t, "maprange") }
func TestSpawn(t *testing.T)     { run(t, "spawn") }
func TestBegin(t *testing.T)     { run(t, "begin") }
func TestInput(t *testing.T)     { run(t, "input") }
func TestClosures(t *testing.T)  { run(t, "closures") }
func TestGenerics(t *testing.T)  { run(t, "generics") }
func TestNegatives(t *testing.T) { run(t, "negatives") }
func TestCrossPkg(t *testing.T)  { run(t, "crosspkg", "lib") }
func TestMemory(t *testing.T)    { run(t, "memory") }

// Programs in the shape of the benchmarks game's Go entries: no change
// point that depends only on flags, GOMAXPROCS, a constant seed or data
// written before the goroutines started.
func TestBinaryTrees(t *testing.T)  { run(t, "binarytrees") }
func TestFannkuch(t *testing.T)     { run(t, "fannkuch") }
func TestSpectralNorm(t *testing.T) { run(t, "spectralnorm") }
func TestKNucleotide(t *testing.T)  { run(t, "knucleotide") }
