package compare

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// TestJSONFields checks the fields the issue promises to scripts.
func TestJSONFields(t *testing.T) {
	x := newBranchy(t, false)
	rep := mustCompare(t, x.run(true, 1), x.run(false, 1))
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m["distance"].(float64); !ok {
		t.Errorf("no distance in %s", data)
	}
	g := m["goroutines"].(map[string]any)
	for _, k := range []string{"matched", "only_a", "only_b"} {
		if _, ok := g[k].([]any); !ok {
			t.Errorf("goroutines.%s is not a list in %s", k, data)
		}
	}
	secs := m["sections"].([]any)
	if len(secs) != 1 {
		t.Fatalf("%d sections", len(secs))
	}
	s := secs[0].(map[string]any)
	want := map[string]any{"goroutine": 1.0, "fanout": 2.0, "tcp_distance": 0.0, "unflagged": true}
	for k, v := range want {
		if s[k] != v {
			t.Errorf("sections[0].%s = %v, want %v", k, s[k], v)
		}
	}
	if tcp := s["tcp"].(map[string]any); tcp["pos"] != "branchy/f.go:11" || tcp["kind"] != "none" {
		t.Errorf("sections[0].tcp = %v", tcp)
	}
	if cp := s["cp"].(map[string]any); cp["pos"] != "branchy/f.go:16" {
		t.Errorf("sections[0].cp = %v", cp)
	}
}

// TestWriteJSON: the streamed report is json.Marshal's (HTML unescaped), compact, with an
// element of each list per line, for reports with and without sections,
// with inputs that differ and with empty and nil lists.
func TestWriteJSON(t *testing.T) {
	x := newBranchy(t, false)
	f := newFig1(t)
	dir := t.TempDir()
	ten := &trace.Inputs{Args: []string{"-n", "10"}, GOMAXPROCS: 2, NumCPU: 2}
	twelve := &trace.Inputs{Args: []string{"-n", "12"}, GOMAXPROCS: 2, NumCPU: 2}
	reports := map[string]*Report{
		"sections":      mustCompare(t, x.run(true, 3), x.run(false, 2)),
		"same":          mustCompare(t, x.run(true, 1), x.run(true, 1)),
		"inputs differ": mustCompare(t, fileTrace(t, filepath.Join(dir, "a.dvt"), f.g, f.run(1, 0, 1000), ten), fileTrace(t, filepath.Join(dir, "b.dvt"), f.g, f.run(0, 0, 2000), twelve)),
		"nil lists":     {},
		"endings":       {Endings: &Endings{A: RunEnding{Kind: "panic", Code: 2, Text: "a panic"}, B: RunEnding{Kind: "killed", Text: "killed"}}},
	}
	// Every field of Report is written: WriteJSON lists them by hand.
	if n := reflect.TypeFor[Report]().NumField(); n != 8 {
		t.Fatalf("Report has %d fields; WriteJSON writes 8: write the new one and count it here", n)
	}
	for name, rep := range reports {
		// As diff -json wrote it before: HTML characters (the ">" of spawn
		// paths) as they are.
		var marshal bytes.Buffer
		enc := json.NewEncoder(&marshal)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rep); err != nil {
			t.Fatal(err)
		}
		want := bytes.TrimSuffix(marshal.Bytes(), []byte("\n"))
		var out bytes.Buffer
		if err := rep.WriteJSON(&out); err != nil {
			t.Fatal(err)
		}
		if !json.Valid(out.Bytes()) {
			t.Fatalf("%s: not JSON:\n%s", name, out.Bytes())
		}
		var got bytes.Buffer
		if err := json.Compact(&got, out.Bytes()); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: WriteJSON gives\n%s\njson.Marshal\n%s", name, got.Bytes(), want)
		}
		if lines := bytes.Count(out.Bytes(), []byte("\n")); lines < len(rep.Sections)+len(rep.Goroutines.Matched) {
			t.Errorf("%s: %d lines for %d sections and %d pairs, want one each at least", name, lines, len(rep.Sections), len(rep.Goroutines.Matched))
		}
		if bytes.Contains(out.Bytes(), []byte("\n ")) {
			t.Errorf("%s: indented", name)
		}
	}
}
