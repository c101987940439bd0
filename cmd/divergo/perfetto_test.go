package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/divergo/divergo/internal/perfetto"
)

// TestDiffPerfetto runs "divergo diff -perfetto" on two real runs of
// Figure 2 and checks that the timeline written passes the trace-event
// format's rules and marks the divergent sections.
func TestDiffPerfetto(t *testing.T) {
	dir := filepath.Join("..", "..", "internal", "perfetto", "testdata")
	a, b := filepath.Join(dir, "fig2-a.dvt"), filepath.Join(dir, "fig2-b.dvt")
	out := filepath.Join(t.TempDir(), "diff.json")
	status, stdout, stderr := runCmd(t, "diff", "--perfetto", out, a, b)
	if status != 1 || !strings.Contains(stdout, "divergent sections") {
		t.Fatalf("status %d, stdout %q, stderr %q; want 1 and the report", status, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	f, err := perfetto.Validate(data)
	if err != nil {
		t.Fatalf("%s does not validate: %v", out, err)
	}
	procs, marks := 0, 0
	for _, e := range f.TraceEvents {
		if e.Ph == "M" && *e.Name == "process_name" && strings.HasPrefix(e.Args["name"].(string), "run ") {
			procs++
		}
		if e.Ph == "B" && strings.HasPrefix(*e.Name, "divergent") {
			marks++
		}
	}
	if procs != 2 || marks == 0 {
		t.Errorf("%d processes named run A/B, %d divergent marks", procs, marks)
	}
}

func TestDiffPerfettoErrors(t *testing.T) {
	dir := filepath.Join("..", "..", "internal", "perfetto", "testdata")
	a := filepath.Join(dir, "fig2-a.dvt")
	out := filepath.Join(t.TempDir(), "x.json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", "-perfetto", out, a, a, a}, "-perfetto draws two traces"},
		{[]string{"diff", "-perfetto", out, a, filepath.Join(dir, "pool.dvt")}, "different programs"},
		{[]string{"diff", "-perfetto", filepath.Join(t.TempDir(), "no", "such", "dir.json"), a, a}, "no such file"},
	} {
		status, _, errs := runCmd(t, tc.args...)
		if status != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", tc.args, status, errs, tc.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed diff left %s behind", out)
	}
}

// TestShowPerfetto checks that "divergo show -perfetto" writes a timeline
// that passes the trace-event format's rules, with one track per goroutine.
func TestShowPerfetto(t *testing.T) {
	in := filepath.Join("..", "..", "internal", "perfetto", "testdata", "pool.dvt")
	out := filepath.Join(t.TempDir(), "pool.json")
	status, _, stderr := runCmd(t, "show", "-perfetto", out, in)
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	f, err := perfetto.Validate(data)
	if err != nil {
		t.Fatalf("%s does not validate: %v", out, err)
	}
	threads := 0
	for _, e := range f.TraceEvents {
		if e.Ph == "M" && e.Name != nil && *e.Name == "thread_name" {
			threads++
		}
	}
	if threads != 5 { // main and four workers, as "divergo show" lists them
		t.Errorf("%d goroutine tracks, want 5", threads)
	}
}
