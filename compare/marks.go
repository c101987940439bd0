package compare

import "github.com/divergo/divergo/internal/steps"

// Marks lists the divergent sections as marks on the goroutines of each
// run, for a timeline (divergo diff -perfetto): each section on its
// goroutine in both runs, where its steps are, and each goroutine of one
// run only as a whole. The labels and args are those the timeline shows.
func (r *Report) Marks() (a, b []steps.Mark) {
	for i := range r.Sections {
		s := &r.Sections[i]
		label, class := sectionLabel(s)
		a = append(a, steps.Mark{Goroutine: s.Goroutine, Span: s.StepsA, Label: label, Class: class, Args: sectionArgs(s, "A")})
		b = append(b, steps.Mark{Goroutine: s.GoroutineB, Span: s.StepsB, Label: label, Class: class, Args: sectionArgs(s, "B")})
	}
	w := r.Summary.Weights
	lone := func(ls []Lone, run string) []steps.Mark {
		var out []steps.Mark
		for _, l := range ls {
			out = append(out, steps.Mark{Goroutine: l.ID, Span: steps.Span{From: 0, To: steps.ToEnd}, Label: "only in run " + run, Class: "divergent",
				Args: []steps.Arg{kv("spawn", l.Spawn), kv("blocks", l.Blocks), kv("tcps", l.TCPs), kv("distance", w.D+float64(l.TCPs)*w.TR)}})
		}
		return out
	}
	a = append(a, lone(r.Goroutines.OnlyA, "A")...)
	b = append(b, lone(r.Goroutines.OnlyB, "B")...)
	return a, b
}

func sectionLabel(s *Section) (label, class string) {
	switch {
	case s.TCP.Block < 0:
		label, class = "divergent: whole goroutine", "divergent"
	case s.Unflagged:
		label, class = "divergent (unflagged) at "+s.TCP.Pos, "divergent,unflagged"
	default:
		label, class = "divergent: "+s.TCP.Kind+" at "+s.TCP.Pos, "divergent"
	}
	if s.Unflagged && s.TCP.Block < 0 {
		class = "divergent,unflagged"
	}
	return label, class
}

func sectionArgs(s *Section, run string) []steps.Arg {
	this, other := s.A, s.B
	if run == "B" {
		this, other = s.B, s.A
	}
	return []steps.Arg{
		kv("run", run),
		kv("tcp", s.TCP.Kind), kv("tcp_pos", s.TCP.Pos), kv("cp", s.CP.Pos), kv("func", s.TCP.Func),
		kv("unflagged", s.Unflagged), kv("unresolved", s.Unresolved),
		kv("distance", s.Distance), kv("fanout", int64(s.Fanout)),
		kv("tcp_distance", s.TCPDistance), kv("tcp_freq_distance", s.TCPFreqDistance),
		kv("blocks", this.Blocks), kv("tcps", this.TCPs), kv("depth", int64(this.Depth)), kv("time_ns", this.TimeNS),
		kv("other_blocks", other.Blocks), kv("other_tcps", other.TCPs), kv("other_time_ns", other.TimeNS),
		kv("goroutine_a", int64(s.Goroutine)), kv("goroutine_b", int64(s.GoroutineB)),
		kv("time", "estimated"),
	}
}

func kv(key string, v any) steps.Arg { return steps.Arg{Key: key, Value: v} }
