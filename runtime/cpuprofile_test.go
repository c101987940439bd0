package runtime

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/divergo/divergo/internal/trace"
)

// TestDeadlockReportedWithSamples: a worker blocked on a mutex main holds,
// main on a channel nobody sends on, recorded with divergo's CPU samples
// on: their profiler pauses once every recorded goroutine is blocked, so
// Go still reports the deadlock (the run hung with it running), and the
// samples so far are on disk beside the trace.
func TestDeadlockReportedWithSamples(t *testing.T) {
	cmd, path := child(t, "stuck")
	useNonRaceChild(t, cmd)
	cmd.Env = append(cmd.Env, "DIVERGO_CPUPROFILE=on")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatal("the deadlocked program hung")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "all goroutines are asleep - deadlock!") {
		t.Fatalf("child: %v, stderr:\n%s", err, stderr.String())
	}
	data, err := os.ReadFile(trace.CPUProfileBeside(path))
	if err != nil || !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		t.Errorf("CPU samples beside the trace: %d bytes, %v; want a gzipped profile", len(data), err)
	}
}

func TestTestCPUProfileFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-test.cpuprofile=cpu.out"}, true},
		{[]string{"-test.v", "--test.cpuprofile", "cpu.out"}, true},
		{[]string{"-test.cpuprofilerate=1"}, false},
		{[]string{"--", "-test.cpuprofile=x"}, false},
		{nil, false},
	} {
		if got := testCPUProfile(c.args); got != c.want {
			t.Errorf("%q: %v, want %v", c.args, got, c.want)
		}
	}
}
