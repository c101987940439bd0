//go:build linux

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArenaSetAside gives a trace an arena that is not one: show reads the
// trace as it is, with status 0, says in one line that the arena could not
// be read, and the arena is kept aside so that the next read says the
// same without trying again.
func TestArenaSetAside(t *testing.T) {
	data, err := os.ReadFile(showTrace(t))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "t.dvt")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p+".live", bytes.Repeat([]byte{0xff}, 8192), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		status, out, stderr := runCmd(t, "show", p)
		if status != 0 || !strings.Contains(out, "trace:      complete") {
			t.Fatalf("show: status %d\n%s%s", status, out, stderr)
		}
		if want := "t.dvt.live.bad holds what the run had not written, and could not be read"; !strings.Contains(stderr, want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("show's stderr does not say %q in one line:\n%s", want, stderr)
		}
		if _, err := os.Stat(p + ".live"); !os.IsNotExist(err) {
			t.Errorf("the arena is still beside the trace: %v", err)
		}
	}
}
