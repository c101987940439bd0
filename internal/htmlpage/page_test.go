package htmlpage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPage: source text is escaped, marks land on their lines with their
// notes, a file not found is listed with its marked lines only, and the
// navigation leads to the marks in report order.
func TestPage(t *testing.T) {
	root := t.TempDir()
	src := "package main\n\nfunc main() {\n\tif a < b && c > d {\n\t}\n}\n"
	if err := os.WriteFile(filepath.Join(root, "main.go"), []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	p := &Page{Title: "t <1>", Summary: []string{"a & b"}, Root: root}
	p.Mark(Group{Title: "1. main.go:4", Class: "parted", File: "main.go", Line: 4}, Mark{Note: []string{"took <else>"}, Share: 1})
	p.Mark(Group{Title: "2. gone.go:7", Class: "hole", File: "gone.go", Line: 7}, Mark{Note: []string{"hole"}})
	var b strings.Builder
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"<title>t &lt;1&gt;</title>",
		"a &amp; b",
		`<span class="src mark parted" id="f0-L4" data-line="4" style="--share: 1.00"><span class="ln">4</span>	if a &lt; b &amp;&amp; c &gt; d {</span>`,
		`<span class="note" data-group="g1">took &lt;else&gt;`,
		`<a href="#f0-L4" class="parted" data-group="g1" data-pos="main.go:4">`,
		`<a href="#f1-L7" class="hole" data-group="g2" data-pos="gone.go:7">`,
		"gone.go: source not found (run divergo from the module, or give -src DIR)",
		`<span class="src mark hole" id="f1-L7" data-line="7"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(out, `id="f1-L6"`) {
		t.Errorf("unmarked lines of a missing file are listed")
	}
}
