package waittime

import (
	"encoding/json"
	"testing"
)

// TestJSONFields checks the field names the issue promises, through a
// round trip of the expansion example's report.
func TestJSONFields(t *testing.T) {
	rep, err := Analyze(expansionTrace(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Sites []struct {
			Pos     *string `json:"pos"`
			Kind    *string `json:"kind"`
			Waits   *int    `json:"waits"`
			TotalNs *int64  `json:"total_ns"`
			Classes []struct {
				Waits     *int     `json:"waits"`
				TotalNs   *int64   `json:"total_ns"`
				Explained *float64 `json:"explained"`
				Steps     []struct {
					Pos       *string `json:"pos"`
					Goroutine *string `json:"goroutine"`
					Ns        *int64  `json:"ns"`
				} `json:"steps"`
			} `json:"classes"`
		} `json:"sites"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Sites) != 3 {
		t.Fatalf("%d sites in JSON, want 3: %s", len(v.Sites), data)
	}
	s := v.Sites[0]
	if s.Pos == nil || *s.Pos != "fig4.go:31" || s.Kind == nil || *s.Kind != "chan" || s.Waits == nil || *s.Waits != 1 ||
		s.TotalNs == nil || *s.TotalNs != 120*ms || len(s.Classes) != 1 {
		t.Fatalf("first site: %s", data)
	}
	c := s.Classes[0]
	if c.Waits == nil || c.TotalNs == nil || c.Explained == nil || len(c.Steps) != 3 {
		t.Fatalf("class: %s", data)
	}
	last := c.Steps[2]
	if last.Pos == nil || *last.Pos != "fig4.go:30" || last.Goroutine == nil || *last.Goroutine != "main/c@fig4.go:3#3" ||
		last.Ns == nil || *last.Ns != -30*ms {
		t.Errorf("waiter's step: %s", data)
	}
}
