package flaky

import "github.com/divergo/divergo/compare"

// pick chooses at most max pairs (i, j) of runs to compare: i of nx runs
// against j of ny, or two of nx runs (i < j) when same. The pairs are
// spread, so that every run takes part before any takes part again: with
// 20 failing runs and max 12, twelve failing runs are each compared with a
// passing one, not one failing run with twelve.
func pick(nx, ny int, same bool, max int) [][2]int {
	var out [][2]int
	if same {
		for gap := 1; gap < nx; gap++ {
			for i := 0; i+gap < nx; i++ {
				if len(out) == max {
					return out
				}
				out = append(out, [2]int{i, i + gap})
			}
		}
		return out
	}
	for d := range ny {
		for i := range nx {
			if len(out) == max {
				return out
			}
			out = append(out, [2]int{i, (i + d) % ny})
		}
	}
	return out
}

// comparer compares two views of a test once, whatever the failure modes
// that ask for the pair: the passing runs are compared among themselves
// once for every mode.
type comparer struct {
	name   string
	groups map[[2]*View][]compare.Group
	orders map[*View]*orderFacts // each run's orders of sync operations
}

func newComparer(name string) *comparer {
	return &comparer{name: name, groups: map[[2]*View][]compare.Group{}, orders: map[*View]*orderFacts{}}
}

// sections are the groups of sections where the runs of a and b parted,
// by statement (compare.GroupSections), a as trace A.
func (c *comparer) sections(a, b *View) ([]compare.Group, error) {
	k := [2]*View{a, b}
	if gs, ok := c.groups[k]; ok {
		return gs, nil
	}
	rep, err := compare.Traces(a.compareTrace(), b.compareTrace(), compare.Options{})
	if err != nil {
		return nil, err
	}
	gs := compare.GroupSections(rep.Sections)
	c.groups[k] = gs
	return gs, nil
}
