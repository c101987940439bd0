package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// buildTestBinary instruments the module and builds the test binary of
// the one package pkg names with the overlay, for divergo check -test. It
// returns the binary and the package's directory, where go test runs it.
func buildTestBinary(pkg string, stderr io.Writer) (bin, pkgDir string, err error) {
	root, err := moduleRoot()
	if err != nil {
		return "", "", err
	}
	pkgs, err := listTestPackages(root, []string{pkg})
	if err != nil {
		return "", "", err
	}
	if len(pkgs) != 1 {
		return "", "", usageError("%s names %d packages: one at a time", pkg, len(pkgs))
	}
	p := pkgs[0]
	if err := p.unusable(); err != nil {
		return "", "", err
	}
	res, err := instrumentTests(root, pkgs, stderr)
	if err != nil {
		return "", "", err
	}
	if err := p.unusable(); err != nil {
		return "", "", err
	}
	if err := p.build(root, res.Overlay); err != nil {
		return "", "", err
	}
	return p.bin, p.Dir, nil
}

// unusable says why the package has no test binary to run, nil when it
// may have one.
func (p *testPackage) unusable() error {
	switch {
	case p.Broken != "":
		return fmt.Errorf("%s does not build: %s", p.Path, p.Broken)
	case !p.Tests:
		return fmt.Errorf("%s has no test files", p.Path)
	}
	return nil
}

// build builds the package's test binary with the overlay (go test -c),
// in the module at root, and sets p.bin. A build that fails sets p.Broken
// to the compiler's first line, and is an error naming the package.
//
// The binary is kept under .divergo (testBinary), where the next build of
// an unchanged package finds it: go test -c leaves a binary that is up to
// date as it is, where a new path costs a link (0.4 to 0.6 s of a short
// test's 1.3 s, docs/PERFORMANCE.md). Vet is off: the user's go test vets
// the package, and divergo's runs need only its binary (0.1 s).
func (p *testPackage) build(root, overlay string) error {
	bin, err := testBinary(root, overlay, p.Dir)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	build := exec.Command("go", "test", "-c", "-vet=off", "-overlay="+overlay, "-o", bin, p.Path)
	build.Dir = root
	build.Stdout, build.Stderr = &out, &out
	if err := build.Run(); err != nil {
		p.Broken = firstLine(out.String(), err)
		return fmt.Errorf("building the tests of %s with the overlay: %s", p.Path, p.Broken)
	}
	p.bin = bin
	return nil
}

// testBinary is where the test binary of the package in pkgDir is kept,
// beside the overlay of the module at root:
// .divergo/_test/<the package's directory in the module>/pkg.test. The go
// command takes no package from a directory whose name starts with "_", so
// no instrumented copy is ever written there, and instrumenting again
// removes the binaries with the rest of .divergo.
func testBinary(root, overlay, pkgDir string) (string, error) {
	rel, err := filepath.Rel(root, pkgDir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the module root %s", pkgDir, root)
	}
	dir := filepath.Join(filepath.Dir(overlay), "_test", rel)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", fmt.Errorf("making a directory for the test binary: %w", err)
	}
	return filepath.Join(dir, "pkg.test"), nil
}
