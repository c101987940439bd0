package waittime

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
)

// DiffReport puts the waiting time of two runs of the same program side by
// side: sync sites correspond by block and operation (block ids are stable
// for the same source), classes by the relative distance of their steps.
type DiffReport struct {
	A     Totals      `json:"a"`
	B     Totals      `json:"b"`
	Sites []*SiteDiff `json:"sites"` // largest change first
}

// Totals sums one run's waiting.
type Totals struct {
	Waits   int   `json:"waits"`
	TotalNs int64 `json:"total_ns"`
	// Perturbed, PerturbSeed and PerturbNs are the run's (Report).
	Perturbed   bool  `json:"perturbed,omitempty"`
	PerturbSeed int64 `json:"perturb_seed,omitempty"`
	PerturbNs   int64 `json:"perturb_ns,omitempty"`
}

func totals(r *Report) Totals {
	return Totals{Waits: r.Waits, TotalNs: r.TotalNs, Perturbed: r.Perturbed, PerturbSeed: r.PerturbSeed, PerturbNs: r.PerturbNs}
}

// SiteDiff is one sync site in the two runs; A or B is nil when the site
// had no waits in that run.
type SiteDiff struct {
	Pos     string       `json:"pos"`
	Op      string       `json:"op"`
	Kind    string       `json:"kind"`
	Block   int          `json:"block"`
	Site    int          `json:"site"`
	A       *Site        `json:"a,omitempty"`
	B       *Site        `json:"b,omitempty"`
	DeltaNs int64        `json:"delta_ns"` // B's total minus A's
	Classes []*ClassDiff `json:"classes"`
}

// ClassDiff is a class of one run and its counterpart in the other.
type ClassDiff struct {
	Change   string  `json:"change"` // appeared, vanished, changed, same
	A        *Class  `json:"a,omitempty"`
	B        *Class  `json:"b,omitempty"`
	Distance float64 `json:"distance"` // relative distance of the two, when both exist
}

// changeShare is how much a matched class's waiting time must move, as a
// share of the larger of the two, to be reported as changed.
const changeShare = 0.1

// Diff compares the reports of two runs of the same program. Classes match
// when their relative distance is below threshold (0 means
// DefaultThreshold).
func Diff(a, b *Report, threshold float64) (*DiffReport, error) {
	if threshold == 0 {
		threshold = DefaultThreshold
	}
	if a.graph != nil && b.graph != nil && a.graph.Hash != b.graph.Hash {
		return nil, fmt.Errorf("the traces come from different programs (graphs %s and %s)", a.graph.ShortHash(), b.graph.ShortHash())
	}
	d := &DiffReport{A: totals(a), B: totals(b)}
	type key struct {
		site    int
		op, pos string // pos only for a library site, which has no site
	}
	byKey := map[key]*SiteDiff{}
	get := func(s *Site) *SiteDiff {
		k := key{site: s.Site, op: s.Op}
		if s.Library {
			k.pos = s.Pos
		}
		sd := byKey[k]
		if sd == nil {
			sd = &SiteDiff{Pos: s.Pos, Op: s.Op, Kind: s.Kind, Block: s.Block, Site: s.Site}
			byKey[k] = sd
			d.Sites = append(d.Sites, sd)
		}
		return sd
	}
	for _, s := range a.Sites {
		get(s).A = s
	}
	for _, s := range b.Sites {
		get(s).B = s
	}
	for _, sd := range d.Sites {
		var ca, cb []*Class
		if sd.A != nil {
			sd.DeltaNs -= sd.A.TotalNs
			ca = sd.A.Classes
		}
		if sd.B != nil {
			sd.DeltaNs += sd.B.TotalNs
			cb = sd.B.Classes
		}
		sd.Classes = matchClasses(ca, cb, threshold)
	}
	slices.SortFunc(d.Sites, func(x, y *SiteDiff) int {
		return cmp.Or(cmp.Compare(abs(y.DeltaNs), abs(x.DeltaNs)), cmp.Compare(x.Block, y.Block), cmp.Compare(x.Site, y.Site), cmp.Compare(x.Op, y.Op))
	})
	return d, nil
}

// matchClasses pairs classes greedily, closest first.
func matchClasses(ca, cb []*Class, threshold float64) []*ClassDiff {
	type pair struct {
		i, j int
		d    float64
	}
	var pairs []pair
	for i, x := range ca {
		for j, y := range cb {
			if dist := distance(shares(x), shares(y)); dist < threshold {
				pairs = append(pairs, pair{i, j, dist})
			}
		}
	}
	slices.SortStableFunc(pairs, func(x, y pair) int { return cmp.Compare(x.d, y.d) })
	usedA, usedB := make([]bool, len(ca)), make([]bool, len(cb))
	var out []*ClassDiff
	for _, p := range pairs {
		if usedA[p.i] || usedB[p.j] {
			continue
		}
		usedA[p.i], usedB[p.j] = true, true
		x, y := ca[p.i], cb[p.j]
		change := "same"
		if float64(abs(y.TotalNs-x.TotalNs)) > changeShare*float64(max(x.TotalNs, y.TotalNs)) {
			change = "changed"
		}
		out = append(out, &ClassDiff{Change: change, A: x, B: y, Distance: p.d})
	}
	for i, x := range ca {
		if !usedA[i] {
			out = append(out, &ClassDiff{Change: "vanished", A: x})
		}
	}
	for j, y := range cb {
		if !usedB[j] {
			out = append(out, &ClassDiff{Change: "appeared", B: y})
		}
	}
	slices.SortStableFunc(out, func(x, y *ClassDiff) int { return cmp.Compare(y.delta(), x.delta()) })
	return out
}

// delta is how much a class's waiting time moved, in absolute value.
func (c *ClassDiff) delta() int64 {
	var a, b int64
	if c.A != nil {
		a = c.A.TotalNs
	}
	if c.B != nil {
		b = c.B.TotalNs
	}
	return abs(b - a)
}

// shares is a reported class's relative durations per kind of step, as
// classify computes them for paths.
func shares(c *Class) []share {
	es := make([]entry, 0, len(c.Steps))
	for _, st := range c.Steps {
		at := st.Block
		if st.Site >= 0 {
			at = st.Site
		}
		es = append(es, entry{stepKey{at: int32(at), state: stateNamed(st.State)}, st.Ns})
	}
	return relative(mergeEntries(es, new([]entry)), nil)
}

func stateNamed(name string) State {
	for s, n := range stateNames {
		if n == name {
			return State(s)
		}
	}
	return Blocked
}

// WriteText writes the comparison for people: sites by the change in their
// waiting time, each class marked appeared, vanished, changed or same, with
// at most maxSteps steps of its explanation (all when maxSteps <= 0).
func (d *DiffReport) WriteText(w io.Writer, maxSteps int) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "waiting: A %s in %s, B %s in %s\n", FormatNs(d.A.TotalNs), plural(d.A.Waits, "wait"),
		FormatNs(d.B.TotalNs), plural(d.B.Waits, "wait"))
	for _, x := range []struct {
		name string
		t    Totals
	}{{"A", d.A}, {"B", d.B}} {
		if x.t.Perturbed || x.t.PerturbNs > 0 {
			r := &Report{Perturbed: x.t.Perturbed, PerturbSeed: x.t.PerturbSeed}
			fmt.Fprintf(bw, "%s is a %s: divergo delayed its goroutines %s in all, taken out of every explanation\n", x.name, perturbedRun(r), FormatNs(x.t.PerturbNs))
		}
	}
	side := func(s *Site) string {
		if s == nil {
			return "-"
		}
		return fmt.Sprintf("%s (%d)", FormatNs(s.TotalNs), s.Waits)
	}
	for i, sd := range d.Sites {
		fmt.Fprintf(bw, "\n%d. %s  %s (%s)  A %s  B %s  %s\n", i+1, sd.Pos, sd.Op, sd.Kind, side(sd.A), side(sd.B), signed(sd.DeltaNs))
		for _, c := range sd.Classes {
			cls := c.B
			if cls == nil {
				cls = c.A
			}
			fmt.Fprintf(bw, "   %-8s A %s  B %s\n", c.Change, classSide(c.A), classSide(c.B))
			writeSteps(bw, cls, maxSteps, false)
		}
	}
	return bw.Flush()
}

func classSide(c *Class) string {
	if c == nil {
		return "-"
	}
	return fmt.Sprintf("%s (%d)", FormatNs(c.TotalNs), c.Waits)
}

func signed(ns int64) string {
	if ns > 0 {
		return "+" + FormatNs(ns)
	}
	return FormatNs(ns)
}
