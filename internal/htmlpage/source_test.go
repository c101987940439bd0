package htmlpage

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// sourceTree makes a module root holding main.go, a link in it to
// main.go, a link out of it to secret.txt beside the root, a FIFO and a
// link to /dev/zero; it returns the root.
func sourceTree(t testing.TB) string {
	base := t.TempDir()
	root := filepath.Join(base, "mod")
	for path, data := range map[string]string{
		filepath.Join(base, "secret.txt"):       "SECRET\n",
		filepath.Join(root, "main.go"):          "package main\n",
		filepath.Join(root, "sub", "a.go"):      "package sub\n",
		filepath.Join(base, "other", "evil.go"): "SECRET\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{
		"out.go":   filepath.Join("..", "secret.txt"),
		"abs.go":   filepath.Join(base, "secret.txt"),
		"in.go":    "main.go",
		"dir":      filepath.Join(base, "other"),
		"zero.go":  "/dev/zero",
		"loop.go":  "loop.go",
		"sub/b.go": filepath.Join("..", "main.go"),
	} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(name))); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo.go"), 0o666); err != nil {
		t.Logf("no FIFO: %v", err)
	}
	return root
}

// TestReadSource: the module's files are read, links that stay in it
// too; nothing out of it by "..", an absolute path or a link, and no FIFO
// or device (which would block or never end).
func TestReadSource(t *testing.T) {
	root := sourceTree(t)
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"main.go", true},
		{"sub/a.go", true},
		{"sub/../main.go", true},
		{"in.go", true},
		{"sub/b.go", true},
		{"../secret.txt", false},
		{"../mod/main.go", false},
		{"sub/../../secret.txt", false},
		{"../../../../../../../../etc/services", false},
		{filepath.ToSlash(filepath.Join(filepath.Dir(root), "secret.txt")), false},
		{"/etc/services", false},
		{"out.go", false},
		{"abs.go", false},
		{"dir/evil.go", false},
		{"zero.go", false},
		{"fifo.go", false},
		{"loop.go", false},
		{"", false},
		{".", false},
		{"sub", false},
		{"missing.go", false},
	} {
		data, err := ReadSource(root, tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("ReadSource(%q) = %q, %v; want ok %v", tc.name, data, err, tc.ok)
		}
	}
	if _, err := ReadSource("", "main.go"); err == nil {
		t.Errorf("no root: read a file")
	}
}

// FuzzReadSource: whatever name a trace's graph gives, ReadSource returns
// no byte of a file out of the module root and does not block.
func FuzzReadSource(f *testing.F) {
	for _, s := range []string{"main.go", "../secret.txt", "/etc/passwd", "out.go", "abs.go", "dir/evil.go",
		"sub/../../secret.txt", "fifo.go", "zero.go", "in.go", "./main.go", "sub//a.go", "sub\\..\\..\\secret.txt", "C:/x", "\x00"} {
		f.Add(s)
	}
	root := sourceTree(f)
	f.Fuzz(func(t *testing.T, name string) {
		data, err := ReadSource(root, name)
		if err != nil {
			if strings.ContainsRune(err.Error(), '\n') {
				t.Errorf("ReadSource(%q): error of more than one line: %v", name, err)
			}
			return
		}
		if bytes.Contains(data, []byte("SECRET")) {
			t.Errorf("ReadSource(%q) read a file out of the module: %q", name, data)
		}
	})
}
