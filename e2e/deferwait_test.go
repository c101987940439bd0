package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
)

// TestDeferredWaitLine records testdata/deferwait, whose run closes an
// httptest server with "defer srv.Close()", with Go's execution trace
// beside the divergo trace: the waits inside Close are a library site at
// the defer statement's line. Go's stack puts the call at the function's
// return; divergo wait reads the program's sources to find the defer.
func TestDeferredWaitLine(t *testing.T) {
	t.Parallel()
	p := prepare(t, "deferwait", false)
	tr := filepath.Join(t.TempDir(), "run.dvt")
	execProg(t, p.dir, p.bin, nil, "DIVERGO_TRACE="+tr, "DIVERGO_RUNTIME_TRACE=1")
	ln := markedLines(t, "deferwait", "// the deferred wait", "return nil")
	code, js, stderr := divergo(t, p.dir, "wait", "-json", tr)
	if code != 0 {
		t.Fatalf("divergo wait -json: status %d\n%s", code, stderr)
	}
	var rep struct{ Sites []libSite }
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("main.go:%d", ln["// the deferred wait"])
	var at []string
	for _, s := range rep.Sites {
		if s.Library && s.Op == "httptest.(*Server).Close" {
			at = append(at, s.Pos)
		}
	}
	if len(at) != 1 || at[0] != want {
		t.Errorf("httptest.(*Server).Close's waits are at %v, want %s only (the return is line %d)\n%s", at, want, ln["return nil"], js)
	}
}
