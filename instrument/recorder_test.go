package instrument

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLangConstraint: a file is raised to a language version by its build
// constraint without moving a line: an existing //go:build line takes the
// version in place and // +build lines fold into it; only a file with no
// constraint gets a head for the caller to put before its //line
// directive.
func TestLangConstraint(t *testing.T) {
	for _, tc := range []struct {
		name, src, want, head string
	}{
		{"none", "package p\n", "package p\n", "//go:build go1.21\n\n"},
		{"doc comment", "// Package p.\npackage p\n", "// Package p.\npackage p\n", "//go:build go1.21\n\n"},
		{"go:build", "//go:build linux || darwin\n\npackage p\n", "//go:build go1.21 && (linux || darwin)\n\npackage p\n", ""},
		{"plus build", "// +build linux\n// +build amd64\n\npackage p\n", "//go:build go1.21 && (linux && amd64)\n//\n\npackage p\n", ""},
		{"both", "//go:build linux\n// +build linux\n\npackage p\n", "//go:build go1.21 && (linux)\n//\n\npackage p\n", ""},
		{"after the package clause", "package p\n\n//go:build linux\n", "package p\n\n//go:build linux\n", "//go:build go1.21\n\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, head, err := langConstraint([]byte(tc.src), "go1.21")
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want || head != tc.head {
				t.Errorf("got %q with head %q, want %q with head %q", out, head, tc.want, tc.head)
			}
			if strings.Count(string(out), "\n") != strings.Count(tc.src, "\n") {
				t.Errorf("lines moved: %q", out)
			}
		})
	}
	if _, _, err := langConstraint([]byte("//go:build (linux\n\npackage p\n"), "go1.21"); err == nil {
		t.Error("a malformed constraint was taken")
	}
}

// TestRecorderFile: the recorder's copy imports its own packages below the
// module's recorder path, and every file requires the recorder's language
// version.
func TestRecorderFile(t *testing.T) {
	src := "//go:build linux\n\npackage runtime\n\nimport (\n\t\"os\"\n\n\t\"github.com/divergo/divergo/internal/trace\"\n)\n"
	out, err := recorderFile("x.go", []byte(src), "example.com/m/_divergo")
	if err != nil {
		t.Fatal(err)
	}
	want := "//go:build " + recorderLang + " && (linux)\n\npackage runtime\n\nimport (\n\t\"os\"\n\n\t\"example.com/m/_divergo/internal/trace\"\n)\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestRenamePushed: the copy's symbols pushed into the Go runtime's
// namespace differ from divergo's own runtime package's, and keep the
// "runtime." that hides its goroutines; other linknames are left alone.
func TestRenamePushed(t *testing.T) {
	src := "//go:linkname hiddenWriter runtime.divergoWriter\nfunc hiddenWriter()\n//go:linkname nanotime runtime.nanotime\n// runtime.divergoWriter in a comment\n"
	want := "//go:linkname hiddenWriter runtime.divergoCopyWriter\nfunc hiddenWriter()\n//go:linkname nanotime runtime.nanotime\n// runtime.divergoWriter in a comment\n"
	if got := string(renamePushed([]byte(src))); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestRecorderDirTaken: a module with files of its own where the recorder
// goes is refused in one line; the empty directories an earlier run made
// are not files of its own.
func TestRecorderDirTaken(t *testing.T) {
	mod := t.TempDir()
	put := func(string, []byte) error { return nil }
	if err := writeRecorder(mod, "example.com/m/_divergo", put); err != nil {
		t.Fatalf("a module without %s: %v", RecorderDir, err)
	}
	if err := writeRecorder(mod, "example.com/m/_divergo", put); err != nil {
		t.Fatalf("again, with the empty directories of the first run: %v", err)
	}
	if err := os.WriteFile(filepath.Join(mod, RecorderDir, "x.go"), []byte("package x\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	err := writeRecorder(mod, "example.com/m/_divergo", put)
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), RecorderDir) {
		t.Errorf("a module with files in %s: error %v, want one line naming the directory", RecorderDir, err)
	}
}
