package runtime

import (
	"math"
	"os"
	goruntime "runtime"
	"strings"
	"sync/atomic"
	"time"
	_ "unsafe" // for go:linkname
)

// Timestamps. Every send, receive, lock and unlock reads the clock, so on a
// program that synchronizes often the clock is a good part of what
// recording costs. The Go runtime's nanotime takes about 23 ns where the
// CPU's time-stamp counter takes about 10 (BenchmarkClock; both in a
// loop, on one machine); in wordcount, nanotime was 13% of what recording
// added (perf). So buffers hold raw stamps of the cheapest sound counter,
// and the writer converts them to nanoseconds since the trace's start
// when it encodes a chunk, with a scale measured against nanotime at that
// moment (stampConv). The file holds nanoseconds as before.
//
// The counter is the TSC on linux/amd64 when the CPU says it is invariant
// (constant rate, not stopped in deep idle states) and the kernel itself
// keeps time with it (its clocksource is "tsc", which it chooses only after
// checking that the counters of all CPUs agree). Everywhere else the stamp
// is nanotime, and conversion is exact subtraction.

// nanotime is the Go runtime's monotonic clock: about 22 ns against 43 for
// time.Now on the machines we measured, and monotonic.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

// useTSC is decided once, before the first stamp (begin).
var useTSC bool

// now returns a stamp, the raw clock: TSC ticks when useTSC, else nanotime.
func now() int64 {
	if useTSC {
		return rdtsc()
	}
	return nanotime()
}

// tscUsable reports whether the TSC can stand in for nanotime.
func tscUsable() bool {
	if goruntime.GOOS != "linux" || !haveTSC || !invariantTSC() {
		return false
	}
	b, err := os.ReadFile("/sys/devices/system/clocksource/clocksource0/current_clocksource")
	return err == nil && strings.TrimSpace(string(b)) == "tsc"
}

// calibration is a stamp and the nanotime of the same moment.
type calibration struct{ t, n int64 }

// calibrate reads the stamp and nanotime together: the stamp is the middle
// of two reads around nanotime, and the closest of three tries counts, so
// that a thread descheduled between the reads does not skew the scale.
func calibrate() calibration {
	if !useTSC {
		n := nanotime()
		return calibration{n, n}
	}
	best, spread := calibration{}, int64(math.MaxInt64)
	for range 3 {
		a := rdtsc()
		n := nanotime()
		b := rdtsc()
		if d := b - a; d >= 0 && d < spread {
			best, spread = calibration{a + d/2, n}, d
		}
	}
	return best
}

// stampConv turns one goroutine's stamps into nanoseconds since the
// trace's start, for one chunk: ns = n0 + (t - t0)·k, where (t0, n0) was
// read at the start of recording and k is measured from then to now. An
// error of d ns in reading a calibration pair moves a time t by about
// d·t/now ≤ d, so chunks converted at different moments agree to within a
// few tens of nanoseconds. ns never goes below what the goroutine's stream
// already holds (floor), so that its times stay ordered across chunks.
type stampConv struct {
	t0    int64   // stamp at the calibration
	n0    int64   // its time in ns since the trace's start
	k     float64 // ns per stamp unit
	floor int64   // the latest time converted so far
	start int64   // floor when the conversion began
	// ordered: ns keeps to the floor. Off only for words written by
	// hand in tests, whose times need not be in order.
	ordered bool
}

// newStampConv returns the conversion for a chunk of the goroutine whose
// stream holds times up to floor.
func newStampConv(floor int64) stampConv {
	cal, base := sess.cal, sess.base.Load()
	cv := stampConv{t0: cal.t, n0: cal.n - base, k: 1, floor: floor, start: floor, ordered: true}
	if useTSC {
		cv.k = scaleSince(cal, calibrate())
	}
	return cv
}

// scaleSince is the ns per stamp unit between two calibrations. Once they
// are a millisecond apart the scale is kept for longer.
func scaleSince(a, b calibration) float64 {
	if b.t <= a.t || b.n < a.n {
		// Not apart at all (or a counter gone back): the last scale
		// measured, or one stamp per ns.
		if k := math.Float64frombits(sess.k.Load()); k > 0 {
			return k
		}
		return 1
	}
	k := float64(b.n-a.n) / float64(b.t-a.t)
	if b.n-a.n > int64(time.Millisecond) {
		sess.k.Store(math.Float64bits(k))
		if ar := sess.arena; ar != nil {
			atomic.StoreUint64(&ar.header().k, math.Float64bits(k))
		}
	}
	return k
}

// raw converts t without the floor.
func (cv *stampConv) raw(t int64) int64 {
	if cv.k == 1 { // nanotime stamps: exact
		return cv.n0 + (t - cv.t0)
	}
	return cv.n0 + int64(float64(t-cv.t0)*cv.k)
}

// ns converts t, never below the floor, and raises the floor.
func (cv *stampConv) ns(t int64) int64 {
	v := cv.raw(t)
	if cv.ordered {
		v = max(v, cv.floor)
		cv.floor = v
	}
	return v
}

// longer reports whether stamps begin..end span more than d, for the
// operations that tell a wait by its length (select, WaitGroup.Wait,
// Once.Do). The scale is the last one the writer measured, or one measured
// now until then.
func longer(begin, end int64, d time.Duration) bool {
	if !useTSC {
		return end-begin > int64(d)
	}
	k := math.Float64frombits(sess.k.Load())
	if k == 0 {
		k = scaleSince(sess.cal, calibrate())
	}
	return float64(end-begin)*k > float64(d)
}
