package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestBlockedLeak runs testdata/leak, whose main returns while three
// goroutines are blocked for ever (a send nobody receives, a lock main
// holds, a WaitGroup nobody marks done). wait and show must say it leaked
// and name each blocked statement and what last operated on its object.
func TestBlockedLeak(t *testing.T) {
	t.Parallel()
	p := prepare(t, "leak", false)
	tr := filepath.Join(t.TempDir(), "run.dvt")
	cmd := exec.Command(p.bin)
	cmd.Dir, cmd.Env = p.dir, env("DIVERGO_TRACE="+tr)
	if out, err := cmd.CombinedOutput(); err != nil || string(out) != "main returns\n" {
		t.Fatalf("running: %v\n%s", err, out)
	}
	goldenFile(t, "blocked-leak.golden", blockedReports(t, p.dir, tr, "leak"))
}

// TestBlockedDeadlock runs testdata/deadlock, a lock-order deadlock, plain
// and recorded: both must die of Go's fatal "all goroutines are asleep"
// with exit status 2 (the recorder catches no signal, which would keep Go
// from seeing the deadlock). No Go code runs after the report: the runtime
// wrote a checkpoint when the last goroutine blocked, and the reports must
// say deadlock and name every blocked goroutine.
func TestBlockedDeadlock(t *testing.T) {
	t.Parallel()
	p := prepare(t, "deadlock", false)
	plain := filepath.Join(t.TempDir(), "plain")
	goCmd(t, p.dir, "build", "-o", plain, ".")
	tr := filepath.Join(t.TempDir(), "run.dvt")
	for _, bin := range []string{plain, p.bin} {
		cmd := exec.Command(bin)
		cmd.Dir, cmd.Env = p.dir, env("DIVERGO_TRACE="+tr)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
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
			t.Fatalf("%s did not end", filepath.Base(bin))
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || stdout.String() != "deadlocked\n" ||
			!strings.Contains(stderr.String(), "fatal error: all goroutines are asleep - deadlock!") {
			t.Fatalf("%s: %v, said %q, want Go's deadlock report and exit status 2; stderr:\n%s", filepath.Base(bin), err, stdout.String(), stderr.Bytes())
		}
	}
	goldenFile(t, "blocked-deadlock.golden", blockedReports(t, p.dir, tr, "deadlock"))
}

// blockedReports runs wait (text and JSON) and show on a trace and returns
// their blocked sections with addresses and times made stable: objects
// become obj1, obj2 ... in order of appearance, durations T.
func blockedReports(t *testing.T, dir, tr, verdict string) string {
	t.Helper()
	code, wait, stderr := divergo(t, dir, "wait", tr)
	if code != 0 {
		t.Fatalf("divergo wait: status %d\n%s", code, stderr)
	}
	code, show, stderr := divergo(t, dir, "show", tr)
	if code != 0 {
		t.Fatalf("divergo show: status %d\n%s", code, stderr)
	}
	code, js, stderr := divergo(t, dir, "wait", "-json", tr)
	if code != 0 {
		t.Fatalf("divergo wait -json: status %d\n%s", code, stderr)
	}
	var rep struct {
		Blocked struct {
			Verdict    string
			Goroutines []struct {
				Goroutine, Pos, Op string
				Object             uint64
				SinceNs            int64                                 `json:"since_ns"`
				SeenNs             int64                                 `json:"seen_ns"`
				LastOps            []struct{ Goroutine, Op, Pos string } `json:"last_ops"`
			}
		}
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatalf("divergo wait -json: %v\n%s", err, js)
	}
	if rep.Blocked.Verdict != verdict {
		t.Errorf("wait -json: verdict %q, want %q", rep.Blocked.Verdict, verdict)
	}
	var jsonLines strings.Builder
	for _, g := range rep.Blocked.Goroutines {
		if g.SeenNs < g.SinceNs || g.SinceNs <= 0 {
			t.Errorf("%s blocked since %d, seen at %d", g.Goroutine, g.SinceNs, g.SeenNs)
		}
		fmt.Fprintf(&jsonLines, "%s %s %s object:%v", g.Goroutine, g.Op, g.Pos, g.Object != 0)
		for _, o := range g.LastOps {
			fmt.Fprintf(&jsonLines, " | %s %s %s", o.Goroutine, o.Op, o.Pos)
		}
		jsonLines.WriteString("\n")
	}
	// The blocked section comes first in wait, after the header in show.
	waitPart, _, _ := strings.Cut(wait, "\n\n")
	_, showPart, _ := strings.Cut(show, "goroutines: ")
	_, showPart, _ = strings.Cut(showPart, "\n\n")
	showPart, _, _ = strings.Cut(showPart, "\n\n")
	if waitPart != showPart {
		t.Errorf("wait and show list different blocked goroutines:\n--- wait\n%s\n--- show\n%s", waitPart, showPart)
	}
	return "divergo wait:\n" + stable(waitPart) + "\n\ndivergo wait -json:\n" + jsonLines.String()
}

var (
	addrRE = regexp.MustCompile(`0x[0-9a-f]+`)
	timeRE = regexp.MustCompile(`-?[0-9]+(\.[0-9]+)? (ns|µs|ms|s)\b`)
)

func stable(s string) string {
	names := map[string]string{}
	s = addrRE.ReplaceAllStringFunc(s, func(a string) string {
		if names[a] == "" {
			names[a] = fmt.Sprintf("obj%d", len(names)+1)
		}
		return names[a]
	})
	return timeRE.ReplaceAllString(s, "T")
}
