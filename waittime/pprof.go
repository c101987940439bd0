package waittime

import (
	"errors"
	"fmt"
	"io"

	"github.com/google/pprof/profile"
)

// WriteProfile writes the report as a pprof profile whose total is the
// report's waiting time. Every step of every class is one sample, signed
// as in the text (+ on the releasers' paths, - on the waiters' own), its
// stack the step's line called from the sync site; a class's unexplained
// time is a sample of its own, "(not explained)", and the waits without a
// releaser are a sample at the site's line. So the values add up to
// Report.TotalNs, and "go tool pprof -top -lines" lists the lines of the
// text's steps, largest first by absolute value as the text does.
//
// Lines in a state other than running carry it in their function's name
// ("example.com/m.worker (runnable)"), so that pprof, which sums a line's
// samples whatever their labels, keeps them apart as the text does; steps
// with no line are functions of their own, "(outside instrumented code)",
// and divergo's share of a class's waits under DIVERGO_PERTURB is in no
// sample, as it is in no total of the report. Labels name the goroutine,
// the state and the site.
//
// pprof's header ("... of N total") sums absolute values; the sum of the
// values, the waiting time, is what "Showing nodes accounting for" says
// when no node is dropped (-nodefraction=0).
func (r *Report) WriteProfile(w io.Writer) error {
	p, err := r.Profile()
	if err != nil {
		return err
	}
	if err := p.Write(w); err != nil {
		return fmt.Errorf("writing profile: %w", err)
	}
	return nil
}

// Names of the profile's functions for time spent in no line.
const (
	profOutside     = "(outside instrumented code)"
	profUnexplained = "(not explained)"
)

// Profile builds the profile WriteProfile writes.
func (r *Report) Profile() (*profile.Profile, error) {
	g := r.graph
	if g == nil {
		return nil, errors.New("report has no graph: profiles are made from Analyze's reports")
	}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "waiting", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "waiting", Unit: "nanoseconds"},
		Period:     1,
	}
	type fnKey struct {
		id    int
		state string
	}
	funcs := map[fnKey]*profile.Function{}
	named := map[string]*profile.Function{}
	newFunc := func(f *profile.Function) *profile.Function {
		f.ID = uint64(len(p.Function) + 1)
		p.Function = append(p.Function, f)
		return f
	}
	fn := func(id int, state string) *profile.Function {
		k := fnKey{id, state}
		if f, ok := funcs[k]; ok {
			return f
		}
		f := &profile.Function{Name: "?"}
		if gf := g.Func(id); gf != nil {
			f.Name, f.SystemName, f.Filename, f.StartLine = gf.Name, gf.Name, gf.Pos.File, int64(gf.Pos.Line)
		}
		if state != "" && state != Running.String() {
			f.Name += " (" + state + ")"
			f.SystemName = f.Name
		}
		funcs[k] = newFunc(f)
		return funcs[k]
	}
	// A location is a running step's line (its block's first, or the
	// line of the block its samples put it at, lines.go) or a statement's
	// own line (a site: the sync statement, or a step in another state).
	type locKey struct {
		block, site, line, fn int
		state                 string
	}
	locs := map[locKey]*profile.Location{}
	newLoc := func(l *profile.Location) *profile.Location {
		l.ID = uint64(len(p.Location) + 1)
		p.Location = append(p.Location, l)
		return l
	}
	// fn is the function holding line plus 1 when it is not the block's
	// (Step.lineFn).
	loc := func(block, site, line, fn1 int, state string) *profile.Location {
		k := locKey{block, site, line, fn1, state}
		if l, ok := locs[k]; ok {
			return l
		}
		l := &profile.Location{}
		if b := g.Block(block); b != nil {
			pos := b.Pos
			if site >= 0 {
				pos = sitePos(g, int32(site), int32(block))
			} else if line > 0 {
				pos.Line = line
			}
			f := b.Func
			if fn1 > 0 {
				f = fn1 - 1
			}
			l.Line = []profile.Line{{Function: fn(f, state), Line: int64(pos.Line)}}
		}
		locs[k] = newLoc(l)
		return locs[k]
	}
	// lineless is the location of time spent in no line of the program.
	lineless := func(name string) *profile.Location {
		k := locKey{block: -1, site: -1, state: name}
		if l, ok := locs[k]; ok {
			return l
		}
		f := named[name]
		if f == nil {
			f = newFunc(&profile.Function{Name: name, SystemName: name})
			named[name] = f
		}
		locs[k] = newLoc(&profile.Location{Line: []profile.Line{{Function: f}}})
		return locs[k]
	}
	add := func(leaf *profile.Location, site *Site, ns int64, goroutine, state string) {
		stack := []*profile.Location{leaf}
		if at := loc(site.Block, site.Site, siteLine(site), 0, ""); leaf != at {
			stack = append(stack, at)
		}
		lb := map[string][]string{"state": {state}, "site": {site.Pos + " " + site.Op}}
		if goroutine != "" {
			lb["goroutine"] = []string{goroutine}
		}
		p.Sample = append(p.Sample, &profile.Sample{Location: stack, Value: []int64{ns}, Label: lb})
	}
	for _, s := range r.Sites {
		if s.UnmatchedNs != 0 {
			add(loc(s.Block, s.Site, siteLine(s), 0, ""), s, s.UnmatchedNs, "", "no releaser")
		}
		for _, c := range s.Classes {
			for _, st := range c.Steps {
				var leaf *profile.Location
				switch st.State {
				case Outside.String():
					leaf = lineless(profOutside)
				default:
					leaf = loc(st.Block, st.Site, lineOf(st.Pos), st.lineFn, st.State)
				}
				add(leaf, s, st.Ns, st.Goroutine, st.State)
			}
			if c.UnexplainedNs != 0 {
				add(lineless(profUnexplained), s, c.UnexplainedNs, "", "unexplained")
			}
		}
	}
	if err := p.CheckValid(); err != nil {
		return nil, fmt.Errorf("building profile: %w", err)
	}
	return p, nil
}

// siteLine is the line a site is at when its block's first line is not:
// a library site's call (it has no site of the graph), else 0.
func siteLine(s *Site) int {
	if s.Library {
		return lineOf(s.Pos)
	}
	return 0
}
