package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/waittime"
	"github.com/google/pprof/profile"
)

// TestOwnCPUProfile: testdata/ownprofile starts Go's CPU profiler itself
// around all its work. Recorded with divergo's CPU samples (the
// default), it prints and exits as its plain build does,
// its own profile holds its samples, and divergo wait, reading the samples
// beside the trace, puts main's wait at the lines of spin, which ran only
// inside the program's profile: both saw the samples.
func TestOwnCPUProfile(t *testing.T) {
	t.Parallel()
	p := prepare(t, "ownprofile", false)
	tmp := t.TempDir()
	plain := filepath.Join(tmp, "plain")
	goCmd(t, p.dir, "build", "-o", plain, ".")
	plainProf, recProf := filepath.Join(tmp, "plain.pprof"), filepath.Join(tmp, "rec.pprof")
	want := execProg(t, p.dir, plain, []string{"-cpuprofile", plainProf})
	tr := filepath.Join(tmp, "run.dvt")
	got := execProg(t, p.dir, p.bin, []string{"-cpuprofile", recProf}, "DIVERGO_TRACE="+tr)
	if got != want || !strings.HasPrefix(got, "exit 0\n") {
		t.Fatalf("recorded:\n%s\nplain:\n%s", got, want)
	}
	for _, f := range []string{plainProf, recProf} {
		if n := spinSamples(t, f); n == 0 {
			t.Errorf("%s: no sample in spin", f)
		}
	}
	code, js, stderr := divergo(t, p.dir, "wait", "-json", "-steps", "0", tr)
	if code != 0 || stderr != "" {
		t.Fatalf("divergo wait: status %d\n%s", code, stderr)
	}
	var rep waittime.Report
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	var inSpin, total int64
	for _, s := range rep.Sites {
		if s.Op != "wg.wait" {
			continue
		}
		total += s.TotalNs
		for _, c := range s.Classes {
			for _, st := range c.Steps {
				if strings.HasSuffix(st.Func, ".spin") {
					inSpin += st.Ns
				}
			}
		}
	}
	if total == 0 || inSpin < total/2 {
		t.Errorf("spin explains %s of main's wg.Wait of %s, want most: divergo did not get the samples of the program's profile\n%s",
			waittime.FormatNs(inSpin), waittime.FormatNs(total), js)
	}
}

// spinSamples counts a CPU profile's samples with spin on the stack.
func spinSamples(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	n := 0
	for _, s := range p.Sample {
		for _, l := range s.Location {
			for _, ln := range l.Line {
				if ln.Function != nil && strings.HasSuffix(ln.Function.Name, ".spin") {
					n++
				}
			}
		}
	}
	return n
}
