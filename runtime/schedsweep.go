package runtime

// The sweep: DIVERGO_SCHED=sweep:I, I the run's index among the sweep's
// runs (divergo test counts them). A shallow bug of a short test is one
// change of who runs at one step of a few, with the goroutines in one of
// two orders: PCT draws both, and meets that step with probability about
// 1/(2K) per run, K the steps it draws among, where the sweep goes through
// them in turn: run I puts its one change point (depth 2) on step
// 1+(I/2) mod sweepSpan of each test, and starts its goroutines' priorities
// newest first when I is even, oldest first when odd (the goroutine a
// parent started before the parent, or the other way: newest first, since
// a plain run goes on in the parent after a go statement, and so takes the
// other order more often). With two goroutines, its first 2n runs are
// every schedule of at most one change in the first n steps, what CHESS's
// preemption bound 1 explores; TestLostWakeup of testdata/flaky (the
// waiter first, then the setter from the waiter's second Lock) fails at
// I=4 and at every I ≡ 4 mod 2·sweepSpan. The
// orders come from when each goroutine was started (its recorder's id,
// handed out in the order the serialised run spawns them), not from the
// seed: the seed goes on deciding a select's pick among ready cases.

// sweepSpan is how many steps of a test the sweep goes through before it
// starts over: 2·sweepSpan runs. A test's shallow bugs come in its first
// steps; PCT's families, drawn among up to 4096 steps, meet the later ones.
const sweepSpan = 16

// sweepStep is the change point of sweep run i.
func sweepStep(i int) int64 { return 1 + int64(i/2%sweepSpan) }

// firstPrio is the priority g starts with: under the sweep, by the order
// goroutines were started, oldest or newest first; else drawn from its
// identity (initialPrio). Either is above every lowered one.
func (g *G) firstPrio() uint64 {
	if ctl.sweep == 0 {
		return initialPrio(g.ident)
	}
	if (ctl.sweep-1)%2 == 0 { // newest first
		return uint64(maxDepth) + 1 + g.id
	}
	return uint64(maxDepth) + 1 + (1<<62 - g.id)
}
