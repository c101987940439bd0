package compare

import (
	"testing"

	"github.com/divergo/divergo/internal/tbb"
	"github.com/divergo/divergo/internal/trace"
)

// fig1 is the graph of the Go port of the paper's Figure 1a:
//
//	10 func main() {
//	11 	var wg sync.WaitGroup; wg.Add(2)
//	12 	go task0(&wg)
//	13 	go task1(&wg)
//	14 	wg.Wait()
//	15 }
//	17 func task0(wg *sync.WaitGroup) {
//	18 	defer wg.Done(); j, k := 0, 0
//	19 	lk.Lock()
//	20 	x = x + 1
//	21 	j = x
//	22 	lk.Unlock()
//	23 	if j == 2 {
//	24 		j = j - 1
//	25 	} else {
//	26 		k = k + 1
//	27 	}
//	28 	use(j, k)
//	29 }
//	31 func task1(wg *sync.WaitGroup) {
//	32 	defer wg.Done(); sum := 0
//	33 	lk.Lock()
//	34 	x = x + 1
//	35 	index := x
//	36 	lk.Unlock()
//	37 	for i := 1; i <= index; i++ {
//	38 		sum = sum + i
//	39 	}
//	40 	use(sum)
//	41 }
type fig1 struct {
	g                          *tbb.Graph
	labels                     map[int]string
	m0, m1, m2                 int
	t0, t1, tThen, tElse, tEnd int
	c0, c1, cBody, cDone       int
}

func newFig1(t testing.TB) *fig1 {
	b := newBuilder("fig1/main.go")
	f := &fig1{}
	main := b.fn("example.com/m.main", 10)
	f.m0 = b.block(main, "entry", 11, true, "A0-A1")
	f.m1 = b.block(main, "go.after", 13, true, "A1'")
	f.m2 = b.block(main, "go.after", 14, true, "A2-A3")
	b.edge(f.m0, f.m1)
	b.edge(f.m1, f.m2)
	b.exit(f.m2)
	b.tcp(f.m0, tbb.Spawn, 12, f.m1)
	b.tcp(f.m1, tbb.Spawn, 13, f.m2)

	task0 := b.fn("example.com/m.task0", 17)
	f.t0 = b.block(task0, "entry", 18, true, "B0")
	f.t1 = b.block(task0, "lock.after", 20, true, "B1-B4")
	f.tThen = b.block(task0, "if.then", 24, true, "B5")
	f.tElse = b.block(task0, "if.else", 26, true, "B6-B7")
	f.tEnd = b.block(task0, "if.done", 28, true, "A2(task0)")
	b.edge(f.t0, f.t1)
	b.edge(f.t1, f.tThen, f.tElse)
	b.edge(f.tThen, f.tEnd)
	b.edge(f.tElse, f.tEnd)
	b.exit(f.tEnd)
	b.tcp(f.t0, tbb.Lock, 19, f.t1)
	b.tcp(f.t1, tbb.Branch, 23, f.tEnd)

	task1 := b.fn("example.com/m.task1", 31)
	f.c0 = b.block(task1, "entry", 32, true, "C0")
	f.c1 = b.block(task1, "lock.after", 34, true, "C1-C3")
	head := b.block(task1, "for.loop", 37, false, "C4")
	f.cBody = b.block(task1, "for.body", 38, true, "C5")
	post := b.block(task1, "for.post", 37, false, "C4(i++)")
	f.cDone = b.block(task1, "for.done", 40, true, "A2(task1)")
	b.edge(f.c0, f.c1)
	b.edge(f.c1, head)
	b.edge(head, f.cBody, f.cDone)
	b.edge(f.cBody, post)
	b.edge(post, head)
	b.exit(f.cDone)
	b.tcp(f.c0, tbb.Lock, 33, f.c1)
	b.tcp(head, tbb.Loop, 37, f.cDone)

	f.g = b.graph(t)
	f.labels = b.labels
	return f
}

// run builds one execution of Figure 1. first says which task took the lock
// first; ids offsets the goroutine ids so that matching cannot rely on them.
func (f *fig1) run(first int, ids uint64, t0 int64) *memTrace {
	// The task that locks second reads x == 2.
	j, index := 2, 1
	tick0, tick1 := uint64(2), uint64(1)
	if first == 0 {
		j, index = 1, 2
		tick0, tick1 = 1, 2
	}
	m := newMem(f.g)
	m.add(ids+1, 0, 0, 0,
		clock(t0), blk(f.m0), spawn(f.m0, ids+2, 1), blk(f.m1), spawn(f.m1, ids+3, 1),
		blk(f.m2), wait(f.m2, trace.OpWGWait, t0+10, t0+500), ret(f.m0))
	task0 := []trace.Event{blk(f.t0), out(tick0), blk(f.t1)}
	if j == 2 {
		task0 = append(task0, blk(f.tThen))
	} else {
		task0 = append(task0, blk(f.tElse))
	}
	task0 = append(task0, blk(f.tEnd), ret(f.t0))
	m.add(ids+2, ids+1, uint32(f.m0), 1, probedOnly(f.g, task0)...)
	task1 := []trace.Event{blk(f.c0), out(tick1), blk(f.c1)}
	for range index {
		task1 = append(task1, blk(f.cBody))
	}
	task1 = append(task1, blk(f.cDone), ret(f.c0))
	m.add(ids+3, ids+1, uint32(f.m1), 1, probedOnly(f.g, task1)...)
	return m
}

// TestFigure1 corresponds the two executions of Figure 1b as Figure 1c does:
// the lock statements equal (2) despite the lock order, the if diverging with
// B5 against B6-B7 (5), the extra iteration (7) on one side only.
func TestFigure1(t *testing.T) {
	f := newFig1(t)
	got, rep := correspondence(t, f.run(1, 0, 1000), f.run(0, 100, 5000), f.labels)
	golden(t, "figure1.golden", got)
	// (5): 1 + fanout 2 + tcp 0; (7): 1 + fanout 2 + tcp |1-2|.
	if len(rep.Sections) != 2 || rep.Distance != 7 {
		t.Errorf("got %d sections, distance %v; want 2 sections, distance 7 (3 + 4)", len(rep.Sections), rep.Distance)
	}
	if rep.Summary.LockOrder != 2 {
		t.Errorf("lock order notes = %d, want 2 (one per task)", rep.Summary.LockOrder)
	}
}

// fig2 is the Go port of the paper's Figure 2, task 0:
//
//	10 func task0() {
//	11 	lk.Lock()
//	12 	x = x + 1
//	13 	i := x
//	14 	lk.Unlock()
//	15 	for j := 0; j < i; j++ {
//	16 		if even(i - j) {
//	17 			doSomething()
//	18 		} else {
//	19 			doSomethingDifferent()
//	20 		}
//	21 		k = k + 1
//	22 	}
//	23 }
type fig2 struct {
	g                                        *tbb.Graph
	labels                                   map[int]string
	entry, crit, body, then, els, join, done int
}

func newFig2(t testing.TB) *fig2 {
	b := newBuilder("fig2/main.go")
	f := &fig2{}
	fn := b.fn("example.com/m.task0", 10)
	f.entry = b.block(fn, "entry", 11, true, "B0")
	f.crit = b.block(fn, "lock.after", 12, true, "B1-B3")
	head := b.block(fn, "for.loop", 15, false, "B4")
	f.body = b.block(fn, "for.body", 16, true, "B5")
	f.then = b.block(fn, "if.then", 17, true, "B6(then)")
	f.els = b.block(fn, "if.else", 19, true, "B6(else)")
	f.join = b.block(fn, "if.done", 21, true, "B7")
	post := b.block(fn, "for.post", 15, false, "B4(j++)")
	f.done = b.block(fn, "for.done", 23, true, "end")
	b.edge(f.entry, f.crit)
	b.edge(f.crit, head)
	b.edge(head, f.body, f.done)
	b.edge(f.body, f.then, f.els)
	b.edge(f.then, f.join)
	b.edge(f.els, f.join)
	b.edge(f.join, post)
	b.edge(post, head)
	b.exit(f.done)
	b.tcp(f.entry, tbb.Lock, 11, f.crit)
	b.tcp(head, tbb.Loop, 15, f.done)
	b.tcp(f.body, tbb.Branch, 16, f.join)
	f.g = b.graph(t)
	f.labels = b.labels
	return f
}

func (f *fig2) run(i int) *memTrace {
	evs := []trace.Event{blk(f.entry), out(1), blk(f.crit)}
	for j := 0; j < i; j++ {
		evs = append(evs, blk(f.body))
		if (i-j)%2 == 0 {
			evs = append(evs, blk(f.then))
		} else {
			evs = append(evs, blk(f.els))
		}
		evs = append(evs, blk(f.join))
	}
	evs = append(evs, blk(f.done), ret(f.entry))
	return newMem(f.g).add(1, 0, 0, 0, probedOnly(f.g, evs)...)
}

// probedOnly drops the block events of blocks the graph does not probe:
// the runs above list every block a task passes that could carry a probe,
// and the analyzer's graphs take some probes away (internal/flow, "Fewer
// probes"); a reader must put those blocks back.
func probedOnly(g *tbb.Graph, evs []trace.Event) []trace.Event {
	var out []trace.Event
	for _, ev := range evs {
		if ev.Kind == trace.EvBlock && !g.Blocks[ev.Block].Probe {
			continue
		}
		out = append(out, ev)
	}
	return out
}

// TestFigure2 gives the correspondences §8 describes: i odd against even
// pairs iterations from the start, so every paired iteration's if diverges
// (the "bad choice"); both even (or both odd) pair equal iterations and
// leave only the extra iterations divergent.
func TestFigure2(t *testing.T) {
	f := newFig2(t)
	tests := []struct {
		name     string
		ia, ib   int
		sections int
	}{
		{"odd-even", 1, 2, 2},
		{"odd-even-long", 3, 4, 4},
		{"even-even", 2, 4, 1},
		{"odd-odd", 1, 3, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rep := correspondence(t, f.run(tt.ia), f.run(tt.ib), f.labels)
			golden(t, "figure2-"+tt.name+".golden", got)
			if len(rep.Sections) != tt.sections {
				t.Errorf("got %d sections, want %d", len(rep.Sections), tt.sections)
			}
		})
	}
}
