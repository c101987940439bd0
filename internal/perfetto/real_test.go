package perfetto

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/steps"
	"github.com/divergo/divergo/internal/trace"
)

func openFile(t *testing.T, name string) *trace.Reader {
	t.Helper()
	r, err := trace.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestRealTraces draws traces recorded by instrumented programs: every
// goroutine is a thread, every wait the runtime recorded is a slice, and
// every wait with a releaser has its arrow.
func TestRealTraces(t *testing.T) {
	tests := []struct {
		file string
		// allKnown: every wait's releaser is known (no select waits, whose
		// object the runtime does not record).
		allKnown bool
	}{
		{"pool.dvt", true},
		{"contention.dvt", true},
		{"pipeline.dvt", false},
		{"fig2-a.dvt", true},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r := openFile(t, tt.file)
			var buf bytes.Buffer
			if err := WriteTrace(&buf, r); err != nil {
				t.Fatal(err)
			}
			f, err := Validate(buf.Bytes())
			if err != nil {
				t.Fatalf("output does not validate: %v", err)
			}
			var waits uint64
			for _, gi := range r.Goroutines() {
				waits += gi.Waits
			}
			names, order := threadNames(f)
			if len(names) != len(r.Goroutines()) || order[1][0] != "main" {
				t.Errorf("%d threads (first %q) for %d goroutines", len(names), order[1][0], len(r.Goroutines()))
			}
			var drawn, known, flows int
			for _, s := range slices(f) {
				if s.cat != "wait" {
					continue
				}
				drawn++
				if rel := s.args["releaser"]; rel != "unknown" {
					known++
					if rel == "" || !strings.Contains(rel.(string), "(goroutine ") {
						t.Errorf("%s: releaser %q", s.name, rel)
					}
				} else if tt.allKnown {
					t.Errorf("%s at %d ns: releaser unknown", s.name, s.start)
				}
			}
			for _, e := range f.TraceEvents {
				if e.Ph == "f" && *e.Cat == "release" {
					flows++
				}
			}
			if uint64(drawn) != waits || flows != known || waits == 0 {
				t.Errorf("%d waits recorded, %d drawn, %d with a releaser, %d release arrows", waits, drawn, known, flows)
			}
		})
	}
}

// TestRealDiff marks the sections of two real runs of Figure 2 whose
// schedules differed, on the right goroutine's track in each run.
func TestRealDiff(t *testing.T) {
	a, b := openFile(t, "fig2-a.dvt"), openFile(t, "fig2-b.dvt")
	var buf bytes.Buffer
	rep, err := writeDiff(&buf, Run{Reader: a}, Run{Reader: b}, compare.Options{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Sections == 0 {
		t.Fatal("the runs do not differ")
	}
	f, err := Validate(buf.Bytes())
	if err != nil {
		t.Fatalf("output does not validate: %v", err)
	}
	names, _ := threadNames(f)
	want := map[string]int{}
	ma, mb := rep.Marks()
	for i, ms := range [][]steps.Mark{ma, mb} {
		r := []*trace.Reader{a, b}[i]
		for _, m := range ms {
			g, _ := r.Goroutine(m.Goroutine)
			want[string(rune('1'+i))+" "+g.Path+" "+m.Label]++
		}
	}
	if len(ma) != len(rep.Sections) {
		t.Errorf("%d marks in run A for %d sections", len(ma), len(rep.Sections))
	}
	got := map[string]int{}
	for _, s := range slices(f) {
		if strings.HasPrefix(s.cat, "divergent") {
			got[string(rune('0'+s.pid))+" "+names[[2]int64{s.pid, s.tid}]+" "+s.name]++
			if s.end < s.start {
				t.Errorf("%s ends before it starts", s.name)
			}
		}
	}
	if len(got) != len(want) {
		t.Errorf("marks %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%q: %d marks, want %d", k, got[k], n)
		}
	}
}
