package runtime

import (
	"bytes"
	"os"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestDeadlockReportedWithSamples: a worker blocked on a mutex main holds,
// main on a channel nobody sends on, recorded with divergo's CPU samples
// (the default): their sampler pauses once every recorded goroutine is blocked, so
// Go still reports the deadlock (the run hung with it running), and the
// samples so far are on disk beside the trace.
func TestDeadlockReportedWithSamples(t *testing.T) {
	cmd, path := child(t, "stuck")
	useNonRaceChild(t, cmd)
	wantDeadlockReport(t, cmd)
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
