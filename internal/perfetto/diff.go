package perfetto

import (
	"fmt"
	"sort"

	"github.com/divergo/divergo/internal/steps"
)

// mark is a slice to draw over a range of a goroutine's steps: from the
// start-th to before the end-th, counted as internal/steps counts them.
type mark struct {
	start, end int64
	name, cat  string
	args       []arg
}

// byGoroutine sorts a run's marks by goroutine and, within one, by their
// first step, as marksAt takes them.
func byGoroutine(ms []steps.Mark) map[uint64][]mark {
	if len(ms) == 0 {
		return nil
	}
	out := map[uint64][]mark{}
	for _, m := range ms {
		out[m.Goroutine] = append(out[m.Goroutine], mark{start: m.From, end: m.To, name: m.Label, cat: m.Class, args: markArgs(m.Args)})
	}
	for _, gm := range out {
		sort.SliceStable(gm, func(i, j int) bool { return gm[i].start < gm[j].start })
	}
	return out
}

// markArgs turns a mark's details into args; a value of another type than
// steps.Arg allows is written as text.
func markArgs(as []steps.Arg) []arg {
	out := make([]arg, 0, len(as))
	for _, a := range as {
		switch v := a.Value.(type) {
		case string:
			out = append(out, str(a.Key, v))
		case int64:
			out = append(out, num(a.Key, v))
		case int:
			out = append(out, num(a.Key, int64(v)))
		case float64:
			out = append(out, flt(a.Key, v))
		case bool:
			out = append(out, boolean(a.Key, v))
		default:
			out = append(out, str(a.Key, fmt.Sprint(v)))
		}
	}
	return out
}

// marksAt opens and closes the marks that begin or end at step k, at time
// at.
func (g *gstate) marksAt(k, at int64) {
	for {
		if g.open >= 0 && g.marks[g.open].end <= k {
			for len(g.out) > 0 {
				s := g.out[len(g.out)-1]
				g.endSlot(at)
				if s.kind == 's' {
					break
				}
			}
			g.open = -1
			continue
		}
		if g.open < 0 && g.mi < len(g.marks) && g.marks[g.mi].start <= k {
			m := &g.marks[g.mi]
			g.ensureFrames(-1)
			g.rs.w.enc.emit(&event{ph: 'B', name: m.name, cat: m.cat, pid: g.rs.pid, tid: g.tid, ts: at, args: m.args})
			g.out = append(g.out, slot{kind: 's', cat: m.cat, frame: len(g.frames)})
			g.open = g.mi
			g.mi++
			continue
		}
		return
	}
}
