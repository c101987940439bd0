package main

import (
	"strings"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/divergo/divergo/analyzer"
)

// isVetToolInvocation reports whether divergo was started by "go vet
// -vettool": the go command first asks for the tool's version and flags, then
// passes one JSON config file per package.
func isVetToolInvocation(args []string) bool {
	if len(args) == 0 {
		return false
	}
	a := args[len(args)-1]
	return strings.HasPrefix(args[0], "-V") || args[0] == "-flags" || strings.HasSuffix(a, ".cfg")
}

func vetToolMain() { unitchecker.Main(analyzer.Analyzer) }
