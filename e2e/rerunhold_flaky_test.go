package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRerunCannotHold: a test decided by the state a run leaves behind (a
// file its first run writes, which every later run finds) is flaky across
// divergo test's runs, and its rerun, replaying the failing run's
// schedule, passes every time: divergo test makes the rerun itself and
// says that it cannot hold the failure, where a test decided by its sync
// order (TestSendClose) says its rerun failed again.
func TestRerunCannotHold(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), []byte("module example.com/hold\n\ngo 1.26.8\n"))
	write(t, filepath.Join(dir, "hold_test.go"), []byte(`package hold

import (
	"os"
	"sync"
	"testing"
)

// TestFirstRun fails when it finds no mark of an earlier run.
func TestFirstRun(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	_, err := os.Stat("ran.mark")
	mu.Unlock()
	if err != nil {
		os.WriteFile("ran.mark", nil, 0o666)
		t.Fatal("no earlier run")
	}
}

// TestSendClose: whether the producer looked before the close decides.
func TestSendClose(t *testing.T) {
	var mu sync.Mutex
	closed := false
	late := make(chan bool)
	go func() {
		mu.Lock()
		l := closed
		mu.Unlock()
		late <- l
	}()
	mu.Lock()
	closed = true
	mu.Unlock()
	if <-late {
		t.Fatal("the producer looked after the close")
	}
}
`))
	status, stdout, stderr := divergo(t, dir, "test", "-n", "12", "-p", "1", "-json", ".")
	if status != 1 {
		t.Fatalf("divergo test: status %d, want 1\n%s\n%s", status, stdout, stderr)
	}
	var rep struct {
		Flaky []struct {
			Name       string
			RerunTries int `json:"rerun_tries"`
			RerunFails int `json:"rerun_fails"`
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("divergo test -json: %v\n%s", err, stdout)
	}
	got := map[string][2]int{}
	for _, f := range rep.Flaky {
		got[f.Name] = [2]int{f.RerunFails, f.RerunTries}
	}
	if r, ok := got["TestFirstRun"]; !ok || r != [2]int{0, 3} {
		t.Errorf("TestFirstRun: rerun failed again %d of %d tries (flaky %v), want 0 of 3\n%s", r[0], r[1], ok, stdout)
	}
	if r, ok := got["TestSendClose"]; ok && (r[1] != 3 || r[0] < 2) {
		t.Errorf("TestSendClose: rerun failed again %d of %d tries, want 2 or more of 3", r[0], r[1])
	}
	// The text report says it on the line after the rerun's.
	if err := os.Remove(filepath.Join(dir, "ran.mark")); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr = divergo(t, dir, "test", "-n", "4", "-p", "1", "-run", "TestFirstRun", ".")
	if status != 1 {
		t.Fatalf("divergo test: status %d, want 1\n%s\n%s", status, stdout, stderr)
	}
	_, after, _ := strings.Cut(stdout, "\nrerun one: ")
	if _, next, _ := strings.Cut(after, "\n"); !strings.HasPrefix(next, "the rerun cannot hold this failure: it passed in 3 of 3 tries") {
		t.Errorf("no line saying the rerun cannot hold the failure:\n%s", stdout)
	}
}
