package main

import (
	"strings"
	"testing"

	"github.com/divergo/divergo/instrument"
	"github.com/divergo/divergo/internal/tbb"
)

// TestReusedWarnings: warnings print when .divergo is written, and a
// reused one prints their count, not every warning again.
func TestReusedWarnings(t *testing.T) {
	res := &instrument.Result{ModuleDir: "/m", Overlay: "/m/.divergo/overlay.json", Graph: &tbb.Graph{},
		Skipped: []string{"/m/add.go: uses cgo; not instrumented"}, Warnings: []string{"/m/a.go:3: range over a channel assigning to an expression"}}
	var out strings.Builder
	reportInstrument(res, &out, &out)
	if !strings.Contains(out.String(), "divergo: warning: add.go: uses cgo") || !strings.Contains(out.String(), "divergo: warning: a.go:3:") {
		t.Errorf("written: the warnings are not printed:\n%s", out.String())
	}
	res.Reused = true
	out.Reset()
	reportInstrument(res, &out, &out)
	if strings.Contains(out.String(), "warning:") || !strings.Contains(out.String(), "divergo: 2 warnings, as when .divergo was written") {
		t.Errorf("reused: want the warnings' count only:\n%s", out.String())
	}
}
