package waittime

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

const ms = int64(1e6)

// expansionTrace is Figure 4 of "Expanding waiting time": process 0 (a)
// releases process 1 (b), which releases process 2 (c), which releases
// process 0. Durations in ms: A1 100, A2 30, B1 40, B3 50, C1 30, C3 50.
func expansionTrace() *fakeTrace {
	b := newBuilder("fig4.go")
	mainB := b.block("main", 3, 4)
	a1, aSend, a2, aRecv := b.block("a", 10, 10), b.block("a", 11, 1), b.block("a", 12, 10), b.block("a", 13, 1)
	b1, bRecv, b3, bSend := b.block("b", 20, 10), b.block("b", 21, 1), b.block("b", 22, 10), b.block("b", 23, 1)
	c1, cRecv, c3, cSend := b.block("c", 30, 10), b.block("c", 31, 1), b.block("c", 32, 10), b.block("c", 33, 1)
	const ch1, ch2, ch3 = 0x100, 0x200, 0x300

	m := b.goroutine(1, 0, 0, 0, 0)
	for i, id := range []uint64{2, 3, 4} {
		m.spawn(mainB, id, uint32(i+1))
	}
	m.done()

	a := b.goroutine(2, 1, mainB, 1, 0)
	a.run(a1, 100*ms)                        // A1
	a.op(aSend, trace.OpSend, ch1)           // releases b at 100
	a.run(a2, 30*ms)                         // A2
	a.wait(aRecv, trace.OpRecv, ch3, 200*ms) // A3: 70 ms
	a.done()

	bg := b.goroutine(3, 1, mainB, 2, 0)
	bg.run(b1, 40*ms)                         // B1
	bg.wait(bRecv, trace.OpRecv, ch1, 100*ms) // B2: 60 ms
	bg.run(b3, 50*ms)                         // B3
	bg.op(bSend, trace.OpSend, ch2)           // releases c at 150
	bg.done()

	c := b.goroutine(4, 1, mainB, 3, 0)
	c.run(c1, 30*ms)                         // C1
	c.wait(cRecv, trace.OpRecv, ch2, 150*ms) // C2: 120 ms
	c.run(c3, 50*ms)                         // C3
	c.op(cSend, trace.OpSend, ch3)           // releases a at 200
	c.done()
	return b.trace()
}

// explanation renders a class's steps as "+line:ms" terms in order of line.
func explanation(c *Class) string {
	var terms []string
	for _, st := range c.Steps {
		line := st.Pos[strings.LastIndexByte(st.Pos, ':')+1:]
		sign := "+"
		if st.Ns < 0 {
			sign = "-"
		}
		terms = append(terms, sign+line+":"+FormatNs(abs(st.Ns)))
	}
	return strings.Join(terms, " ")
}

func TestExpansionExample(t *testing.T) {
	rep, err := Analyze(expansionTrace(), Options{KeepWaits: true})
	if err != nil {
		t.Fatal(err)
	}
	// Each site has one wait and one class; the steps come largest first.
	want := map[string]string{
		"fig4.go:21": "+10:100 ms -20:40.0 ms",              // B2 = A1 - B1
		"fig4.go:31": "+10:100 ms +22:50.0 ms -30:30.0 ms",  // C2 = A1 + B3 - C1
		"fig4.go:13": "+22:50.0 ms +32:50.0 ms -12:30.0 ms", // A3 = B3 + C3 - A2, A1 removed
	}
	if len(rep.Sites) != 3 {
		t.Fatalf("got %d sites, want 3", len(rep.Sites))
	}
	for _, s := range rep.Sites {
		if len(s.Classes) != 1 {
			t.Fatalf("site %s: %d classes, want 1", s.Pos, len(s.Classes))
		}
		if got := explanation(s.Classes[0]); got != want[s.Pos] {
			t.Errorf("site %s explained as %q, want %q", s.Pos, got, want[s.Pos])
		}
		if e := s.Classes[0].Explained; e < 0.999 || e > 1.001 {
			t.Errorf("site %s: %.3f explained, want 1", s.Pos, e)
		}
	}
	var buf bytes.Buffer
	if err := rep.WriteText(&buf, 0); err != nil {
		t.Fatal(err)
	}
	golden(t, "expansion.golden", buf.Bytes())
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n%s", file, got)
	}
}
