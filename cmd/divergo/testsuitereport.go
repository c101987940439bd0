package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// suiteReport is the report of divergo test over several packages: one
// entry per package the patterns named, in go list's order.
type suiteReport struct {
	Packages []*packageReport `json:"packages"`
}

// packageReport is what divergo test found of one package of a suite:
// the report of its runs, or why it has none.
type packageReport struct {
	Package string `json:"package"`
	NoTests bool   `json:"no_tests,omitempty"`
	// Broken is the first line of why the package does not build (go
	// list, instrumenting or go test -c).
	Broken string `json:"broken,omitempty"`
	// Error says why its runs could not be made or explained.
	Error  string      `json:"error,omitempty"`
	Report *testReport `json:"report,omitempty"`
}

// keepSub is the directory below the invocation's in keepDir where a suite keeps the runs of
// the flaky tests of package path: test names repeat across packages.
func keepSub(path string) string { return filepath.FromSlash(path) }

// reportSuite explains the runs of each package of results, keeping
// flaky tests' runs in one directory of the invocation's.
func reportSuite(results []*suiteResult) *suiteReport {
	sr := &suiteReport{}
	var all []*runRecord
	for _, r := range results {
		all = append(all, r.recs...)
	}
	pl := newKeepPlace(all)
	for _, r := range results {
		pr := &packageReport{Package: r.pkg.Path, NoTests: !r.pkg.Tests, Broken: r.pkg.Broken}
		switch {
		case r.err != nil:
			pr.Error = r.err.Error()
		case len(r.recs) > 0:
			rep, err := reportRuns(r.recs, pl, keepSub(r.pkg.Path))
			if err != nil {
				pr.Error = err.Error()
			}
			pr.Report = rep
		}
		sr.Packages = append(sr.Packages, pr)
	}
	return sr
}

// status is the exit status of a suite: 2 when a package did not build or
// its runs could not be made (the report does not cover it), else 1 when
// a test was flaky or failed in every run, else 0.
func (sr *suiteReport) status() int {
	st := 0
	for _, p := range sr.Packages {
		switch {
		case p.Broken != "" || p.Error != "":
			return 2
		case p.Report != nil && (len(p.Report.Flaky) > 0 || len(p.Report.Failed) > 0):
			st = 1
		}
	}
	return st
}

// printSuiteReport prints sr as text or JSON and returns the exit status.
func printSuiteReport(sr *suiteReport, asJSON bool, stdout io.Writer) (int, error) {
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sr); err != nil {
			return 2, err
		}
		return sr.status(), nil
	}
	bw := bufio.NewWriter(stdout)
	var tested, noTests, broken, flakyPkgs, failedPkgs int
	for i, p := range sr.Packages {
		if i > 0 && p.Report != nil {
			fmt.Fprintln(bw)
		}
		switch {
		case p.NoTests:
			noTests++
			fmt.Fprintf(bw, "%s: no test files\n", p.Package)
		case p.Broken != "":
			broken++
			fmt.Fprintf(bw, "%s: does not build: %s\n", p.Package, p.Broken)
		case p.Error != "":
			broken++
			fmt.Fprintf(bw, "%s: its runs could not be made: %s\n", p.Package, p.Error)
		case p.Report != nil:
			tested++
			if len(p.Report.Flaky) > 0 {
				flakyPkgs++
			}
			if len(p.Report.Failed) > 0 {
				failedPkgs++
			}
			if err := writeTestReport(bw, p.Report); err != nil {
				return 2, err
			}
		}
	}
	parts := []string{fmt.Sprintf("%d tested", tested)}
	if flakyPkgs > 0 {
		parts = append(parts, fmt.Sprintf("%d with a flaky test", flakyPkgs))
	}
	if failedPkgs > 0 {
		parts = append(parts, fmt.Sprintf("%d with a test failing in every run", failedPkgs))
	}
	if noTests > 0 {
		parts = append(parts, fmt.Sprintf("%d with no test files", noTests))
	}
	if broken > 0 {
		parts = append(parts, fmt.Sprintf("%d not built or not run", broken))
	}
	fmt.Fprintf(bw, "\n%d packages: %s\n", len(sr.Packages), strings.Join(parts, ", "))
	if err := bw.Flush(); err != nil {
		return 2, err
	}
	return sr.status(), nil
}
