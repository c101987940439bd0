package compare

import (
	"fmt"
	"time"
)

// When a section began. A stream knows the time only at its timestamps
// (clock and sync events); between two of them a point's time is
// interpolated by the instructions executed, as FORMAT.md's "Durations"
// spreads a stretch's time. The walk does not look ahead, so a section's
// start keeps the timestamp before it and its instructions since, and the
// stream fills in the next timestamp when it comes. Interpolated between
// two timestamps of the goroutine, a start always lies within the
// goroutine's recorded span: extrapolated at the last interval's rate, as
// it was, a start after a long stretch without timestamps (main waiting
// inside g.Wait, code divergo does not see) came out at main's start, and
// elsewhere after the goroutine had ended.

// startTime is what a stream knows of when a point of it ran.
type startTime struct {
	lo, hi int64 // the timestamps before and after it (ns)
	before int64 // instructions from lo to the point
	span   int64 // instructions from lo to hi
	known  bool  // a timestamp came before the point: lo is set
	closed bool  // and one after it: hi is set
}

// at is the point's time and how far apart the timestamps around it are:
// 0 for a time taken at a timestamp, -1 when no timestamp followed it (the
// goroutine was cut off; the time is then lo, a lower bound). ok is false
// when no timestamp came before it: the time is not known.
func (st *startTime) at() (t, within int64, ok bool) {
	switch {
	case !st.known:
		return 0, 0, false
	case !st.closed:
		return st.lo, -1, true
	case st.span <= 0 || st.before <= 0:
		return st.lo, st.hi - st.lo, true
	}
	f := min(float64(st.before)/float64(st.span), 1)
	t = st.lo + int64(f*float64(st.hi-st.lo))
	return min(max(t, st.lo), st.hi), st.hi - st.lo, true
}

// mark starts following when the stream's current point ran into p: the
// next timestamp closes it.
func (s *stream) mark(p *startTime) {
	*p = startTime{lo: s.now, before: s.instrs - s.instrsAt, known: s.stamped}
	if p.known {
		s.open = append(s.open, p)
	}
}

// move hands the following of from over to to, where the point's time is
// kept from now on.
func (s *stream) move(from, to *startTime) {
	*to = *from
	for i, p := range s.open {
		if p == from {
			s.open[i] = to
		}
	}
}

// closeOpen gives the points still open the timestamp t, which follows
// them; the caller has not yet made t the stream's latest.
func (s *stream) closeOpen(t int64) {
	for _, p := range s.open {
		p.hi, p.span, p.closed = t, s.instrs-s.instrsAt, true
	}
	s.open = s.open[:0]
}

// setStart sets a side's start from what its stream learned of it.
func setStart(sd *Side, st *startTime) {
	t, within, ok := st.at()
	if !ok {
		sd.StartNS, sd.StartSpanNS = 0, 0
		return
	}
	sd.StartNS, sd.StartSpanNS = t, within
}

// settleStarts sets the start of every section of the pair, once both
// streams have been read to their end.
func (c *pairCmp) settleStarts() {
	for _, ch := range c.sections.chunks {
		for i := range ch {
			k := &ch[i]
			setStart(&k.a, &k.whenA)
			setStart(&k.b, &k.whenB)
		}
	}
	c.a.open, c.b.open = c.a.open[:0], c.b.open[:0]
}

// firstParted is the section that began first in time on side A, by the
// best time known for each; sections of no known time come after all
// others, in their order.
func firstParted(secs []Section) Section {
	first := secs[0]
	for _, sec := range secs[1:] {
		if known(sec.A) && (!known(first.A) || sec.A.StartNS < first.A.StartNS) {
			first = sec
		}
	}
	return first
}

func known(sd Side) bool { return sd.StartNS > 0 }

// exactWithin is how far apart a start's timestamps may be for its time to
// be printed as known: 10 µs, or a tenth of the time itself.
func exactWithin(t int64) int64 { return max(10*int64(time.Microsecond), t/10) }

// whenText says when a side's section began, for the summary: ", 1.2ms
// into a.dvt" when the timestamps around it are close, ", at about ..."
// when they are as far apart as the time itself, nothing when they are
// farther or the time is not known (no timestamp before it, or none after
// it: a goroutine cut off).
func whenText(sd Side, name string) string {
	if !known(sd) || sd.StartSpanNS < 0 || sd.StartSpanNS > sd.StartNS {
		return ""
	}
	t := time.Duration(sd.StartNS).Round(time.Microsecond)
	if sd.StartSpanNS <= exactWithin(sd.StartNS) {
		return fmt.Sprintf(", %s into %s", t, name)
	}
	return fmt.Sprintf(", at about %s into %s", t, name)
}
