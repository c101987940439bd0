package waittime

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// TestProfile writes the pipeline's profile and parses it back: its values
// add up to the report's waiting time, and the slow stage's line carries
// most of it, called from the sites.
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
		leaf := s.Location[0].Line[0]
		total += s.Value[0]
		if strings.HasPrefix(leaf.Function.Name, "(") {
			if len(s.Location) != 2 || leaf.Function.Filename != "" {
				t.Errorf("sample of %s: %d locations, file %q", leaf.Function.Name, len(s.Location), leaf.Function.Filename)
			}
			continue
		}
		byLine[leaf.Line] += s.Value[0]
		if leaf.Function.Filename != "pipe.go" || leaf.Function.Name == "" {
			t.Errorf("location without file or function: %+v", leaf.Function)
		}
		if s.Label["goroutine"] == nil && s.Label["state"][0] != "no releaser" {
			t.Errorf("sample without a goroutine label: %v", s.Label)
		}
	}
	if total != rep.TotalNs {
		t.Errorf("profile total %d, report's waiting time %d", total, rep.TotalNs)
	}
	slowLine := int64(tr.graph.Block(int(slow)).Pos.Line)
	if share := float64(byLine[slowLine]) / float64(total); share < 0.95 {
		t.Errorf("slow line %d has %.2f of the profile, want >= 0.95 (%v)", slowLine, share, byLine)
	}
	if _, err := (&Report{}).Profile(); err == nil {
		t.Error("a report without a graph made a profile")
	}
}

// TestProfileTotals checks the profile's total against the text's on every
// scenario of this package's tests, including waits without a releaser.
func TestProfileTotals(t *testing.T) {
	barrier, _, _ := barrierTrace()
	pipeline, _, _, _ := pipelineTrace()
	for name, tr := range map[string]Trace{"expansion": expansionTrace(), "barrier": barrier, "pipeline": pipeline} {
		rep, err := Analyze(tr, Options{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := rep.Profile()
		if err != nil {
			t.Fatal(err)
		}
		var total int64
		for _, s := range p.Sample {
			total += s.Value[0]
		}
		if total != rep.TotalNs {
			t.Errorf("%s: profile total %d, report's waiting time %d", name, total, rep.TotalNs)
		}
	}
}
