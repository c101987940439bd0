package runtime

import (
	"fmt"
	"os"
	goruntime "runtime"
	"strconv"
	"time"
)

// Schedule exploration. DIVERGO_PERTURB=SEED (an integer) makes every sync
// wrapper, and the start of every goroutine started through Spawn, first
// do one of: nothing, runtime.Gosched, or a sleep of a few microseconds.
// Runs under different seeds then explore different interleavings on
// purpose, which is what "divergo check" needs to meet the change points
// the analyzer missed.
//
// Each goroutine draws its decisions from a PRNG of its own whose state
// starts from its identity: main's is the seed, a child's is its parent's
// mixed with the go statement's site and the spawn's ordinal there. Goroutine
// ids and recorder ids depend on the schedule, so they are not used: the
// sequence of decisions of a goroutine depends only on the seed and its
// spawn path. (What the schedule does with those decisions still varies
// between runs; the point is that the perturbation does not.) Goroutines
// started by uninstrumented code have no spawn path and draw from their
// recorder id.
//
// Perturbation needs recording: with DIVERGO_TRACE=off there is no
// per-goroutine state to draw from, and nothing is perturbed. The block
// probe never perturbs.

// perturbOn and perturbSeed are set once by begin, before any recorder
// exists, and only read afterwards; so is hooked, which says the schedule
// hook does something: perturb, or replay a schedule (replay.go).
var (
	perturbOn   bool
	perturbSeed uint64
	hooked      bool
)

// maxPerturbSleep bounds the random sleep. A few tens of microseconds is
// long enough to let another runnable goroutine overtake (a goroutine
// switch costs well under a microsecond), short enough that a program with
// thousands of sync operations still ends in reasonable time.
const maxPerturbSleep = 50 * time.Microsecond

// readPerturb reads DIVERGO_PERTURB. A value that is not an integer is
// reported once and ignored: the program runs unperturbed rather than fail.
func readPerturb() {
	perturbOn, perturbSeed, hooked = false, 0, replay.on
	readStrength()
	v := os.Getenv("DIVERGO_PERTURB")
	if v == "" {
		return
	}
	seed, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		fmt.Fprintf(os.Stderr, "divergo: DIVERGO_PERTURB=%q is not an integer seed; not perturbing\n", v)
		return
	}
	perturbOn, perturbSeed, hooked = true, uint64(seed), true
}

// PerturbSeed reports the seed of DIVERGO_PERTURB and whether perturbation
// is on (false before recording starts).
func PerturbSeed() (int64, bool) { return int64(perturbSeed), perturbOn }

// mix is SplitMix64's finaliser: a bijection on uint64 whose outputs for
// nearby inputs look independent, so that identities that differ in one
// ordinal start unrelated sequences.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// rootIdent is the identity of main's goroutine under seed.
func rootIdent(seed uint64) uint64 { return mix(seed ^ 0x6469766572676f) } // "divergo"

// childIdent is the identity of the ordinal-th goroutine started by the go
// statement at site in a goroutine of identity parent.
func childIdent(parent uint64, site, ordinal uint32) uint64 {
	return mix(parent ^ mix(uint64(site)<<32|uint64(ordinal)))
}

// orphanIdent is the identity of a goroutine not started through Spawn.
func orphanIdent(seed, id uint64) uint64 { return mix(seed ^ mix(id^0xffffffff00000000)) }

// action is one perturbation decision.
type action struct {
	yield bool
	sleep time.Duration // > 0: sleep this long
}

// decide draws the next decision from state: half the time nothing, a
// quarter a yield, a quarter a sleep of 1 to maxPerturbSleep microseconds.
// It is pure in *state: the same state gives the same decisions.
func decide(state *uint64) action {
	*state += 0x9e3779b97f4a7c15 // SplitMix64's increment
	v := mix(*state)
	switch strengthen(v) { // v&7 unless DIVERGO_PERTURB_STRENGTH is set (strength.go)
	case 4, 5:
		return action{yield: true}
	case 6, 7:
		us := 1 + (v>>8)%uint64(maxPerturbSleep/time.Microsecond)
		return action{sleep: time.Duration(us) * time.Microsecond}
	}
	return action{}
}

// perturb is the schedule hook: every sync wrapper calls it before the
// operation. Off, it is one predictable branch; it must stay small enough
// to inline.
func (g *G) perturb() {
	if hooked {
		g.perturbSlow()
	}
}

// perturbSlow carries out the next decision and records it as a perturb
// event, begin and end, so that readers give its time to divergo and not
// to the blocks around it (waittime's state perturb): it comes before the
// wrapper reads its own clock, and without the event the delay would be
// spread over the blocks the goroutine ran since its last timestamp.
//
// Under DIVERGO_REPLAY it then waits for the operation's turn
// (replay.go): the order of the operations is the replayed run's, and the
// delays of its seed, before the wait, give back the time it took, which
// a test with a deadline may fail on.
//
//go:noinline
func (g *G) perturbSlow() {
	if ctl.on {
		g.ctlHook() // instead of delays (sched.go)
		return
	}
	if perturbOn {
		g.perturbDelay()
	}
	if replay.on {
		g.waitTurn()
	}
}

// perturbDelay carries out the next decision.
func (g *G) perturbDelay() {
	a := decide(&g.rng)
	if a.sleep == 0 && !a.yield {
		return
	}
	begin := now()
	if a.sleep > 0 {
		delay(a.sleep)
	} else {
		goruntime.Gosched()
	}
	end := now()
	g.put(opPerturb, 0, lo(uint64(begin)), hi(uint64(begin)), lo(uint64(end)), hi(uint64(end)))
}

// delay holds the goroutine for d, yielding to others until then, instead
// of time.Sleep: a sleep of a few microseconds parks the goroutine on a
// timer, and when every goroutine is parked the Go runtime waits for the
// timer in the network poller, whose timeout on Linux is in whole
// milliseconds. A mutex-heavy program (four goroutines taking one mutex
// 80000 times) ran 4.0-4.4 s perturbed against 0.14-0.29 s recorded
// unperturbed; yielding until the deadline keeps the delay near d
// (docs/PERFORMANCE.md, "Perturbation").
func delay(d time.Duration) {
	end := nanotime() + int64(d)
	for nanotime() < end {
		goruntime.Gosched()
	}
}
