package waittime

import (
	"errors"
	"fmt"
	"io"

	"github.com/google/pprof/profile"
)

// WriteProfile writes the report as a pprof profile: one sample per
// explaining step with positive time, its value the nanoseconds of waiting
// it explains, its stack the step's line called from the sync site, so that
// "go tool pprof -top -lines" lists the lines that cause waiting and -http shows
// which sites they cause it at. The waiters' own (negative) steps are left
// out: pprof sums values, and a line can only cause waiting by taking time
// on a releaser's path. Labels name the goroutine and the state.
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
	funcs := map[int]*profile.Function{}
	fn := func(id int) *profile.Function {
		if f, ok := funcs[id]; ok {
			return f
		}
		f := &profile.Function{ID: uint64(len(p.Function) + 1), Name: "?"}
		if gf := g.Func(id); gf != nil {
			f.Name, f.SystemName, f.Filename, f.StartLine = gf.Name, gf.Name, gf.Pos.File, int64(gf.Pos.Line)
		}
		funcs[id] = f
		p.Function = append(p.Function, f)
		return f
	}
	// A location is a block's first line (a running step) or a
	// statement's own line (a site: the sync statement, or a step in
	// another state).
	type locKey struct {
		block, site int
	}
	locs := map[locKey]*profile.Location{}
	loc := func(block, site int) *profile.Location {
		k := locKey{block, site}
		if l, ok := locs[k]; ok {
			return l
		}
		b := g.Block(block)
		l := &profile.Location{ID: uint64(len(p.Location) + 1)}
		if b != nil {
			pos := b.Pos
			if site >= 0 {
				pos = sitePos(g, int32(site), int32(block))
			}
			l.Line = []profile.Line{{Function: fn(b.Func), Line: int64(pos.Line)}}
		}
		locs[k] = l
		p.Location = append(p.Location, l)
		return l
	}
	for _, s := range r.Sites {
		for _, c := range s.Classes {
			for _, st := range c.Steps {
				if st.Ns <= 0 {
					continue
				}
				p.Sample = append(p.Sample, &profile.Sample{
					Location: []*profile.Location{loc(st.Block, st.Site), loc(s.Block, s.Site)},
					Value:    []int64{st.Ns},
					Label: map[string][]string{
						"goroutine": {st.Goroutine},
						"state":     {st.State},
						"site":      {s.Pos + " " + s.Op},
					},
				})
			}
		}
	}
	if err := p.CheckValid(); err != nil {
		return nil, fmt.Errorf("building profile: %w", err)
	}
	return p, nil
}
