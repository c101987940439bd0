package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
	"github.com/divergo/divergo/waittime"
	"github.com/google/pprof/profile"
)

// TestHashLines: a goroutine runs "defer wg.Done()" on line 17 and hashes
// a 64 MB buffer on each of lines 18 and 19, one block of the trace, while
// main waits for it. With the CPU samples the runtime records beside the
// trace by default, divergo wait gives lines 18 and 19 their shares of
// main's wait and line 17 none, in the text, the JSON and the pprof
// profile (without them it was "+ main.go:17 ... 87.8 ms", the block's
// first line, and 18 and 19 never appeared). Recorded without them
// (DIVERGO_CPUPROFILE=off), the block's time stays at its first line: the
// samples are what moves it.
func TestHashLines(t *testing.T) {
	t.Parallel()
	p := prepare(t, "hashlines", false)
	tmp := t.TempDir()
	record := func(name string, extra ...string) string {
		tr := filepath.Join(tmp, name)
		cmd := exec.Command(p.bin)
		cmd.Dir, cmd.Env = p.dir, env(append(extra, "DIVERGO_TRACE="+tr)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("running: %v\n%s", err, out)
		}
		return tr
	}
	tr := record("run-1.dvt")
	if _, err := os.Stat(trace.CPUProfileBeside(tr)); err != nil {
		t.Fatalf("no CPU samples beside the trace: %v", err)
	}
	lines := hashWaitLines(t, p.dir, tr)
	total := lines[0]
	for _, l := range []int{18, 19} {
		if share := float64(lines[l]) / float64(total); share < 0.25 {
			t.Errorf("line %d explains %.0f%% of main's wait (%s of %s), want 25%% or more",
				l, 100*share, waittime.FormatNs(lines[l]), waittime.FormatNs(total))
		}
	}
	if ns, ok := lines[17]; ok {
		t.Errorf("line 17, defer wg.Done(), explains %s of main's wait, want no step", waittime.FormatNs(ns))
	}
	status, text, errs := divergo(t, p.dir, "wait", tr)
	if status != 0 {
		t.Fatalf("divergo wait: status %d\n%s", status, errs)
	}
	for _, want := range []string{"+ main.go:18 in main/hashTwice$1@main.go:16#1", "+ main.go:19 in main/hashTwice$1@main.go:16#1"} {
		if !strings.Contains(text, want) {
			t.Errorf("divergo wait does not say %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "main.go:17") {
		t.Errorf("divergo wait names line 17:\n%s", text)
	}
	prof := filepath.Join(tmp, "wait.pprof")
	if status, _, errs := divergo(t, p.dir, "wait", "-pprof", prof, tr); status != 0 {
		t.Fatalf("divergo wait -pprof: status %d\n%s", status, errs)
	}
	byLine := profileLines(t, prof)
	if byLine[18] <= 0 || byLine[19] <= 0 || byLine[17] != 0 {
		t.Errorf("profile: line 17 %s, 18 %s, 19 %s; want none, some, some",
			waittime.FormatNs(byLine[17]), waittime.FormatNs(byLine[18]), waittime.FormatNs(byLine[19]))
	}

	off := record("off.dvt", "DIVERGO_CPUPROFILE=off")
	if _, err := os.Stat(trace.CPUProfileBeside(off)); err == nil {
		t.Errorf("a run with DIVERGO_CPUPROFILE=off wrote CPU samples")
	}
	lines = hashWaitLines(t, p.dir, off)
	if share := float64(lines[17]) / float64(lines[0]); share < 0.9 {
		t.Errorf("without samples line 17 explains %.0f%% of main's wait, want the block's time there", 100*share)
	}
}

// hashWaitLines is the running time divergo wait's JSON gives each line of
// main.go in the explanation of main's wg.Wait, and that wait's total at
// line 0.
func hashWaitLines(t *testing.T, dir, tr string) map[int]int64 {
	t.Helper()
	status, js, errs := divergo(t, dir, "wait", "-json", "-steps", "0", tr)
	if status != 0 {
		t.Fatalf("divergo wait -json: status %d\n%s", status, errs)
	}
	var rep waittime.Report
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Sites {
		if s.Op != "wg.wait" {
			continue
		}
		out := map[int]int64{0: s.TotalNs}
		for _, c := range s.Classes {
			for _, st := range c.Steps {
				file, line, _ := strings.Cut(st.Pos, ":")
				n, err := strconv.Atoi(line)
				if err != nil || filepath.Base(file) != "main.go" || st.State != waittime.Running.String() {
					continue
				}
				out[n] += st.Ns
			}
		}
		return out
	}
	t.Fatalf("no wg.wait site:\n%s", js)
	return nil
}

// profileLines sums a waiting-time profile's values by the line of their
// leaf.
func profileLines(t *testing.T, path string) map[int]int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]int64{}
	for _, s := range p.Sample {
		if ls := s.Location[0].Line; len(ls) > 0 {
			out[int(ls[0].Line)] += s.Value[0]
		}
	}
	return out
}
