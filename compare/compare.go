package compare

import (
	"fmt"
	"io"
	"runtime"
	"sort"
	"sync"
)

// Traces compares two traces of the same program and reports where and how
// far their goroutines diverged. It reads every goroutine's events once,
// front to back, comparing up to Options.Parallel pairs at a time; its
// memory is the graph plus, per pair being compared, two batches of events,
// the caches of what the streams learnt of the graph (kept from one pair to
// the next) and the call stacks.
func Traces(a, b Trace, opts Options) (*Report, error) {
	if err := SameProgram(a, b); err != nil {
		return nil, err
	}
	p, err := newProgram(a.Graph())
	if err != nil {
		return nil, fmt.Errorf("program graph: %w", err)
	}
	pairs, onlyA, onlyB, err := match(p, a.Goroutines(), b.Goroutines())
	if err != nil {
		return nil, err
	}
	if opts.Weights == (Weights{}) {
		opts.Weights = DefaultWeights
	}

	type result struct {
		sections         sectionList
		locks            []LockOrder
		blocksA, blocksB int64
		tcps             int64
		anomalies        int64
		err              error
	}
	nPairs := len(pairs)
	results := make([]result, nPairs+len(onlyA)+len(onlyB))
	jobs := make(chan int)
	workers := opts.Parallel
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newCache(p)
			for i := range jobs {
				r := &results[i]
				switch {
				case i < nPairs:
					c, err := comparePair(p, c, a, b, pairs[i], opts)
					if err != nil {
						r.err = fmt.Errorf("goroutine %d (%s): %w", pairs[i].a, pairs[i].spawn, err)
						continue
					}
					r.sections = c.sections
					r.blocksA, r.blocksB = c.a.nblocks, c.b.nblocks
					r.anomalies = c.a.anomalies() + c.b.anomalies()
					for blk, n := range c.locks {
						r.locks = append(r.locks, LockOrder{Goroutine: pairs[i].a, TCP: lockPoint(p, blk), Count: n})
					}
				case i < nPairs+len(onlyA):
					l := onlyA[i-nPairs]
					r.blocksA, r.tcps, r.err = size(p, c, a, l.id)
					if r.err != nil {
						r.err = fmt.Errorf("trace a: goroutine %d: %w", l.id, r.err)
					}
				default:
					l := onlyB[i-nPairs-len(onlyA)]
					r.blocksB, r.tcps, r.err = size(p, c, b, l.id)
					if r.err != nil {
						r.err = fmt.Errorf("trace b: goroutine %d: %w", l.id, r.err)
					}
				}
			}
		}()
	}
	for i := range results {
		jobs <- i
	}
	close(jobs)
	wg.Wait()

	w := opts.Weights
	nsecs := 0
	for _, r := range results {
		if r.err != nil {
			return nil, r.err
		}
		nsecs += r.sections.n
	}
	var points pointCache
	rep := &Report{Goroutines: Goroutines{Matched: []Pair{}, OnlyA: []Lone{}, OnlyB: []Lone{}}, Sections: make([]Section, 0, nsecs), LockOrder: []LockOrder{}, Inputs: DiffInputs(a, b)}
	for i := range results {
		r := &results[i]
		switch {
		case i < nPairs:
			pr := pairs[i]
			rep.Goroutines.Matched = append(rep.Goroutines.Matched, Pair{A: pr.a, B: pr.b, Spawn: pr.spawn, BlocksA: r.blocksA, BlocksB: r.blocksB, Sections: r.sections.n})
			rep.Sections = r.sections.appendTo(rep.Sections, &points, p)
			sort.Slice(r.locks, func(i, j int) bool { return r.locks[i].TCP.Block < r.locks[j].TCP.Block })
			rep.LockOrder = append(rep.LockOrder, r.locks...)
			rep.Summary.BlocksA += r.blocksA
			rep.Summary.BlocksB += r.blocksB
			rep.Summary.Anomalies += r.anomalies
		case i < nPairs+len(onlyA):
			l := onlyA[i-nPairs]
			rep.Goroutines.OnlyA = append(rep.Goroutines.OnlyA, Lone{ID: l.id, Spawn: l.spawn, Blocks: r.blocksA, TCPs: r.tcps})
			rep.Distance += w.D + float64(r.tcps)*w.TR
		default:
			l := onlyB[i-nPairs-len(onlyA)]
			rep.Goroutines.OnlyB = append(rep.Goroutines.OnlyB, Lone{ID: l.id, Spawn: l.spawn, Blocks: r.blocksB, TCPs: r.tcps})
			rep.Distance += w.D + float64(r.tcps)*w.TR
		}
	}
	for _, s := range rep.Sections {
		rep.Distance += s.Distance
		if s.Unflagged {
			rep.Summary.Unflagged++
		}
		if s.CutOff {
			rep.Summary.CutOff++
		}
	}
	for _, l := range rep.LockOrder {
		rep.Summary.LockOrder += l.Count
	}
	rep.Summary.Distance = rep.Distance
	rep.Summary.Sections = len(rep.Sections)
	rep.Summary.Matched = len(rep.Goroutines.Matched)
	rep.Summary.OnlyA = len(rep.Goroutines.OnlyA)
	rep.Summary.OnlyB = len(rep.Goroutines.OnlyB)
	rep.Summary.Same = len(rep.Sections) == 0 && len(onlyA) == 0 && len(onlyB) == 0
	rep.Summary.Graph = a.Graph().Hash
	rep.Summary.Weights = w
	rep.Groups = GroupSections(rep.Sections)
	if rep.Groups == nil {
		rep.Groups = []Group{}
	}
	return rep, nil
}

func lockPoint(p *program, blk int32) Point {
	pt := p.point(blk)
	if t := p.blocks[blk].outcome; t != nil {
		pt.Kind = string(t.Kind)
		pt.Pos = t.Pos.FileLine()
	}
	return pt
}

// comparePair opens both streams of a pair and runs Algorithm 1 on them.
func comparePair(p *program, pc *cache, a, b Trace, pr gPair, opts Options) (*pairCmp, error) {
	ra, err := a.Events(pr.a)
	if err != nil {
		return nil, fmt.Errorf("trace a: %w", err)
	}
	defer closeReader(ra)
	rb, err := b.Events(pr.b)
	if err != nil {
		return nil, fmt.Errorf("trace b: %w", err)
	}
	defer closeReader(rb)
	lock := opts.Observe == nil && !opts.tokensOnly
	_, rawA := ra.(rawEvents)
	_, rawB := rb.(rawEvents)
	raw := lock && rawA && rawB // only lockstep reads bytes
	c := &pairCmp{
		p: p, a: newStream(p, pc, 0, ra, raw), b: newStream(p, pc, 1, rb, raw),
		ga: pr.a, gb: pr.b, spawn: pr.spawn, observe: opts.Observe,
		unfinA: pr.unfinA, unfinB: pr.unfinB,
		lock: lock, locks: map[int32]int64{},
		sections: sectionList{ga: pr.a, gb: pr.b, spawn: pr.spawn, w: opts.Weights},
	}
	if err := c.run(); err != nil {
		return nil, err
	}
	c.settleStarts()
	return c, nil
}

// size reads a lone goroutine's stream for its block and TCP counts.
func size(p *program, c *cache, t Trace, id uint64) (blocks, tcps int64, err error) {
	r, err := t.Events(id)
	if err != nil {
		return 0, 0, err
	}
	defer closeReader(r)
	s := newStream(p, c, 0, r, false)
	for {
		tok, err := s.peek()
		if err != nil {
			return 0, 0, err
		}
		if tok.kind == tEnd {
			return s.nblocks, s.ntcps, nil
		}
		s.next()
	}
}

func closeReader(r EventReader) {
	if c, ok := r.(io.Closer); ok {
		c.Close()
	}
}

// Executed counts, per goroutine of t, the block executions a comparison
// walks: the probed blocks the trace recorded and the implied ones put back
// between them (docs/TBB.md). It is the count diff reports, which divergo
// show gives beside the recorded one.
func Executed(t Trace) (map[uint64]int64, error) {
	p, err := newProgram(t.Graph())
	if err != nil {
		return nil, fmt.Errorf("program graph: %w", err)
	}
	c := newCache(p)
	out := map[uint64]int64{}
	for _, g := range t.Goroutines() {
		n, _, err := size(p, c, t, g.ID)
		if err != nil {
			return nil, fmt.Errorf("goroutine %d: %w", g.ID, err)
		}
		out[g.ID] = n
	}
	return out, nil
}
