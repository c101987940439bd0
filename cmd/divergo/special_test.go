package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSpecialFilesRefused: show, diff and wait refuse a FIFO (which hung
// them) and /dev/zero (read as an empty trace) at once, with status 2 and
// one line.
func TestSpecialFilesRefused(t *testing.T) {
	good := showTrace(t)
	fifo := filepath.Join(t.TempDir(), "fifo.dvt")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	for _, bad := range []struct{ path, want string }{{fifo, "is a FIFO"}, {"/dev/zero", "is a device"}} {
		for _, args := range [][]string{
			{"show", bad.path},
			{"show", "-json", bad.path},
			{"diff", bad.path, good},
			{"diff", good, bad.path},
			{"diff", "-json", good, bad.path},
			{"wait", bad.path},
		} {
			type result struct {
				status       int
				stdout, errs string
			}
			done := make(chan result, 1)
			go func() {
				status, stdout, errs := runCmd(t, args...)
				done <- result{status, stdout, errs}
			}()
			select {
			case r := <-done:
				if r.status != 2 || r.stdout != "" || !strings.Contains(r.errs, bad.want) || strings.Count(r.errs, "\n") != 1 {
					t.Errorf("divergo %s: status %d, stdout %q, stderr %q; want 2 and one line with %q", strings.Join(args, " "), r.status, r.stdout, r.errs, bad.want)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("divergo %s: still running after 20s", strings.Join(args, " "))
			}
		}
	}
}

// TestRunRefusesLinkedTrace: divergo run with a symbolic link where a trace
// goes (divergo-traces/run-1.dvt -> elsewhere/keep.txt) says so in one
// line before building, and keep.txt is left as it was.
func TestRunRefusesLinkedTrace(t *testing.T) {
	mod := t.TempDir()
	writeFile(t, filepath.Join(mod, "go.mod"), "module example.com/m\n\ngo 1.21\n")
	writeFile(t, filepath.Join(mod, "main.go"), "package main\n\nfunc main() {}\n")
	keep := filepath.Join(mod, "elsewhere", "keep.txt")
	writeFile(t, keep, "keep me\n")
	if err := os.MkdirAll(filepath.Join(mod, "divergo-traces"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "elsewhere", "keep.txt"), filepath.Join(mod, "divergo-traces", "run-2.dvt")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	t.Chdir(mod)
	status, stdout, errs := runCmd(t, "run", "-n", "2", ".")
	if status != 2 || !strings.Contains(errs, "run-2.dvt is a symbolic link") || strings.Count(errs, "\n") != 1 {
		t.Errorf("status %d, stdout %q, stderr %q; want 2 and one line saying run-2.dvt is a symbolic link", status, stdout, errs)
	}
	if data, _ := os.ReadFile(keep); string(data) != "keep me\n" {
		t.Errorf("keep.txt now holds %q", data)
	}
}
