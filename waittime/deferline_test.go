package waittime

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDeferLine: a frame at a function's closing brace or at a return
// statement whose callee a defer of that function calls is at the defer's
// line; a defer of a function literal inside is the literal's; two defers
// of one name are no guess.
func TestDeferLine(t *testing.T) {
	dir := t.TempDir()
	src := `package main

import "net/http/httptest"

func serve(srv *httptest.Server, fail bool) error {
	defer srv.Close()
	if fail {
		return nil
	}
	go func() {
		defer srv.CloseClientConnections()
	}()
	return nil
}

func twice(a, b *httptest.Server) {
	defer a.Close()
	defer b.Close()
}
`
	if err := os.MkdirAll(filepath.Join(dir, "cmd"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cmd", "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	d := newDeferLines(dir)
	const closeFn = "net/http/httptest.(*Server).Close"
	for _, c := range []struct {
		line   int
		callee string
		want   int
	}{
		{14, closeFn, 6}, // the closing brace
		{8, closeFn, 6},  // return nil in the if
		{13, closeFn, 6}, // the last return
		{7, closeFn, 0},  // no exit there
		{12, "net/http/httptest.(*Server).CloseClientConnections", 11}, // the literal's brace
		{14, "net/http/httptest.(*Server).CloseClientConnections", 0},  // not serve's defer
		{19, closeFn, 0}, // two defers of Close
		{14, "example.com/m.serve.func1", 0},
	} {
		if got := d.line("cmd/main.go", c.line, c.callee); got != c.want {
			t.Errorf("line %d, callee %s: defer at %d, want %d", c.line, c.callee, got, c.want)
		}
	}
	if got := d.line("missing.go", 14, closeFn); got != 0 {
		t.Errorf("a file that cannot be read: %d", got)
	}
	var none *deferLines
	if got := none.line("cmd/main.go", 14, closeFn); got != 0 {
		t.Errorf("no sources: %d", got)
	}
}
