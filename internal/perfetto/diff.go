package perfetto

import (
	"io"
	"math"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/trace"
)

// WriteDiff compares a and b with [compare.Traces] (copts.Observe, if set,
// still sees every step) and writes both runs as two processes of one
// Chrome trace-event JSON file, with the divergent sections marked on the
// goroutines' tracks. Runs without a name are called "run A" and "run B".
// It returns the comparison's report.
func WriteDiff(w io.Writer, a, b Run, copts compare.Options, opts Options) (*compare.Report, error) {
	if a.Reader == nil || b.Reader == nil {
		return nil, errNoTrace
	}
	if a.Name == "" {
		a.Name = "run A"
	}
	if b.Name == "" {
		b.Name = "run B"
	}
	t := newTracker(a.Reader.Goroutines())
	user := copts.Observe
	copts.Observe = func(s compare.Step) {
		t.observe(s)
		if user != nil {
			user(s)
		}
	}
	rep, err := compare.Traces(compare.FromReader(a.Reader), compare.FromReader(b.Reader), copts)
	if err != nil {
		return nil, err
	}
	if err := write(w, opts, []Run{a, b}, t.marks(rep)); err != nil {
		return rep, err
	}
	return rep, nil
}

// mark is a slice to draw over a range of a goroutine's tokens: from the
// start-th to before the end-th, counting them as compare does.
type mark struct {
	start, end int64
	name, cat  string
	args       []arg
}

// marksAt opens and closes the marks that begin or end at token k, at time
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

// tracker follows the comparison's steps to find where each divergent
// section starts and ends in each side's stream. A step is one token of the
// comparison; the writer replays each goroutine's events into the same
// tokens (internal/replay: implied blocks put back, calls and returns
// followed), so a section begins and ends at the block it names even when
// that block has no probe.
type tracker struct {
	// pairs is filled before the comparison starts and only read during
	// it: each pair's steps come from one goroutine, so its pairTrack needs
	// no lock.
	pairs map[uint64]*pairTrack
}

type pairTrack struct {
	na, nb int64 // tokens consumed on each side
	sa, sb int64 // at the start of the current section
	in     bool
	secs   []secSpan
}

type secSpan struct {
	a0, a1, b0, b1 int64
	sec            compare.Section
}

func newTracker(gs []trace.GoroutineInfo) *tracker {
	t := &tracker{pairs: make(map[uint64]*pairTrack, len(gs))}
	for _, gi := range gs {
		t.pairs[gi.ID] = &pairTrack{}
	}
	return t
}

// isToken reports whether a step consumed a token the writer counts: all
// but the end of the stream, after which nothing is drawn.
func (t *tracker) isToken(s compare.Step) bool {
	return s.Token != "" && s.Token != "end"
}

func (t *tracker) observe(s compare.Step) {
	p := t.pairs[s.Goroutine]
	if p == nil {
		return
	}
	begin := func() {
		if !p.in {
			p.in, p.sa, p.sb = true, p.na, p.nb
		}
	}
	switch s.Kind {
	case compare.StepSame, compare.StepLockOrder:
		if t.isToken(s) {
			p.na++
			p.nb++
		}
	case compare.StepA:
		begin()
		if t.isToken(s) {
			p.na++
		}
	case compare.StepB:
		begin()
		if t.isToken(s) {
			p.nb++
		}
	case compare.StepSection:
		begin()
		if s.Section != nil {
			p.secs = append(p.secs, secSpan{a0: p.sa, a1: p.na, b0: p.sb, b1: p.nb, sec: *s.Section})
		}
		p.in = false
	}
}

// marks turns the sections found into marks of each run, by goroutine id.
func (t *tracker) marks(rep *compare.Report) []map[uint64][]mark {
	ma, mb := map[uint64][]mark{}, map[uint64][]mark{}
	for _, pr := range rep.Goroutines.Matched {
		p := t.pairs[pr.A]
		if p == nil {
			continue
		}
		for _, s := range p.secs {
			name, cat := sectionName(&s.sec)
			ma[pr.A] = append(ma[pr.A], mark{start: s.a0, end: s.a1, name: name, cat: cat, args: sectionArgs(&s.sec, "A")})
			mb[pr.B] = append(mb[pr.B], mark{start: s.b0, end: s.b1, name: name, cat: cat, args: sectionArgs(&s.sec, "B")})
		}
	}
	w := rep.Summary.Weights
	lone := func(m map[uint64][]mark, ls []compare.Lone, run string) {
		for _, l := range ls {
			m[l.ID] = []mark{{start: 0, end: math.MaxInt64, name: "only in run " + run, cat: "divergent",
				args: []arg{str("spawn", l.Spawn), num("blocks", l.Blocks), num("tcps", l.TCPs), flt("distance", w.D+float64(l.TCPs)*w.TR)}}}
		}
	}
	lone(ma, rep.Goroutines.OnlyA, "A")
	lone(mb, rep.Goroutines.OnlyB, "B")
	return []map[uint64][]mark{ma, mb}
}

func sectionName(s *compare.Section) (name, cat string) {
	switch {
	case s.TCP.Block < 0:
		name, cat = "divergent: whole goroutine", "divergent"
	case s.Unflagged:
		name, cat = "divergent (unflagged) at "+s.TCP.Pos, "divergent,unflagged"
	default:
		name, cat = "divergent: "+s.TCP.Kind+" at "+s.TCP.Pos, "divergent"
	}
	if s.Unflagged && s.TCP.Block < 0 {
		cat = "divergent,unflagged"
	}
	return name, cat
}

func sectionArgs(s *compare.Section, run string) []arg {
	this, other := s.A, s.B
	if run == "B" {
		this, other = s.B, s.A
	}
	return []arg{
		str("run", run),
		str("tcp", s.TCP.Kind), str("tcp_pos", s.TCP.Pos), str("cp", s.CP.Pos), str("func", s.TCP.Func),
		boolean("unflagged", s.Unflagged), boolean("unresolved", s.Unresolved),
		flt("distance", s.Distance), num("fanout", int64(s.Fanout)),
		num("tcp_distance", s.TCPDistance), flt("tcp_freq_distance", s.TCPFreqDistance),
		num("blocks", this.Blocks), num("tcps", this.TCPs), num("depth", int64(this.Depth)), num("time_ns", this.TimeNS),
		num("other_blocks", other.Blocks), num("other_tcps", other.TCPs), num("other_time_ns", other.TimeNS),
		num("goroutine_a", int64(s.Goroutine)), num("goroutine_b", int64(s.GoroutineB)),
		str("time", "estimated"),
	}
}
