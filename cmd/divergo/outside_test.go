package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportsReadOnlyTheModule: a trace is input from anyone, and so is the
// graph in it. Whatever file its positions name (a path with "..", an
// absolute one, a link in the module to a file out of it), diff's text and
// page and wait's text and page show no line of a file outside the module;
// the module's own file, named the same way, is shown (so that the test
// would see a leak).
func TestReportsReadOnlyTheModule(t *testing.T) {
	base := t.TempDir()
	mod := filepath.Join(base, "mod")
	var secret, inside strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&secret, "SECRET %d\n", i)
		fmt.Fprintf(&inside, "INSIDE %d\n", i)
	}
	writeFile(t, filepath.Join(base, "secret.txt"), secret.String())
	writeFile(t, filepath.Join(mod, "go.mod"), "module example.com/m\n")
	writeFile(t, filepath.Join(mod, "main.go"), inside.String())
	if err := os.Symlink(filepath.Join("..", "secret.txt"), filepath.Join(mod, "link.go")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := os.Symlink("main.go", filepath.Join(mod, "inlink.go")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(mod)
	for _, tc := range []struct {
		file string
		want string // what the reports show of the file's lines
	}{
		{"../secret.txt", ""},
		{"../../../../../../../../" + filepath.ToSlash(filepath.Join(base, "secret.txt")), ""},
		{filepath.ToSlash(filepath.Join(base, "secret.txt")), ""},
		{"link.go", ""},
		{"sub/../../secret.txt", ""},
		{"main.go", "INSIDE"},
		{"inlink.go", "INSIDE"}, // a link that stays in the module is the module's file
	} {
		t.Run(strings.ReplaceAll(tc.file, "/", "_"), func(t *testing.T) {
			dir := filepath.Join(mod, "divergo-traces")
			if err := os.MkdirAll(dir, 0o777); err != nil {
				t.Fatal(err)
			}
			a, b := filepath.Join(dir, "a.dvt"), filepath.Join(dir, "b.dvt")
			g := showGraph(tc.file)
			writeShowTrace(t, a, g, nil, true)
			writeShowTrace(t, b, g, nil, false)
			pages := t.TempDir()
			diffPage, waitPage := filepath.Join(pages, "diff.html"), filepath.Join(pages, "wait.html")
			outs := map[string]string{}
			for what, args := range map[string][]string{
				"diff":       {"diff", a, b},
				"diff -html": {"diff", "-html", diffPage, a, b},
				"wait":       {"wait", a},
				"wait -html": {"wait", "-html", waitPage, a},
			} {
				status, stdout, stderr := runCmd(t, args...)
				if status > 1 {
					t.Fatalf("divergo %s: status %d\n%s%s", what, status, stdout, stderr)
				}
				outs[what] = stdout + stderr
			}
			for _, p := range []string{diffPage, waitPage} {
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				outs[filepath.Base(p)] = string(data)
			}
			for what, out := range outs {
				if strings.Contains(out, "SECRET") {
					t.Errorf("%s shows a line of a file out of the module:\n%s", what, out)
				}
			}
			if tc.want != "" {
				for _, what := range []string{"diff.html", "wait.html"} {
					if !strings.Contains(outs[what], tc.want) {
						t.Errorf("%s does not show the module's own %s", what, tc.file)
					}
				}
			}
		})
	}
}
