// Package htmlpage writes one self-contained HTML page that shows a
// program's source with lines annotated, as go tool cover -html does for
// coverage: divergo diff -html marks where two runs parted, divergo wait
// -html where waiting time comes from.
//
// The page needs nothing from the network: styles and the small script
// that switches between files are inline, and without the script every
// file is shown one after the other. Readers build a [Page] from their own
// reports (plain marks: file, line, text), so that this package knows
// nothing of traces or comparisons.
package htmlpage

import (
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Page is what the page shows.
type Page struct {
	Title string
	// Summary is the report's first lines, shown at the top as they are.
	Summary []string
	// Groups are the entries of the navigation, in report order; each
	// names the mark it leads to.
	Groups []Group
	// Root is the module root, where the files of marks are read from;
	// only files under it are read (ReadSource), whatever names the marks give.
	Root  string
	marks map[string]map[int][]Mark // file -> line -> marks
}

// Group is one entry of the navigation: a place the report ranks.
type Group struct {
	ID     string   // the anchor of its mark, set by [Page.Mark]
	Title  string   // one line: "1. main.go:20 loop, 3 times"
	Detail []string // further lines, shown under the title
	Class  string   // "parted", "hole", "cut", "wait"; annotations also "cause"
	File   string
	Line   int
}

// Mark annotates one source line.
type Mark struct {
	Group string   // the group's ID
	Class string   // as Group.Class
	Note  []string // lines shown under the source line
	// Share, from 0 to 1, sets how strongly the line is coloured (its part
	// of the report's total).
	Share float64
}

// Mark adds group g to the navigation and marks its line with the note.
// Positions are module-relative paths with forward slashes.
func (p *Page) Mark(g Group, m Mark) {
	g.ID = fmt.Sprintf("g%d", len(p.Groups)+1)
	m.Group, m.Class = g.ID, g.Class
	p.Groups = append(p.Groups, g)
	if p.marks == nil {
		p.marks = map[string]map[int][]Mark{}
	}
	if p.marks[g.File] == nil {
		p.marks[g.File] = map[int][]Mark{}
	}
	p.marks[g.File][g.Line] = append(p.marks[g.File][g.Line], m)
}

// Annotate marks a line with a note that no navigation entry leads to:
// the lines that explain a group (m.Group names it, m.Class says how).
func (p *Page) Annotate(file string, ln int, m Mark) {
	if p.marks == nil {
		p.marks = map[string]map[int][]Mark{}
	}
	if p.marks[file] == nil {
		p.marks[file] = map[int][]Mark{}
	}
	p.marks[file][ln] = append(p.marks[file][ln], m)
}

type line struct {
	N     int
	Text  string
	ID    string // anchor of the line
	Class string
	Style template.CSS
	Marks []Mark
}

type file struct {
	Index   int
	Name    string
	Lines   []line
	Missing bool // the source was not found under the root
	Marked  int  // annotated lines
}

// Write writes the page.
func (p *Page) Write(w io.Writer) error {
	var files []file
	names := make([]string, 0, len(p.marks))
	for name := range p.marks {
		names = append(names, name)
	}
	// Files in the order of their first group, so that the first file shown
	// holds the report's first place.
	first := map[string]int{}
	for i, g := range p.Groups {
		if _, ok := first[g.File]; !ok {
			first[g.File] = i
		}
	}
	for _, name := range names {
		if _, ok := first[name]; !ok {
			first[name] = len(p.Groups) // files of annotations only come last
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		if first[a] != first[b] {
			return first[a] - first[b]
		}
		return strings.Compare(a, b)
	})
	for i, name := range names {
		f := file{Index: i, Name: name}
		src, err := ReadSource(p.Root, name)
		texts := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
		if err != nil || p.Root == "" {
			f.Missing = true
			texts = nil
			for n := range p.marks[name] {
				for len(texts) < n {
					texts = append(texts, "")
				}
			}
		}
		for n, t := range texts {
			l := line{N: n + 1, Text: t, ID: fmt.Sprintf("f%d-L%d", i, n+1)}
			if ms := p.marks[name][n+1]; len(ms) > 0 {
				share := 0.0
				for _, m := range ms {
					share = max(share, m.Share)
				}
				l.Class, l.Marks = "mark "+ms[0].Class, ms
				// Opacity from 0.25 so that a small share still shows.
				l.Style = template.CSS(fmt.Sprintf("--share: %.2f", 0.25+0.75*min(share, 1)))
				f.Marked++
			} else if f.Missing {
				continue
			}
			f.Lines = append(f.Lines, l)
		}
		files = append(files, f)
	}
	anchors := map[string]string{}
	for fi, f := range files {
		for _, l := range f.Lines {
			for _, m := range l.Marks {
				anchors[m.Group] = fmt.Sprintf("f%d-L%d", fi, l.N)
			}
		}
	}
	groups := make([]struct {
		Group
		Anchor string
	}, len(p.Groups))
	for i, g := range p.Groups {
		groups[i].Group, groups[i].Anchor = g, anchors[g.ID]
	}
	return pageTmpl.Execute(w, struct {
		Title   string
		Summary []string
		Groups  any
		Files   []file
	}{p.Title, p.Summary, groups, files})
}

// SplitPos splits a report's position "file:line"; ok is false for "-",
// "return" and other positions without a line.
func SplitPos(pos string) (file string, line int, ok bool) {
	i := strings.LastIndexByte(pos, ':')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(pos[i+1:])
	if err != nil || n < 1 {
		return "", 0, false
	}
	return pos[:i], n, true
}
