package load

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestElfBuildID: the ID read from the test binary's note is the one go
// tool buildid reads, and a file that is not ELF has none (divergo then
// hashes the whole file).
func TestElfBuildID(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	got := elfBuildID(self)
	out, err := exec.Command("go", "tool", "buildid", self).Output()
	if err != nil {
		t.Fatalf("go tool buildid: %v", err)
	}
	if want := strings.TrimSpace(string(out)); got != want {
		if got == "" && !strings.HasPrefix(string(readPrefix(t, self, 4)), "\x7fELF") {
			return // not ELF here: the whole file is hashed
		}
		t.Errorf("build ID %q, want %q", got, want)
	}
	if id := elfBuildID("load.go"); id != "" {
		t.Errorf("a Go source file has build ID %q", id)
	}
}

func readPrefix(t *testing.T, path string, n int) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b[:min(n, len(b))]
}
