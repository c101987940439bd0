package compare

import (
	"math"
	"math/bits"

	"github.com/divergo/divergo/internal/steps"
	"github.com/divergo/divergo/internal/tbb"
)

// How a pair keeps its sections until Traces writes the report. A Section
// is 344 bytes, most of them what the pair or the blocks say (goroutines,
// spawn path, the points' names and positions) or what follows from its
// two sides (the paper's measures). A pair of thousands of sections spent
// a third of its time growing one slice of them, formatting positions and,
// in the benchmark's loop, collecting that garbage; it now keeps what is
// its own, 184 bytes, in chunks that never move, and Traces writes each
// Section once, into a report sized for all of them.

// keptSection is a section as the pair keeps it.
type keptSection struct {
	at, cp                     int32    // change and convergence point blocks
	t                          *tbb.TCP // the deciding TCP, nil at an unflagged block
	unflagged, cut, unresolved bool
	a, b                       Side
	stepsA, stepsB             steps.Span
	whenA, whenB               startTime // when.go
}

// sectionList is a pair's sections, with what they share.
type sectionList struct {
	chunks [][]keptSection
	n      int
	ga, gb uint64
	spawn  string
	w      Weights
}

// sectionChunk is how many sections a chunk holds: 23 KB, under the 32 KB
// above which each allocation takes pages of its own that the runtime
// hands back to the system once they are free.
const sectionChunk = 128

// next returns where the next section is kept, zero. Chunks start at 8
// sections and double up to sectionChunk, so that a pair of one section
// (a worker pool's goroutines) does not take 23 KB.
func (l *sectionList) next() *keptSection {
	if k := len(l.chunks); k == 0 || len(l.chunks[k-1]) == cap(l.chunks[k-1]) {
		l.chunks = append(l.chunks, make([]keptSection, 0, chunkSize(k)))
	}
	last := &l.chunks[len(l.chunks)-1]
	*last = (*last)[:len(*last)+1]
	l.n++
	return &(*last)[len(*last)-1]
}

// chunkSize is the capacity of a list's chunk k: 8<<k up to sectionChunk.
// The shift is bounded before it is taken: 8<<k wraps to zero or a
// negative number from k = 60 on (7,500 sections), and makeslice panics.
func chunkSize(k int) int {
	if k >= bits.Len(sectionChunk/8) {
		return sectionChunk
	}
	return 8 << k
}

// appendTo appends the sections to dst, in order.
func (l *sectionList) appendTo(dst []Section, pc *pointCache, p *program) []Section {
	for _, ch := range l.chunks {
		for i := range ch {
			dst = append(dst, l.section(&ch[i], pc, p))
		}
	}
	return dst
}

// section is the report's Section of k.
func (l *sectionList) section(k *keptSection, pc *pointCache, p *program) Section {
	sec := Section{
		Goroutine:  l.ga,
		GoroutineB: l.gb,
		Spawn:      l.spawn,
		Unflagged:  k.unflagged,
		CutOff:     k.cut,
		Unresolved: k.unresolved,
		A:          k.a,
		B:          k.b,
		StepsA:     k.stepsA,
		StepsB:     k.stepsB,
	}
	sec.TCP = pc.tcpPoint(p, k.at, k.t)
	sec.CP = pc.point(p, k.cp)
	if k.cp == noBlock {
		sec.CP.Func = sec.TCP.Func
	}
	if k.at == noBlock {
		// Diverged before any common block: the section is the whole
		// goroutine.
		sec.TCP = Point{Pos: "-", Block: -1}
		sec.CP = Point{Pos: "end", Block: -1}
	}
	sec.Fanout = k.a.Depth + k.b.Depth
	sec.TCPDistance = abs64(k.a.TCPs - k.b.TCPs)
	sec.TCPFreqDistance = math.Abs(freq(&k.a) - freq(&k.b))
	sec.Distance = l.w.D + float64(sec.Fanout)*l.w.ND + float64(sec.TCPDistance)*l.w.TR
	return sec
}

// freq is the TCP frequency of one side of a section: TCP instances per
// block execution, counting the diverging block, which both sides share.
func freq(s *Side) float64 { return float64(s.TCPs) / float64(s.Blocks+1) }

// pointCache formats the Points of the blocks met as change and
// convergence points once: a section names two, and formatting a position
// per section was a third of a dense pair's time in record.
type pointCache struct {
	points    map[int32]Point
	tcpPoints map[tcpKey]Point
	// The last of each, looked up first: a loop's sections part and meet
	// at the same two blocks.
	lastPoint    Point
	lastTCP      tcpKey
	lastTCPPoint Point
}

type tcpKey struct {
	at int32
	t  *tbb.TCP
}

// tcpPoint is the Point of a section's change point: block at, deciding
// TCP t ("none" when nil).
func (c *pointCache) tcpPoint(p *program, at int32, t *tbb.TCP) Point {
	k := tcpKey{at, t}
	if c.lastTCP == k && c.lastTCPPoint.Pos != "" {
		return c.lastTCPPoint
	}
	pt, ok := c.tcpPoints[k]
	if !ok {
		if c.tcpPoints == nil {
			c.tcpPoints = map[tcpKey]Point{}
		}
		pt = c.point(p, at)
		pt.Kind = "none"
		if t != nil {
			pt.Kind = string(t.Kind)
			pt.Pos = t.Pos.FileLine()
		}
		c.tcpPoints[k] = pt
	}
	c.lastTCP, c.lastTCPPoint = k, pt
	return pt
}

// point is p.point(b).
func (c *pointCache) point(p *program, b int32) Point {
	if c.lastPoint.Block == int(b) && c.lastPoint.Pos != "" {
		return c.lastPoint
	}
	pt, ok := c.points[b]
	if !ok {
		if c.points == nil {
			c.points = map[int32]Point{}
		}
		pt = p.point(b)
		c.points[b] = pt
	}
	if b != noBlock {
		c.lastPoint = pt
	}
	return pt
}
