package waittime

import (
	"math"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestProfileProgram runs testdata/forkjoin, writes the text report and the
// profile with divergo wait, and reads the profile with go tool pprof: the
// nodes account for the text's waiting time within 1%, and -top -lines
// lists the lines of the text's first class in its order.
func TestProfileProgram(t *testing.T) {
	bin, tr := recordProgram(t, "forkjoin")
	prof := filepath.Join(t.TempDir(), "wait.pprof")
	out, err := exec.Command(bin, "wait", "-steps", "0", "-pprof", prof, tr).CombinedOutput()
	if err != nil {
		t.Fatalf("divergo wait: %v\n%s", err, out)
	}
	text := string(out)
	total, ok := parseDuration(strings.Fields(text)[0] + strings.Fields(text)[1])
	if !ok {
		t.Fatalf("no total on the first line of:\n%s", text)
	}
	top, err := exec.Command("go", "tool", "pprof", "-top", "-lines", "-nodefraction=0", "-nodecount=1000", prof).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof: %v\n%s", err, top)
	}
	m := regexp.MustCompile(`Showing nodes accounting for (\S+),`).FindStringSubmatch(string(top))
	if m == nil {
		t.Fatalf("pprof -top says nothing of its total:\n%s", top)
	}
	ptotal, ok := parseDuration(m[1])
	if !ok || math.Abs(ptotal-total) > 0.01*total {
		t.Errorf("pprof accounts for %s, the text for %.0f ns", m[1], total)
	}

	// The lines of the first class, in order, against pprof's lines with
	// time of their own.
	var textLines []string
	inClass := false
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "   class 1:"):
			inClass = true
		case strings.HasPrefix(l, "   class "), l == "" && inClass:
			inClass = false
		case inClass:
			if f := strings.Fields(l); len(f) > 1 && strings.Contains(f[1], ".go:") {
				textLines = append(textLines, f[1])
			}
		}
	}
	var pprofLines []string
	row := regexp.MustCompile(`^\s*(-?[0-9.]+\S*)\s+\S+\s+\S+\s+\S+\s+\S+\s+.*\s(\S+\.go:\d+)$`)
	for _, l := range strings.Split(string(top), "\n") {
		if r := row.FindStringSubmatch(l); r != nil {
			if v, ok := parseDuration(r[1]); ok && v != 0 {
				pprofLines = append(pprofLines, filepath.Base(r[2]))
			}
		}
	}
	if len(textLines) == 0 || !slices.Equal(textLines, pprofLines) {
		t.Errorf("text's first class lists %v, pprof -top -lines %v\ntext:\n%s\npprof:\n%s", textLines, pprofLines, text, top)
	}
}

// parseDuration reads the durations of the text report ("1.25 s", "180
// ms") and of pprof ("1.25s", "-180.50ms", "3us") into nanoseconds.
func parseDuration(s string) (float64, bool) {
	s = strings.ReplaceAll(s, " ", "")
	units := []struct {
		suffix string
		ns     float64
	}{{"ns", 1}, {"µs", 1e3}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}}
	for _, u := range units {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			f, err := strconv.ParseFloat(v, 64)
			return f * u.ns, err == nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}
