package waittime

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/divergo/divergo/internal/htmlpage"
)

// Page is the report as a source page (divergo wait -html): every sync
// site where goroutines waited is marked on its line, coloured by its share
// of the waiting time, with its classes; the lines that explain a site's
// first class are marked too, each with the time it explains and where.
// At most maxSteps steps per class are marked (all when maxSteps <= 0).
func (r *Report) Page(title, root string, maxSteps int) *htmlpage.Page {
	p := &htmlpage.Page{Title: title, Root: root}
	var sum bytes.Buffer
	fmt.Fprintf(&sum, "%s waiting in %s at %s", FormatNs(r.TotalNs), plural(r.Waits, "wait"), plural(len(r.Sites), "sync site"))
	if r.Unmatched > 0 {
		fmt.Fprintf(&sum, " (%d without a releaser in the trace)", r.Unmatched)
	}
	if r.Perturbed || r.PerturbNs > 0 {
		fmt.Fprintf(&sum, "\n%s; divergo delayed goroutines %s in all, %s", perturbedRun(r), FormatNs(r.PerturbNs), perturbShare(r.WaitPerturbNs))
	}
	p.Summary = strings.Split(sum.String(), "\n")
	for i, s := range r.Sites {
		file, ln, ok := htmlpage.SplitPos(s.Pos)
		if !ok {
			continue
		}
		title := fmt.Sprintf("%d. %s  %s (%s)  %s in %s", i+1, s.Pos, s.Op, s.Kind, FormatNs(s.TotalNs), plural(s.Waits, "wait"))
		note := []string{fmt.Sprintf("%s (%s) in %s: %s waited here in %s, %s of all waiting",
			s.Op, s.Kind, s.Func, FormatNs(s.TotalNs), plural(s.Waits, "wait"), shareOf(s.TotalNs, r.TotalNs))}
		if s.Unmatched > 0 {
			note = append(note, fmt.Sprintf("%d without a releaser, %s", s.Unmatched, FormatNs(s.UnmatchedNs)))
		}
		for j, c := range s.Classes {
			note = append(note, classSummary(j, c))
		}
		frac := 0.0
		if r.TotalNs > 0 {
			frac = float64(s.TotalNs) / float64(r.TotalNs)
		}
		p.Mark(htmlpage.Group{Title: title, Detail: note[1:], Class: "wait", File: file, Line: ln}, htmlpage.Mark{Note: note, Share: frac})
		if len(s.Classes) == 0 {
			continue
		}
		id := p.Groups[len(p.Groups)-1].ID
		c := s.Classes[0]
		for k, st := range c.Steps {
			if maxSteps > 0 && k == maxSteps {
				break
			}
			sf, sl, ok := htmlpage.SplitPos(st.Pos)
			if !ok {
				continue
			}
			sign := "+"
			side := "on the releasers' path"
			if st.Ns < 0 {
				sign, side = "", "on the waiters' path"
			}
			p.Annotate(sf, sl, htmlpage.Mark{
				Group: id, Class: "cause",
				Note: []string{fmt.Sprintf("%s%s of the waits at %s (%s), %s: %s in %s (%s)",
					sign, FormatNs(st.Ns), s.Pos, s.Op, side, st.State, st.Goroutine, st.Func)},
				Share: float64(abs(st.Ns)) / float64(max(c.TotalNs, 1)),
			})
		}
	}
	return p
}

func shareOf(part, whole int64) string {
	if whole <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(part)/float64(whole))
}
