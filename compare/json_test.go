package compare

import (
	"encoding/json"
	"testing"
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
