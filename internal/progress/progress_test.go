package progress

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the reporting goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestQuietWhenNotATerminal(t *testing.T) {
	var b bytes.Buffer
	stop := Start(&b, "reading", func() float64 { return 0.5 })
	time.Sleep(2 * interval)
	stop()
	stop() // twice is fine
	if b.Len() != 0 {
		t.Errorf("wrote %q to a buffer", b.String())
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	if IsTerminal(f) {
		t.Error("a regular file is taken for a terminal")
	}
}

func TestDrawsAndClears(t *testing.T) {
	var b syncBuffer
	stop := start(&b, "reading traces", func() float64 { return 0.42 }, 5*time.Millisecond, true)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(b.String(), "42%") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	out := b.String()
	if !strings.Contains(out, "\rreading traces  42% (") {
		t.Errorf("no progress line in %q", out)
	}
	if strings.Contains(out, "\033") || strings.Contains(out, "\n") {
		t.Errorf("escape sequence or new line on a terminal: %q", out)
	}
	// Cleared with spaces as wide as the last line, the cursor at its start.
	last := out[strings.LastIndex(out, "reading traces"):]
	width := len(last[:strings.IndexByte(last, '\r')])
	if want := "\r" + strings.Repeat(" ", width) + "\r"; !strings.HasSuffix(out, want) {
		t.Errorf("line not cleared at the end: %q", out)
	}
}

func TestNeverShowsDoneEarly(t *testing.T) {
	var b syncBuffer
	stop := start(&b, "x", func() float64 { return 7 }, 5*time.Millisecond, true)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(b.String(), "%") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	if out := b.String(); !strings.Contains(out, " 99%") || strings.Contains(out, "100%") {
		t.Errorf("fraction not clamped below 100%%: %q", out)
	}
}

func TestPlainLinesWhenNotATerminal(t *testing.T) {
	var b syncBuffer
	stop := start(&b, "divergo diff: reading traces", nil, 5*time.Millisecond, false)
	deadline := time.Now().Add(5 * time.Second)
	for strings.Count(b.String(), "\n") < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	out := b.String()
	if strings.ContainsAny(out, "\r\033") {
		t.Errorf("carriage return or escape to a file or pipe: %q", out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) < 2 {
		t.Fatalf("want a line now and then, got %q", out)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "divergo diff: reading traces (") || !strings.HasSuffix(l, ")") {
			t.Errorf("line %q", l)
		}
	}
}

func TestRedrawPadsAShorterLine(t *testing.T) {
	var b bytes.Buffer
	var l line
	l.draw(&b, "run 10 of 10 (12s)")
	l.draw(&b, "run 9 (3s)")
	l.clear(&b)
	want := "\rrun 10 of 10 (12s)" + "\rrun 9 (3s)" + strings.Repeat(" ", 8) + "\rrun 9 (3s)" + "\r" + strings.Repeat(" ", 10) + "\r"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
	l.clear(&b) // nothing drawn since: nothing written
	if b.String() != want {
		t.Errorf("cleared twice: %q", b.String())
	}
}

func TestRunsOnATerminal(t *testing.T) {
	var b bytes.Buffer
	r := &Runs{w: &b, label: "divergo check", n: 3, redraw: true}
	for k := 1; k <= 3; k++ {
		r.Done(k)
	}
	r.Stop()
	out := b.String()
	for k := 1; k <= 3; k++ {
		if !strings.Contains(out, "\rdivergo check: run "+string(rune('0'+k))+" of 3") {
			t.Errorf("run %d not drawn: %q", k, out)
		}
	}
	if strings.Contains(out, "\n") || !strings.HasSuffix(out, "\r") {
		t.Errorf("the line is not redrawn in place and cleared: %q", out)
	}
}

func TestRunsToAPipe(t *testing.T) {
	// Quick runs: nothing at all.
	var b bytes.Buffer
	r := NewRuns(&b, "divergo check", 3, true)
	for k := 1; k <= 3; k++ {
		r.Done(k)
	}
	r.Stop()
	if b.Len() != 0 {
		t.Errorf("quick runs wrote %q", b.String())
	}
	// Slow runs: a line when enough time passed, and one for the last.
	b.Reset()
	r = NewRuns(&b, "divergo check", 4, true)
	r.every = time.Hour
	r.Done(1)
	r.every = 0 // as if the runs had taken long
	r.Done(2)
	r.every = time.Hour
	r.Done(3)
	r.Done(4)
	r.Stop()
	out := b.String()
	if strings.ContainsAny(out, "\r\033") {
		t.Errorf("carriage return or escape to a pipe: %q", out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "divergo check: run 2 of 4 (") || !strings.HasPrefix(lines[1], "divergo check: run 4 of 4 (") {
		t.Errorf("want lines for runs 2 and 4, got %q", out)
	}
}

func TestRunsBesideTheProgramsOutput(t *testing.T) {
	// The program writes to the terminal too (check -v): never redrawn.
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	if r := NewRuns(f, "x", 2, false); r.redraw {
		t.Error("redrawn beside the program's output")
	}
	if r := NewRuns(f, "x", 2, true); r.redraw {
		t.Error("redrawn in a file")
	}
}

func TestLongLineFits(t *testing.T) {
	var b bytes.Buffer
	var l line
	long := "divergo wait: analysing " + strings.Repeat("/very/long/directory", 10) + "/run-1.dvt  42% (3s)"
	l.draw(&b, long)
	got := strings.TrimPrefix(b.String(), "\r")
	if n := len([]rune(got)); n != maxWidth || !strings.HasPrefix(got, "divergo wait: analysing ") || !strings.HasSuffix(got, "/run-1.dvt  42% (3s)") {
		t.Errorf("drew %d runes, %q; want %d, the label's start and the end", n, got, maxWidth)
	}
}
