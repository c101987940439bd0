package instrument

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// A library in the standard library that starts a CPU profile is not
// instrumented, so its pprof.StartCPUProfile would be refused while
// divergo reads CPU samples: net/http/pprof's /debug/pprof/profile handler,
// the one such caller (package testing's -test.cpuprofile starts its
// profile before the program runs, and the recorder then records none).
// When the program links net/http/pprof, the overlay replaces its source
// files that make the two calls by copies that make them through
// variables the recorder sets (runtime/libprofile.go), and adds a file
// declaring those. The go command compiles the standard library's
// packages from source through the overlay as it does the module's; the
// copy is byte for byte the toolchain's own but for the two calls, on the
// same lines, so it changes with the toolchain. A toolchain whose
// net/http/pprof makes neither call is left alone.

// httpPprof is the import path of the standard library's package that
// starts CPU profiles.
const httpPprof = "net/http/pprof"

// linkedFiles is the Go files of the package path that one of roots
// links, nil when none does.
func linkedFiles(roots []*packages.Package, path string) []string {
	seen := map[*packages.Package]bool{}
	var found *packages.Package
	var walk func(p *packages.Package)
	walk = func(p *packages.Package) {
		if found != nil || seen[p] {
			return
		}
		seen[p] = true
		if p.PkgPath == path {
			found = p
			return
		}
		for _, q := range p.Imports {
			walk(q)
		}
	}
	for _, r := range roots {
		walk(r)
	}
	if found == nil {
		return nil
	}
	return found.GoFiles
}

// profileCalls are the calls the copies make through the recorder's
// variables: each keeps runtime/pprof's function as an argument, so the
// import stays used and a binary without the recorder calls it.
var profileCalls = [][2]string{
	{"pprof.StartCPUProfile(", "divergoStartCPUProfile(pprof.StartCPUProfile, "},
	{"pprof.StopCPUProfile()", "divergoStopCPUProfile(pprof.StopCPUProfile)"},
}

// hookProfileCalls writes the copies of files (net/http/pprof's) below
// out and adds them to replace. copied names the recorder's copy, whose
// variables' names differ from divergo's own (renamePushed).
func hookProfileCalls(files []string, out string, copied bool, replace map[string]string) error {
	dir := ""
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			return fmt.Errorf("reading %s: %w", name, err)
		}
		hooked := src
		for _, c := range profileCalls {
			hooked = bytes.ReplaceAll(hooked, []byte(c[0]), []byte(c[1]))
		}
		if bytes.Equal(hooked, src) {
			continue
		}
		dst := filepath.Join(out, "std", httpPprof, filepath.Base(name))
		if err := writeFile(dst, hooked); err != nil {
			return err
		}
		replace[name] = dst
		dir = filepath.Dir(name)
	}
	if dir == "" {
		return nil
	}
	prefix := "runtime.divergo"
	if copied {
		prefix = "runtime.divergoCopy"
	}
	hook := strings.ReplaceAll(profileHook, "runtime.divergo", prefix)
	dst := filepath.Join(out, "std", httpPprof, "divergo_cpuprofile.go")
	if err := writeFile(dst, []byte(hook)); err != nil {
		return err
	}
	replace[filepath.Join(dir, "divergo_cpuprofile.go")] = dst
	return nil
}

func writeFile(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := os.WriteFile(name, data, 0o666); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// profileHook is the file added to net/http/pprof.
const profileHook = Header + `

package pprof

import (
	"io"
	_ "unsafe" // go:linkname
)

// Set by divergo's recorder when the program links it.

//go:linkname divergoStart runtime.divergoStartCPUProfile
var divergoStart func(io.Writer) error

//go:linkname divergoStop runtime.divergoStopCPUProfile
var divergoStop func()

func divergoStartCPUProfile(start func(io.Writer) error, w io.Writer) error {
	if f := divergoStart; f != nil {
		return f(w)
	}
	return start(w)
}

func divergoStopCPUProfile(stop func()) {
	if f := divergoStop; f != nil {
		f()
		return
	}
	stop()
}
`
