package reexec

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
)

func TestDouble(t *testing.T) {
	if got := <-Double(4); got != 8 {
		t.Fatalf("Double(4) = %d, want 8", got)
	}
}

// TestPanicInChild runs this test again in a child process, where Double
// panics, and requires the child to have crashed with that panic.
func TestPanicInChild(t *testing.T) {
	if os.Getenv("REEXEC_CHILD") != "" {
		<-Double(-1)
		t.Fatal("Double(-1) returned")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestPanicInChild$", "-test.v")
	cmd.Env = append(os.Environ(), "REEXEC_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child passed; want a crash:\n%s", out)
	}
	if !bytes.Contains(out, []byte("reexec: negative input")) {
		t.Fatalf("the child did not crash with Double's panic:\n%s", out)
	}
}
