package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/divergo/divergo/waittime"
)

// TestHandlerRLock records testdata/handlerlock, no environment variable
// but the trace's path: handlers started by net/http wait in RLock for a
// refresher holding the write lock. The RLock is a site at the handler's
// line, and its waits are explained by the refresher's lines under the
// lock (the loop, the sleep), not by one step "not aligned: started
// outside instrumented code" of the refresher's whole time.
func TestHandlerRLock(t *testing.T) {
	t.Parallel()
	p := prepare(t, "handlerlock", false)
	ln := markedLines(t, "handlerlock", "// the handler's wait", "// the refresh's work", "// the refresh's wait")
	at := func(m string) string { return fmt.Sprintf("main.go:%d", ln[m]) }
	var rlock *waittime.Site
	for try := 0; try < 3 && rlock == nil; try++ {
		tr := filepath.Join(t.TempDir(), "run.dvt")
		execProg(t, p.dir, p.bin, nil, "DIVERGO_TRACE="+tr)
		code, js, stderr := divergo(t, p.dir, "wait", "-json", "-steps", "0", tr)
		if code != 0 {
			t.Fatalf("divergo wait -json: status %d\n%s", code, stderr)
		}
		var rep waittime.Report
		if err := json.Unmarshal([]byte(js), &rep); err != nil {
			t.Fatal(err)
		}
		for _, s := range rep.Sites {
			if s.Pos == at("// the handler's wait") && s.Op == "rlock" {
				rlock = s
			}
		}
	}
	if rlock == nil {
		t.Skip("no RLock waited in three runs")
	}
	var underLock, outside int64
	for _, c := range rlock.Classes {
		for _, st := range c.Steps {
			switch {
			case st.State == waittime.Outside.String():
				outside += st.Ns
			case st.Pos == at("// the refresh's work") || st.Pos == at("// the refresh's wait"):
				underLock += st.Ns
			}
		}
	}
	if underLock < rlock.TotalNs/2 || outside >= rlock.TotalNs/2 {
		t.Errorf("the RLock's %s of waiting: %s at the refresher's lines under the lock, %s not aligned; want most at the lines",
			waittime.FormatNs(rlock.TotalNs), waittime.FormatNs(underLock), waittime.FormatNs(outside))
	}
}
