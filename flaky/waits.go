package flaky

import (
	"slices"
	"strings"

	"github.com/divergo/divergo/waittime"
)

// waitDiff is how the waiting time of a test differs between a failing
// run (A) and a passing one (B), by sync site.
func waitDiff(fail, pass *View) (*waittime.DiffReport, error) {
	a, err := waittime.Analyze(fail, waittime.Options{})
	if err != nil {
		return nil, err
	}
	b, err := waittime.Analyze(pass, waittime.Options{})
	if err != nil {
		return nil, err
	}
	return waittime.Diff(a, b, 0)
}

// GroupWait is a sync site's waiting time per run, averaged over the
// failing runs and over the passing runs of a test: diff -wait added up
// over the two groups, so that one unlucky pair does not decide.
type GroupWait struct {
	Pos       string  `json:"pos"`
	Op        string  `json:"op"`
	FailNs    int64   `json:"fail_ns"` // mean waiting time per failing run
	PassNs    int64   `json:"pass_ns"`
	FailWaits float64 `json:"fail_waits"` // mean waits per failing run
	PassWaits float64 `json:"pass_waits"`
}

// groupWaits analyses at most max runs of each group and ranks the sites by
// how much their mean waiting time differs between the groups.
func groupWaits(fails, passes []*View, max int) ([]GroupWait, [2]int, error) {
	type key struct{ pos, op string }
	sums := map[key]*GroupWait{}
	var order []key
	var n [2]int
	for side, vs := range [][]*View{fails, passes} {
		if len(vs) > max {
			vs = vs[:max]
		}
		n[side] = len(vs)
		for _, v := range vs {
			rep, err := waittime.Analyze(v, waittime.Options{})
			if err != nil {
				return nil, n, err
			}
			for _, s := range rep.Sites {
				k := key{s.Pos, s.Op}
				g := sums[k]
				if g == nil {
					g = &GroupWait{Pos: s.Pos, Op: s.Op}
					sums[k] = g
					order = append(order, k)
				}
				if side == 0 {
					g.FailNs += s.TotalNs
					g.FailWaits += float64(s.Waits)
				} else {
					g.PassNs += s.TotalNs
					g.PassWaits += float64(s.Waits)
				}
			}
		}
	}
	out := make([]GroupWait, 0, len(order))
	for _, k := range order {
		g := *sums[k]
		if n[0] > 0 {
			g.FailNs /= int64(n[0])
			g.FailWaits /= float64(n[0])
		}
		if n[1] > 0 {
			g.PassNs /= int64(n[1])
			g.PassWaits /= float64(n[1])
		}
		out = append(out, g)
	}
	slices.SortStableFunc(out, func(x, y GroupWait) int {
		dx, dy := abs64(x.FailNs-x.PassNs), abs64(y.FailNs-y.PassNs)
		switch {
		case dx > dy:
			return -1
		case dx < dy:
			return 1
		}
		return strings.Compare(x.Pos, y.Pos)
	})
	return out, n, nil
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
