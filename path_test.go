package divergo_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// systemTools are the programs tests may run from PATH: Go's and the
// system's, which a fresh machine has (.ci/run runs the tests with a PATH
// of those only). Anything else, divergo first of all, a test builds
// itself: a test that ran "divergo" from PATH passed only where someone
// had run go install before, with whatever old binary that left.
var systemTools = []string{"go", "git", "bash", "sh", "cmp", "cc", "gcc", "clang", "chromium", "chromium-browser", "google-chrome"}

// runByName finds a program run or looked up by a bare name: the first
// string argument of exec.Command, of exec.CommandContext after its
// context, and of exec.LookPath.
var runByName = regexp.MustCompile(`exec\.(?:Command|CommandContext|LookPath)\((?:(?:ctx|context\.\w+\(\)), )?"([^"/]+)"`)

// TestNoBinaryFromPath: no test names a program to run by a bare name
// that is not one of systemTools.
func TestNoBinaryFromPath(t *testing.T) {
	files, err := trackedFiles()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") || f == "path_test.go" {
			continue // this file names such programs as the pattern's examples
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range runByName.FindAllStringSubmatch(string(data), -1) {
			if !slices.Contains(systemTools, m[1]) {
				t.Errorf("%s runs %q from PATH: build it in the test (go build -o) and run it by its path", f, m[1])
			}
		}
	}
}

// TestNoBinaryFromPathCatches: the pattern sees the forms tests use.
func TestNoBinaryFromPathCatches(t *testing.T) {
	for _, src := range []string{`exec.Command("divergo", "run")`, `exec.CommandContext(ctx, "divergo")`, `exec.LookPath("divergo")`, `exec.CommandContext(context.Background(), "divergo")`} {
		if m := runByName.FindStringSubmatch(src); m == nil || m[1] != "divergo" {
			t.Errorf("%s: not seen", src)
		}
	}
	for _, src := range []string{`exec.Command(bin, "run")`, `exec.CommandContext(ctx, bin, "wait")`, `exec.Command("./divergo")`} {
		if m := runByName.FindStringSubmatch(src); m != nil {
			t.Errorf("%s: taken for a program run by name (%q)", src, m[1])
		}
	}
}
