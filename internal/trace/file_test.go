package trace

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenRefusesSpecialFiles: a FIFO as a trace used to hang every
// command and /dev/zero to read as an empty trace; each is refused at
// once, in one line, as is a directory, and a link to any of them.
func TestOpenRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.dvt")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	link := filepath.Join(dir, "link.dvt")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{fifo, "is a FIFO, not a trace"},
		{link, "is a FIFO, not a trace"},
		{"/dev/zero", "is a device, not a trace"},
		{"/dev/null", "is a device, not a trace"},
		{dir, "is a directory, not a trace"},
	} {
		done := make(chan error, 1)
		go func() {
			r, err := Open(tc.path)
			if err == nil {
				r.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Open(%s) = %v, want one line with %q", tc.path, err, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Open(%s) still blocked after 10s", tc.path)
		}
	}
}

// TestCreateFileRefusesLink: a writer refuses a symbolic link at the path
// and leaves what it points to alone; a link among the directories above
// is followed as any path is.
func TestCreateFileRefusesLink(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.txt")
	if err := os.WriteFile(keep, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{keep, filepath.Join(dir, "missing.txt")} {
		link := filepath.Join(dir, "run-1.dvt")
		os.Remove(link)
		if err := os.Symlink(target, link); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
		f, err := CreateFile(link)
		if err == nil {
			f.Close()
			t.Errorf("CreateFile wrote through a link to %s", target)
		} else if !strings.Contains(err.Error(), "is a symbolic link") || strings.Contains(err.Error(), "\n") {
			t.Errorf("CreateFile: %v, want one line saying it is a symbolic link", err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.txt")); err == nil {
		t.Errorf("a dangling link's target was created")
	}
	if data, _ := os.ReadFile(keep); string(data) != "keep me\n" {
		t.Errorf("the link's target now holds %q", data)
	}
	linkDir := filepath.Join(dir, "traces")
	if err := os.Symlink(t.TempDir(), linkDir); err != nil {
		t.Fatal(err)
	}
	f, err := CreateFile(filepath.Join(linkDir, "run-1.dvt"))
	if err != nil {
		t.Fatalf("a trace in a linked directory: %v", err)
	}
	f.Close()
}
