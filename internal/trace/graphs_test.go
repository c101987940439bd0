package trace

import (
	"bytes"
	"testing"
)

// TestGraphShared: traces embedding the same graph share one decoded
// graph, and a trace of another graph, or of the first again after it,
// gets its own.
func TestGraphShared(t *testing.T) {
	encode := func(module string) []byte {
		g := testGraph(t)
		g.Module = module
		var buf bytes.Buffer
		if err := Encode(&buf, "sample", g, sample()); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	open := func(b []byte) *Reader {
		r, err := NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := encode("example.com/a"), encode("example.com/b")
	ra1, ra2 := open(a), open(bytes.Clone(a))
	if ra1.Graph() != ra2.Graph() {
		t.Error("two traces of one graph decoded it twice")
	}
	rb := open(b)
	if rb.Graph() == ra1.Graph() || rb.Graph().Module != "example.com/b" {
		t.Errorf("a trace of graph b read graph %s", rb.Graph().Module)
	}
	ra3 := open(a)
	if ra3.Graph().Module != "example.com/a" {
		t.Errorf("a trace of graph a read graph %s after b", ra3.Graph().Module)
	}
	if got, want := len(readAll(t, ra3, 1)), len(readAll(t, ra1, 1)); got != want {
		t.Errorf("goroutine 1: %d events, then %d", want, got)
	}
}
