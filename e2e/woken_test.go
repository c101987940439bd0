package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestWokenByGoTrace runs testdata/ctxcancel, whose workers' last waits
// are ended by a context's cancel (a close inside package context, which
// divergo does not instrument), with Go's execution trace recorded beside
// the divergo trace. divergo wait must find it beside the trace and name
// main's cancel() line as what woke those waits, and the library function
// that closed the channel; with -gotrace off, the waits only say that no
// recorded operation ended them.
func TestWokenByGoTrace(t *testing.T) {
	t.Parallel()
	p := prepare(t, "ctxcancel", false)
	tr := filepath.Join(t.TempDir(), "run.dvt")
	execProg(t, p.dir, p.bin, nil, "DIVERGO_TRACE="+tr, "DIVERGO_RUNTIME_TRACE=1")
	cancelLine := "main.go:45"

	code, out, stderr := divergo(t, p.dir, "wait", "-steps", "2", tr)
	if code != 0 {
		t.Fatalf("divergo wait: status %d\n%s", code, stderr)
	}
	for _, want := range []string{
		"Go's execution trace of the run names who woke",
		"woken, says Go's execution trace: 3 by main at " + cancelLine + " (main), ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("divergo wait does not say %q:\n%s", want, out)
		}
	}

	code, js, stderr := divergo(t, p.dir, "wait", "-json", tr)
	if code != 0 {
		t.Fatalf("divergo wait -json: status %d\n%s", code, stderr)
	}
	var rep struct {
		GoTrace bool `json:"go_trace"`
		Woken   int
		Sites   []struct {
			Pos, Op string
			WokenBy []struct {
				Goroutine, Where, Func, Inner string
				Waits                         int
			} `json:"woken_by"`
		}
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range rep.Sites {
		if s.Op != "select" {
			continue
		}
		for _, w := range s.WokenBy {
			if w.Goroutine == "main" && w.Where == cancelLine && w.Func == "main" && strings.HasPrefix(w.Inner, "context.(*cancelCtx).cancel") && w.Waits == 3 {
				found = true
			}
		}
	}
	if !rep.GoTrace || rep.Woken < 3 || !found {
		t.Errorf("divergo wait -json: go_trace %v, woken %d, want the select's 3 waits woken by main at %s:\n%s", rep.GoTrace, rep.Woken, cancelLine, js)
	}

	code, off, stderr := divergo(t, p.dir, "wait", "-gotrace", "off", tr)
	if code != 0 {
		t.Fatalf("divergo wait -gotrace off: status %d\n%s", code, stderr)
	}
	if strings.Contains(off, "execution trace") || !strings.Contains(off, "no recorded operation ended it") {
		t.Errorf("divergo wait -gotrace off:\n%s", off)
	}

	code, _, stderr = divergo(t, p.dir, "wait", "-gotrace", tr, tr)
	if code != 2 || !strings.Contains(stderr, "execution trace") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
		t.Errorf("divergo wait -gotrace on a divergo trace: status %d, %q; want 2 and one line", code, stderr)
	}
}
