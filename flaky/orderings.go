package flaky

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/divergo/divergo/internal/trace"
)

// Ordering is two sync operations on one object (a mutex, a channel, a
// WaitGroup ...) by two goroutines, whose order separates failing runs
// from passing ones: the race itself, where a branch separator names what
// it decided. First came first in most failing runs.
type Ordering struct {
	First  OpRef `json:"first"`
	Second OpRef `json:"second"`
	// Failing counts the failing runs where First came before Second,
	// and those where it came after; Passing the same of passing runs.
	// Runs where the two did not meet on one object are in neither.
	Failing [2]int `json:"failing"`
	Passing [2]int `json:"passing"`
	// Score is the share of failing runs with First before Second minus
	// the share of passing runs with it, among the runs where they met.
	Score float64 `json:"score"`
	// Folded counts the orderings of lower or equal score folded into this
	// one: the same operations at the same lines by goroutines the program
	// started alike (the same go statements, the same creators), which
	// differ only in which of them came first (foldAlike).
	Folded int `json:"folded,omitempty"`
}

// OpRef is one sync operation of a test's runs, the same in every run: a
// goroutine (by spawn path), a site, and which time the goroutine did it
// there.
type OpRef struct {
	Op        string `json:"op"`
	Pos       string `json:"pos"`
	Func      string `json:"func,omitempty"`
	Goroutine string `json:"goroutine"`
	N         int    `json:"n"` // from 1
}

func (r OpRef) key() string { return fmt.Sprintf("%s\x00%s\x00%d", r.Goroutine, r.Pos, r.N) }

// String reads "doCall's lock at singleflight.go:152 (goroutine ...)".
func (r OpRef) String() string {
	var b strings.Builder
	if r.Func != "" {
		fmt.Fprintf(&b, "%s's ", shortFunc(r.Func))
	}
	if r.N > 1 {
		fmt.Fprintf(&b, "%s (its %s) ", r.Op, ordinal(r.N))
	} else {
		fmt.Fprintf(&b, "%s ", r.Op)
	}
	fmt.Fprintf(&b, "at %s in %s", r.Pos, r.Goroutine)
	return b.String()
}

// String says the ordering in plain words, the second line by its number
// alone when it is in the first one's file.
func (o Ordering) String() string {
	second := o.Second
	if file, _, ok := strings.Cut(o.First.Pos, ":"); ok && strings.HasPrefix(second.Pos, file+":") {
		second.Pos = second.Pos[len(file):]
	}
	line := fmt.Sprintf("in %d of %d failing runs %s came before %s; in %d of %d passing runs after",
		o.Failing[0], o.Failing[0]+o.Failing[1], o.First, second, o.Passing[1], o.Passing[0]+o.Passing[1])
	if o.Folded > 0 {
		line += fmt.Sprintf(" (and %d more such orders of goroutines started alike)", o.Folded)
	}
	return line
}

func ordinal(n int) string {
	switch n {
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

// shortFunc drops the package path: "(*golang.org/x/sync/singleflight.Group).doCall"
// reads "(*Group).doCall".
func shortFunc(name string) string {
	ptr := strings.HasPrefix(name, "(*")
	rest := strings.TrimPrefix(name, "(*")
	if i := strings.LastIndex(rest, "/"); i >= 0 {
		rest = rest[i+1:]
	}
	if i := strings.Index(rest, "."); i >= 0 {
		rest = rest[i+1:]
	}
	if ptr {
		return "(*" + rest
	}
	return rest
}

const (
	// maxOccurrences bounds the operations of one goroutine at one site
	// that take part: the first few times of a loop say its order, and a
	// hot mutex does not make pairs by the million.
	maxOccurrences = 4
	// orderWindow is how many later operations on an object each one is
	// ordered against.
	orderWindow = 8
	// maxOrderings bounds the orderings reported.
	maxOrderings = 5
	// minScore is the least score reported: an order that differs in a
	// few runs either way is the schedule's noise.
	minScore = 0.5
)

// releases are the operations left out: each follows an acquisition
// whose order it repeats.
var releases = map[trace.Op]bool{trace.OpUnlock: true, trace.OpRUnlock: true}

// orderFacts are the orders of one run: for two operations (keys
// sorted), whether the first key's came first.
type orderFacts struct {
	before map[[2]string]bool
	refs   map[string]OpRef
}

// facts reads the sync operations of v and orders those on one object.
func (c *comparer) facts(v *View) (*orderFacts, error) {
	if f, ok := c.orders[v]; ok {
		return f, nil
	}
	g := v.Graph()
	type op struct {
		ref  OpRef
		gid  uint64
		obj  uint64
		end  int64
		seq  int
		pkey string
	}
	var ops []op
	for _, gi := range v.gs {
		it, err := v.Events(gi.ID)
		if err != nil {
			return nil, err
		}
		path := rootName(gi.Path, c.name)
		seen := map[uint32]int{}
		for it.Next() {
			e := it.Event()
			if e.Kind != trace.EvSync || e.Object == 0 || releases[e.Op] || e.Blocked {
				continue
			}
			seen[e.Site]++
			n := seen[e.Site]
			if n > maxOccurrences {
				continue
			}
			ref := OpRef{Op: e.Op.String(), Goroutine: path, N: n}
			if int(e.Site) < len(g.Sites) {
				s := g.Sites[e.Site]
				ref.Pos = fmt.Sprintf("%s:%d", s.Pos.File, s.Pos.Line)
				if s.Block >= 0 && s.Block < len(g.Blocks) {
					if f := g.Blocks[s.Block].Func; f >= 0 && f < len(g.Funcs) {
						ref.Func = g.Funcs[f].Name
					}
				}
			}
			ops = append(ops, op{ref: ref, gid: gi.ID, obj: e.Object, end: e.End, seq: len(ops), pkey: ref.key()})
		}
		if err := it.Err(); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(ops, func(a, b op) int {
		return cmp.Or(cmp.Compare(a.obj, b.obj), cmp.Compare(a.end, b.end), cmp.Compare(a.seq, b.seq))
	})
	f := &orderFacts{before: map[[2]string]bool{}, refs: map[string]OpRef{}}
	for i, a := range ops {
		for j := i + 1; j < len(ops) && j <= i+orderWindow && ops[j].obj == a.obj; j++ {
			b := ops[j]
			if b.gid == a.gid || b.end == a.end {
				continue
			}
			k, first := [2]string{a.pkey, b.pkey}, true
			if k[0] > k[1] {
				k, first = [2]string{b.pkey, a.pkey}, false
			}
			if _, ok := f.before[k]; !ok {
				f.before[k] = first
				f.refs[a.pkey], f.refs[b.pkey] = a.ref, b.ref
			}
		}
	}
	c.orders[v] = f
	return f, nil
}

// orderings ranks the orders of two operations by how well they separate
// fails from passes.
func (c *comparer) orderings(fails, passes []*View) ([]Ordering, error) {
	type count struct{ fail, pass [2]int } // [0]: the first key's came first
	counts := map[[2]string]*count{}
	refs := map[string]OpRef{}
	for side, vs := range [][]*View{fails, passes} {
		for _, v := range vs {
			f, err := c.facts(v)
			if err != nil {
				return nil, err
			}
			for k, first := range f.before {
				x := counts[k]
				if x == nil {
					x = &count{}
					counts[k] = x
				}
				i := 1
				if first {
					i = 0
				}
				if side == 0 {
					x.fail[i]++
				} else {
					x.pass[i]++
				}
			}
			for k, r := range f.refs {
				refs[k] = r
			}
		}
	}
	share := func(n [2]int, i int) float64 { return float64(n[i]) / float64(n[0]+n[1]) }
	var out []Ordering
	for k, x := range counts {
		nf, np := x.fail[0]+x.fail[1], x.pass[0]+x.pass[1]
		// Met in at least half the runs of each side: an order seen in
		// one passing run says nothing of the passing runs.
		if 2*nf < len(fails) || 2*np < len(passes) || nf == 0 || np == 0 {
			continue
		}
		o := Ordering{First: refs[k[0]], Second: refs[k[1]], Failing: x.fail, Passing: x.pass}
		if x.fail[1] > x.fail[0] {
			o.First, o.Second = o.Second, o.First
			o.Failing = [2]int{x.fail[1], x.fail[0]}
			o.Passing = [2]int{x.pass[1], x.pass[0]}
		}
		o.Score = share(o.Failing, 0) - share(o.Passing, 0)
		if o.Score >= minScore {
			out = append(out, o)
		}
	}
	slices.SortFunc(out, func(a, b Ordering) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.First.key()+a.Second.key(), b.First.key()+b.Second.key()))
	})
	out = foldAlike(out)
	if len(out) > maxOrderings {
		out = out[:maxOrderings]
	}
	return out, nil
}

// goroutineOrdinal is the "#N" that tells apart goroutines one go
// statement (or one library function) started, in a spawn path.
var goroutineOrdinal = regexp.MustCompile(`#[0-9]+`)

// alike is r with its goroutine's ordinals erased: the operation of any of
// the goroutines started alike, "go pool.go:30#*" for every worker.
func (r OpRef) alike() string {
	return fmt.Sprintf("%s\x00%s\x00%s\x00%d", r.Op, r.Pos, goroutineOrdinal.ReplaceAllString(r.Goroutine, "#*"), r.N)
}

// foldAlike keeps, of orderings that read the same once goroutines started
// alike are taken as one (worker #12's lock before worker #7's, worker
// #3's before worker #9's), the first of os, best first, and counts the
// others in its Folded. The program treats such goroutines alike, so which
// of them came first is one fact, not five: listed apart they fill the
// ranks a cause should have (ARCHITECTURE.md, "Flaky tests").
func foldAlike(os []Ordering) []Ordering {
	var out []Ordering
	at := map[[2]string]int{}
	for _, o := range os {
		a, b := o.First.alike(), o.Second.alike()
		if i, ok := at[[2]string{a, b}]; ok {
			out[i].Folded += 1 + o.Folded
			continue
		}
		at[[2]string{a, b}] = len(out)
		out = append(out, o)
	}
	return out
}
