package compare

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/divergo/divergo/internal/htmlpage"
)

// Page is the report as a source page (divergo diff -html): the summary at
// the top, and every statement where the runs parted marked on its line,
// with what each run did there, as many groups as o.Groups allows.
func (r *Report) Page(o TextOptions) *htmlpage.Page {
	na, nb := o.NameA, o.NameB
	if na == "" {
		na = "a"
	}
	if nb == "" {
		nb = "b"
	}
	p := &htmlpage.Page{Title: fmt.Sprintf("divergo diff %s %s", na, nb), Root: o.Root}
	var sum bytes.Buffer
	if r.Inputs != nil {
		fmt.Fprintf(&sum, "%s\n", r.Inputs.Line(na, nb))
	}
	if r.Summary.Same {
		fmt.Fprintf(&sum, "%s and %s took the same paths: %d goroutines matched.\n", na, nb, r.Summary.Matched)
	} else {
		fmt.Fprintf(&sum, "%s and %s took different paths.\n", na, nb)
		r.summaryText(&sum, o, na, nb, &sourceCache{})
	}
	p.Summary = strings.Split(strings.TrimSuffix(sum.String(), "\n"), "\n")
	groups := r.Groups
	if groups == nil {
		groups = GroupSections(r.Sections)
	}
	var total int64
	for _, g := range groups {
		total += g.Work()
	}
	for i, g := range groups {
		if o.Groups > 0 && i == o.Groups {
			break
		}
		file, line, ok := htmlpage.SplitPos(g.Where.Pos)
		if !ok {
			continue
		}
		sec := Section{TCP: g.Where, CutOff: g.CutOff, Unflagged: g.Unflagged}
		class := "parted"
		switch {
		case g.CutOff:
			class = "cut"
		case g.Unflagged:
			class = "hole"
		}
		var note []string
		note = append(note, fmt.Sprintf("%s: the runs parted here %s", plainKind(sec), plural(int64(len(g.Sections)), "time")))
		var gs []string
		for _, c := range g.Goroutines {
			gs = append(gs, fmt.Sprintf("%s (%d)", c.What, c.N))
		}
		note = append(note, "goroutines: "+listed(gs, 3))
		for k, t := range g.Took {
			if k == 3 {
				note = append(note, fmt.Sprintf("and %d other combinations", len(g.Took)-3))
				break
			}
			note = append(note, fmt.Sprintf("%s: %s; %s: %s (%s)", na, t.A, nb, t.B, plural(int64(t.N), "time")))
		}
		note = append(note, fmt.Sprintf("inside: %s: %s; %s: %s", na, workText(g.A), nb, workText(g.B)))
		note = append(note, "meet again: "+g.CP)
		share := 0.0
		if total > 0 {
			share = float64(g.Work()) / float64(total)
		}
		p.Mark(htmlpage.Group{
			Title:  fmt.Sprintf("%d. %s  %s, %s", i+1, g.Where.Pos, plainKind(sec), plural(int64(len(g.Sections)), "time")),
			Detail: note[1 : len(note)-2],
			Class:  class,
			File:   file,
			Line:   line,
		}, htmlpage.Mark{Note: note, Share: share})
	}
	return p
}
