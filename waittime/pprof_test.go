package waittime

import (
	"bytes"
	"testing"

	"github.com/google/pprof/profile"
)

// TestProfile writes the pipeline's profile and parses it back: the slow
// stage's line carries most of the waiting time, called from the sites.
func TestProfile(t *testing.T) {
	tr, _, _, slow := pipelineTrace()
	rep, err := Analyze(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteProfile(&buf); err != nil {
		t.Fatal(err)
	}
	p, err := profile.Parse(&buf)
	if err != nil {
		t.Fatalf("written profile does not parse: %v", err)
	}
	byLine := map[int64]int64{}
	var total int64
	for _, s := range p.Sample {
		if len(s.Location) != 2 {
			t.Fatalf("sample has %d locations, want step and site", len(s.Location))
		}
		leaf := s.Location[0].Line[0]
		byLine[leaf.Line] += s.Value[0]
		total += s.Value[0]
		if leaf.Function.Filename != "pipe.go" || leaf.Function.Name == "" {
			t.Errorf("location without file or function: %+v", leaf.Function)
		}
		if s.Label["goroutine"] == nil {
			t.Errorf("sample without a goroutine label")
		}
	}
	slowLine := int64(tr.graph.Block(int(slow)).Pos.Line)
	if share := float64(byLine[slowLine]) / float64(total); share < 0.95 {
		t.Errorf("slow line %d has %.2f of the profile, want >= 0.95 (%v)", slowLine, share, byLine)
	}
	if _, err := (&Report{}).Profile(); err == nil {
		t.Error("a report without a graph made a profile")
	}
}
