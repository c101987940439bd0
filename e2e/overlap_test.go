package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOverlappingRuns runs divergo test -p 2 on a test that listens on a
// fixed port for 300 ms: two runs at once collide (bind: address already
// in use), which plain go test, running the binary once, never sees. The
// colliding run is made again alone, so that the test is not called flaky
// nor failing.
func TestOverlappingRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), []byte("module example.com/port\n\ngo 1.26.8\n"))
	write(t, filepath.Join(dir, "srv_test.go"), []byte(`package srv

import (
	"net"
	"testing"
	"time"
)

func TestServe(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:18457")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	time.Sleep(300 * time.Millisecond)
}
`))
	status, stdout, stderr := divergo(t, dir, "test", "-n", "4", "-p", "2", "./...")
	if status != 0 || !strings.Contains(stdout, "no flaky test") || strings.Contains(stdout, "failed in every run") {
		t.Fatalf("divergo test: status %d, want 0 with no test flaky or failing\n%s\n%s", status, stdout, stderr)
	}
	if !strings.Contains(stdout, "made again alone") {
		t.Logf("no run collided this time:\n%s", stdout)
	}
}
