package compare

import (
	"math/rand/v2"
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// A generator of random structured programs and of executions of them, for
// property tests and benchmarks. A program is a few functions whose bodies
// are statement lists: plain statements, calls (to later functions only, so
// executions end), if statements, for loops and returns (in if branches
// outside loops). It compiles to a TBB graph the way the analyzer would
// build it for the Go equivalent: the condition ends the current block,
// if.then / if.else / if.done and for.body / for.done are probed, the loop
// head and the post statement are implied.

type stmtKind uint8

const (
	sPlain stmtKind = iota
	sCall
	sIf
	sLoop
	sReturn
)

type stmt struct {
	kind    stmtKind
	flagged bool // the analyzer marked its TCP
	site    int  // static id, for decisions
	callee  int
	then    []stmt
	els     []stmt // nil: no else
	body    []stmt
	// Filled in by compile.
	cond, thenB, elseB, join int // if
	head, bodyB, post, done  int // loop
}

type gprog struct {
	funcs [][]stmt
	entry []int
	g     *tbb.Graph
	sites int
}

func genProgram(r *rand.Rand, nfunc, maxLen, maxDepth int) *gprog {
	p := &gprog{funcs: make([][]stmt, nfunc)}
	for f := range nfunc {
		p.funcs[f] = p.genList(r, f, nfunc, maxLen, maxDepth, false)
	}
	return p
}

func (p *gprog) genList(r *rand.Rand, f, nfunc, maxLen, depth int, inLoop bool) []stmt {
	n := r.IntN(maxLen + 1)
	var out []stmt
	for range n {
		s := stmt{site: p.sites, flagged: r.IntN(3) != 0}
		p.sites++
		switch k := r.IntN(10); {
		case k < 2:
			s.kind = sPlain
		case k < 4 && f+1 < nfunc:
			s.kind = sCall
			s.callee = f + 1 + r.IntN(nfunc-f-1)
		case k < 7 && depth > 0:
			s.kind = sIf
			s.then = p.genList(r, f, nfunc, maxLen, depth-1, inLoop)
			if r.IntN(2) == 0 {
				s.els = p.genList(r, f, nfunc, maxLen, depth-1, inLoop)
				if s.els == nil {
					s.els = []stmt{}
				}
			}
			if !inLoop && r.IntN(5) == 0 {
				s.then = append(s.then, stmt{kind: sReturn})
			}
		case depth > 0:
			s.kind = sLoop
			s.body = p.genList(r, f, nfunc, maxLen, depth-1, true)
		default:
			s.kind = sPlain
		}
		out = append(out, s)
	}
	return out
}

// returns reports whether a statement list can return before its end.
func returns(l []stmt) bool {
	for _, s := range l {
		if s.kind == sReturn || s.kind == sIf && (returns(s.then) || returns(s.els)) {
			return true
		}
	}
	return false
}

// compile builds the graph and records block ids in the statements.
func (p *gprog) compile(t testing.TB) {
	b := newBuilder("gen/p.go")
	line := 1
	nextLine := func() int { line++; return line }
	p.entry = make([]int, len(p.funcs))
	for f := range p.funcs {
		fn := b.fn("example.com/m.f"+string(rune('A'+f)), nextLine())
		p.entry[f] = b.block(fn, "entry", line, true, "")
		var list func(l []stmt, cur int) int
		list = func(l []stmt, cur int) int {
			for i := range l {
				s := &l[i]
				switch s.kind {
				case sReturn:
					b.exit(cur)
					return -1
				case sIf:
					s.cond = cur
					s.thenB = b.block(fn, "if.then", nextLine(), true, "")
					if s.els != nil {
						s.elseB = b.block(fn, "if.else", nextLine(), true, "")
					}
					s.join = b.block(fn, "if.done", nextLine(), true, "")
					b.edge(cur, s.thenB)
					if s.els != nil {
						b.edge(cur, s.elseB)
					} else {
						b.edge(cur, s.join)
					}
					if end := list(s.then, s.thenB); end >= 0 {
						b.edge(end, s.join)
					}
					if s.els != nil {
						if end := list(s.els, s.elseB); end >= 0 {
							b.edge(end, s.join)
						}
					}
					if s.flagged {
						cp := s.join
						if returns(s.then) || returns(s.els) {
							cp = tbb.Return
						}
						b.tcp(cur, tbb.Branch, b.g.Blocks[cur].Pos.Line, cp)
					}
					cur = s.join
				case sLoop:
					s.head = b.block(fn, "for.loop", nextLine(), false, "")
					s.bodyB = b.block(fn, "for.body", nextLine(), true, "")
					s.post = b.block(fn, "for.post", nextLine(), false, "")
					s.done = b.block(fn, "for.done", nextLine(), true, "")
					b.edge(cur, s.head)
					b.edge(s.head, s.bodyB, s.done)
					end := list(s.body, s.bodyB)
					b.edge(end, s.post)
					b.edge(s.post, s.head)
					if s.flagged {
						b.tcp(s.head, tbb.Loop, b.g.Blocks[s.head].Pos.Line, s.done)
					}
					cur = s.done
				}
			}
			return cur
		}
		if end := list(p.funcs[f], p.entry[f]); end >= 0 {
			b.exit(end)
		}
	}
	p.g = b.graph(t)
}

// item is one element of a materialized execution: a block (probed or
// implied), a call, an if or a loop as executed.
type item struct {
	block    int      // -1 for constructs
	call     []item   // the callee's items, entry first
	s        *stmt    // if or loop
	branch   []item   // if: the items of the branch taken, its first block first
	iters    [][]item // loop: per iteration body..., post, head
	returned bool     // if: the branch returned
}

// runGen executes a program: decisions at each site are a hash of the
// site, its instance count and a seed; with probability 1/div a flagged
// site (or, with holes, any site) uses the run's own seed instead.
type runGen struct {
	p      *gprog
	shared uint64
	own    uint64
	div    uint64
	holes  bool
	count  map[int]uint64
	events []trace.Event
	// emit, when set, receives events instead of events (benchmarks).
	emit func(trace.Event)
}

// hash mixes its arguments with splitmix64 steps (FNV's low bits are too
// regular for "% 2").
func hash(xs ...uint64) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, x := range xs {
		h ^= x
		h += 0x9e3779b97f4a7c15
		h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9
		h = (h ^ (h >> 27)) * 0x94d049bb133111eb
		h ^= h >> 31
	}
	return h
}

func (g *runGen) decide(s *stmt, n uint64) uint64 {
	k := g.count[s.site]
	g.count[s.site]++
	seed := g.shared
	if (s.flagged || g.holes) && hash(g.shared, uint64(s.site), k, 7)%g.div == 0 {
		seed = g.own
	}
	return hash(seed, uint64(s.site), k) % n
}

func (g *runGen) ev(e trace.Event) {
	if g.emit != nil {
		g.emit(e)
		return
	}
	g.events = append(g.events, e)
}

func (g *runGen) call(f int) []item {
	e := g.p.entry[f]
	g.ev(blk(e))
	items := []item{{block: e}}
	items, _ = g.list(g.p.funcs[f], items)
	g.ev(ret(e))
	return items
}

func (g *runGen) list(l []stmt, items []item) ([]item, bool) {
	for i := range l {
		s := &l[i]
		switch s.kind {
		case sReturn:
			return items, true
		case sCall:
			items = append(items, item{block: -1, call: g.call(s.callee)})
		case sIf:
			it := item{block: -1, s: s}
			switch {
			case g.decide(s, 2) == 0:
				g.ev(blk(s.thenB))
				it.branch, it.returned = g.list(s.then, []item{{block: s.thenB}})
			case s.els != nil:
				g.ev(blk(s.elseB))
				it.branch, it.returned = g.list(s.els, []item{{block: s.elseB}})
			}
			items = append(items, it)
			if it.returned {
				return items, true
			}
			g.ev(blk(s.join))
			items = append(items, item{block: s.join})
		case sLoop:
			items = append(items, item{block: s.head})
			it := item{block: -1, s: s}
			for range g.decide(s, 4) {
				g.ev(blk(s.bodyB))
				body, _ := g.list(s.body, []item{{block: s.bodyB}})
				it.iters = append(it.iters, append(body, item{block: s.post}, item{block: s.head}))
			}
			items = append(items, it)
			g.ev(blk(s.done))
			items = append(items, item{block: s.done})
		}
	}
	return items, false
}

func (p *gprog) execute(shared, own, div uint64, holes bool) ([]trace.Event, []item) {
	g := &runGen{p: p, shared: shared, own: own, div: div, holes: holes, count: map[int]uint64{}}
	items := g.call(0)
	return g.events, items
}

// generatedPairs calls f on programs random programs and four pairs of
// executions of each, which decide alike except at about a third of the
// flagged sites (with holes, of any site).
func generatedPairs(t testing.TB, programs int, holes bool, f func(p *gprog, seed, run uint64, evA, evB []trace.Event, itA, itB []item)) {
	for seed := range uint64(programs) {
		r := rand.New(rand.NewPCG(seed, 42))
		p := genProgram(r, 1+r.IntN(4), 4, 3)
		p.compile(t)
		for run := range uint64(4) {
			evA, itA := p.execute(seed, 1000+run, 3, holes)
			evB, itB := p.execute(seed, 2000+run, 3, holes)
			f(p, seed, run, evA, evB, itA, itB)
		}
	}
}
