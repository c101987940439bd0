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
	stop := start(&b, "reading traces", func() float64 { return 0.42 }, 5*time.Millisecond)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(b.String(), "42%") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	out := b.String()
	if !strings.Contains(out, "\r\033[Kreading traces  42% (") {
		t.Errorf("no progress line in %q", out)
	}
	if !strings.HasSuffix(out, "\r\033[K") {
		t.Errorf("line not cleared at the end: %q", out)
	}
}

func TestNeverShowsDoneEarly(t *testing.T) {
	var b syncBuffer
	stop := start(&b, "x", func() float64 { return 7 }, 5*time.Millisecond)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(b.String(), "%") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	if out := b.String(); !strings.Contains(out, " 99%") || strings.Contains(out, "100%") {
		t.Errorf("fraction not clamped below 100%%: %q", out)
	}
}
