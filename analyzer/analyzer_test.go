package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/divergo/divergo/analyzer"
)

func TestBranches(t *testing.T) { analysistest.Run(t, analysistest.TestData(), analyzer.Analyzer, "branches") }
