package e2e

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestShowDiffNameTheEnding records testdata/endings ending by main's
// return, by os.Exit(3) from a goroutine, by a goroutine's panic, by Go's
// fatal errors (a deadlock, concurrent map writes) and by SIGKILL, and
// checks that show (text and -json) and diff (text and
// -json) say how each run ended.
func TestShowDiffNameTheEnding(t *testing.T) {
	t.Parallel()
	p := prepare(t, "endings", false)
	dir := t.TempDir()
	traces := map[string]string{}
	for _, mode := range []string{"return", "exit", "panic", "deadlock", "mapwrites"} {
		traces[mode] = filepath.Join(dir, mode+".dvt")
		runEnding(t, p, traces[mode], mode)
	}
	traces["kill"] = filepath.Join(dir, "kill.dvt")
	cmd := exec.Command(p.bin, "wait")
	cmd.Dir, cmd.Env = p.dir, env("DIVERGO_TRACE="+traces["kill"])
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for sc := bufio.NewScanner(pipe); sc.Scan() && sc.Text() != "ready"; {
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	for _, c := range []struct{ mode, text, kind string }{
		{"return", "ended:      main returned\n", "return"},
		{"exit", "ended:      os.Exit(3) in main/", "exit"},
		{"panic", "ended:      panic in main/", "panic"},
		{"kill", "ended:      killed (no end record", "killed"},
		{"deadlock", "ended:      fatal error: all goroutines are asleep - deadlock!\n", "fatal"},
		{"mapwrites", "ended:      fatal error: concurrent map access\n", "fatal"},
	} {
		code, out, stderr := divergo(t, dir, "show", traces[c.mode])
		if code != 0 || !strings.Contains(out, c.text) {
			t.Errorf("show %s: status %d, want a line %q:\n%s%s", c.mode, code, c.text, out, stderr)
		}
		code, out, stderr = divergo(t, dir, "show", "-json", traces[c.mode])
		var js struct {
			Truncated bool `json:"truncated"`
			Ending    struct {
				Kind string `json:"kind"`
				Code int    `json:"code"`
			} `json:"ending"`
		}
		if err := json.Unmarshal([]byte(out), &js); code != 0 || err != nil {
			t.Fatalf("show -json %s: status %d, %v\n%s", c.mode, code, err, stderr)
		}
		if js.Ending.Kind != c.kind || js.Truncated {
			t.Errorf("show -json %s: ending %+v, truncated %v; want %s, complete", c.mode, js.Ending, js.Truncated, c.kind)
		}
		if c.mode == "exit" && js.Ending.Code != 3 {
			t.Errorf("show -json exit: code %d, want 3", js.Ending.Code)
		}
	}

	_, out, stderr := divergo(t, dir, "diff", traces["return"], traces["exit"])
	// In the header: after the line on inputs (the two runs' arguments
	// differ), before the summary.
	want := "the runs ended differently: return.dvt: main returned; exit.dvt: os.Exit(3)\n"
	if i, j := strings.Index(out, want), strings.Index(out, "took different paths"); i < 0 || j < i {
		t.Errorf("diff's header does not say %q before its summary:\n%s%s", want, out, stderr)
	}
	_, out, stderr = divergo(t, dir, "diff", "-json", traces["panic"], traces["kill"])
	var js struct {
		Endings struct {
			A struct{ Kind string } `json:"a"`
			B struct{ Kind string } `json:"b"`
		} `json:"endings"`
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil {
		t.Fatalf("diff -json: %v\n%s", err, stderr)
	}
	if js.Endings.A.Kind != "panic" || js.Endings.B.Kind != "killed" {
		t.Errorf("diff -json: endings %+v, want panic and killed", js.Endings)
	}
}
