package analyzer

import (
	"strings"
	"testing"
)

// TestDoc: the Analyzer's Doc is the "# Analyzer divergo" section of
// doc.go, a lowercase title then paragraphs, and stops at the next heading.
func TestDoc(t *testing.T) {
	title, rest, _ := strings.Cut(Analyzer.Doc, "\n")
	if title != "report trace change points and their convergence points" {
		t.Errorf("title %q", title)
	}
	if !strings.Contains(rest, "A trace change point (TCP) is a statement") {
		t.Errorf("Doc misses the section's first paragraph:\n%s", Analyzer.Doc)
	}
	if strings.Contains(Analyzer.Doc, "SSA in debug mode") || strings.Contains(Analyzer.Doc, "# ") {
		t.Errorf("Doc runs past its section:\n%s", Analyzer.Doc)
	}
}

func TestExtractDoc(t *testing.T) {
	for _, tc := range []struct{ src, want, err string }{
		{"// Package p.\n//\n// # Analyzer x\n//\n// x: a title\n//\n// Body.\n//\n// # Other\n//\n// Not this.\npackage p\n", "a title\n\nBody.", ""},
		{"// # Analyzer x\n//\n// x: only a title\npackage p\n", "only a title", ""},
		{"// # Analyzer x\n//\n// no title line\npackage p\n", "", "not followed"},
		{"// # Analyzer y\n//\n// y: t\npackage p\n", "", "no heading"},
		{"// # Analyzer xy\n//\n// xy: t\npackage p\n", "", "no heading"},
		{"package p\n", "", "no package comment"},
		{"not go", "", "reading the package comment"},
	} {
		got, err := extractDoc(tc.src, "x")
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want one saying %q", tc.src, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.src, got, err, tc.want)
		}
	}
}
