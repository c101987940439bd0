package compare

import (
	"fmt"
	"strings"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// took says in plain words what one side of a section did at its change
// point, from the first block it executed in the deciding frame: the words
// a reader needs before any of the paper's measures. blocked is the
// operation the side's goroutine was still in when its trace ended, if it
// was: a sleep is no wait for ever, it would have woken.
//
// cp is the section's convergence point, which a side that executed no
// block of the deciding frame went straight to (noBlock: the frame's
// return).
func (p *program) took(kind string, m *sideMeasure, cp int32, cut, otherCut, unresolved bool, blocked *trace.Event) string {
	if cut {
		if blocked == nil {
			return "stopped here: still running when the program ended"
		}
		at := trace.SitePos(p.g, blocked.Site, blocked.Block).FileLine()
		if blocked.Op == trace.OpSleep {
			return "asleep at " + at + ": still sleeping when the program ended"
		}
		return "blocked for ever at " + at + " (" + blocked.Op.String() + "): still blocked when the program ended"
	}
	var first *tbb.Block
	if m.first != noBlock {
		first = p.g.Blocks[m.first]
	}
	line := func(b *tbb.Block) string {
		if b.Pos.IsValid() {
			return fmt.Sprintf("line %d", b.Pos.Line)
		}
		return "block " + fmt.Sprint(b.ID)
	}
	if otherCut {
		// The other run's goroutine went no further: what matters is that
		// this one did.
		if first == nil {
			return "went on to the end of its function"
		}
		return "went on to " + line(first)
	}
	straight := "went straight to the end of its function"
	if cp != noBlock {
		straight = "went straight to " + line(p.g.Blocks[cp])
	}
	var s string
	switch tbb.Kind(kind) {
	case tbb.Loop, tbb.MapRange:
		// A map range by its count; the order, when the counts are the
		// same, by tellApart.
		switch {
		case first == nil:
			s = "0 iterations"
		case strings.HasSuffix(first.Kind, ".body"):
			s = plural(m.nfirst, "iteration")
		default:
			s = "left the loop at " + line(first)
		}
	case tbb.Branch:
		switch {
		case first == nil:
			s = "skipped the if body: " + straight
		case first.Kind == "if.then":
			s = "took the then branch at " + line(first)
		case first.Kind == "if.else":
			s = "took the else branch at " + line(first)
		default:
			s = "went on at " + line(first)
		}
	case tbb.Switch, tbb.Select:
		if first == nil {
			s = "went straight past the " + kind + " to " + strings.TrimPrefix(straight, "went straight to ")
		} else {
			s = "took the case at " + line(first)
		}
	case tbb.Index:
		s = "another index"
	case tbb.Once:
		// The function's frame when it is instrumented, else the outcome
		// OnceDo recorded: 1 ran it, 0 did not.
		if m.led && m.lead.kind == tCall || len(m.outs) > 0 && m.outs[0] == 1 {
			s = "ran the function itself"
		} else {
			s = "did not run the function: another goroutine had"
		}
	case tbb.Input:
		s = "other input"
	case "none":
		if first == nil {
			s = p.lead(m) + " (no change point here)"
		} else {
			s = "went to " + line(first) + " (no change point here)"
		}
	default:
		if first == nil {
			s = "went straight to where the runs meet again"
		} else {
			s = "went to " + line(first)
		}
	}
	if unresolved && m.blocks == 0 {
		s += "; its goroutine recorded nothing more"
	}
	return s
}

// lead says what a side of an unflagged section did first when it
// executed no further block of the deciding frame: the two sides then
// parted at a call, an event or a recorded value inside the block, and
// "went straight on" for both would read alike (a lock's ticket recorded
// where the graph marked no lock did, docs/REALPROGRAMS.md).
func (p *program) lead(m *sideMeasure) string {
	if !m.led {
		return "went straight on"
	}
	t := m.lead
	switch t.kind {
	case tCall:
		if f := p.g.Func(p.g.Blocks[t.block].Func); f != nil {
			return "called " + f.Name
		}
		return "called another function"
	case tOutcome:
		// Another value: as "another index", the words group sections,
		// and one value means nothing to a reader without the other.
		return "recorded another lock ticket, index or map key"
	case tSync:
		return "did a " + trace.Op(t.val).String()
	case tSpawn:
		if st := p.g.Site(int(t.val)); st != nil && st.Pos.IsValid() {
			return fmt.Sprintf("started a goroutine at line %d", st.Pos.Line)
		}
		return "started a goroutine"
	}
	return "went straight on"
}

// tellApart rewords the two sides of an index or map-range section that
// took alike (the same number of iterations) by the first recorded value
// in which they differ: an index or key as recorded (an integer itself, a
// string or other value by its hash, an address by its identity,
// docs/SOUNDNESS.md, "Identities"), so that no parting reads the same on
// both sides.
func tellApart(kind string, ta, tb string, ma, mb *sideMeasure) (string, string) {
	if ta != tb {
		return ta, tb
	}
	what := "index"
	switch tbb.Kind(kind) {
	case tbb.Index:
	case tbb.MapRange:
		what = "key"
	default:
		return ta, tb
	}
	for i := range min(len(ma.outs), len(mb.outs)) {
		if ma.outs[i] != mb.outs[i] {
			if ma.nouts == 1 && mb.nouts == 1 {
				return fmt.Sprintf("%s %d", what, ma.outs[i]), fmt.Sprintf("%s %d", what, mb.outs[i])
			}
			n := ordinalWord(i + 1)
			if what == "key" {
				return fmt.Sprintf("%s, its %s key %d", ta, n, ma.outs[i]), fmt.Sprintf("%s, its %s key %d", tb, n, mb.outs[i])
			}
			return fmt.Sprintf("its %s index %d", n, ma.outs[i]), fmt.Sprintf("its %s index %d", n, mb.outs[i])
		}
	}
	if ma.nouts != mb.nouts {
		return fmt.Sprintf("%s, %s", ta, plural(ma.nouts, what)), fmt.Sprintf("%s, %s", tb, plural(mb.nouts, what))
	}
	return ta, tb
}

// ordinalWord is 1st, 2nd, 3rd, 4th ...
func ordinalWord(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprint(n) + suffix
}

func plural(n int64, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
