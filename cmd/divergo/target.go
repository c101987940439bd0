package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// targetPackages lists the packages of the module rooted at root that pkgs
// link (with their tests' imports, when tests): run, test and check
// instrument only those, so that a command of a large module does not
// analyse the whole module first, and an edit elsewhere does not make
// them instrument again. pkgs are resolved in dir ("" for the current one).
func targetPackages(root, dir string, tests bool, pkgs ...string) ([]string, error) {
	args := []string{"list", "-deps", "-f", "{{.ImportPath}}\t{{with .Module}}{{.Dir}}{{end}}"}
	if tests {
		args = append(args, "-test")
	}
	cmd := exec.Command("go", append(args, pkgs...)...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %s", strings.Join(pkgs, " "), firstLine(errOut.String(), err))
	}
	var linked []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		path, modDir, _ := strings.Cut(l, "\t")
		if modDir == "" || filepath.Clean(modDir) != filepath.Clean(root) {
			continue // the standard library, another module, another module of the workspace
		}
		// "p [p.test]" is p's test variant, "p_test [p.test]" its external
		// tests and "p.test" the generated test main: the instrumenter takes
		// tests from the package's path.
		path, _, _ = strings.Cut(path, " ")
		if strings.HasSuffix(path, ".test") {
			continue
		}
		path = strings.TrimSuffix(path, "_test")
		linked = append(linked, path)
	}
	slices.Sort(linked)
	linked = slices.Compact(linked)
	if len(linked) == 0 {
		return nil, fmt.Errorf("%s is not a package of the module at %s", strings.Join(pkgs, " "), root)
	}
	return linked, nil
}
