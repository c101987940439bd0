package runtime

import "reflect"

// A select's pick under controlled scheduling. Go picks among a select's
// ready cases at random, from its own generator: a schedule of priorities
// alone would leave a test decided by that pick (a tick against a cancel,
// a fired timer against a ready channel) to Go. So SelectBegin asks for a
// pick (selCtl) and SelectForce, where the instrumenter could write it
// (selforce.go), lets the scheduler choose: the cases are tried one at a
// time, without blocking, in an order drawn from the goroutine's PRNG, and
// the first ready one is taken; a select none of whose cases is ready
// takes its default, or waits for the first to become ready, as Go would.
// The choice then goes through selforce.go's stand-ins, so the select's
// bodies run where they are. Given the same ready cases, the same seed
// makes the same pick; the goroutine keeps the run from its select's hook
// until it has looked at every case (block leaves it the run), so that
// the ready cases are those the schedule made ready. A select the
// instrumenter could not force (selforce.go) keeps it too, and if it then
// waits, the others go on after ctlPatience.

// selCtl in selForce.force asks SelectForce for the scheduler's pick.
const selCtl = 0xff

// ctlSelect carries out the select of cases, choosing among the ready
// ones in an order drawn from g's PRNG.
func (g *G) ctlSelect(cases []reflect.SelectCase) {
	g.sel.force, g.cg.inSelect = 0, false
	n := len(cases)
	order := make([]int, 0, n)
	def := -1
	for i, c := range cases {
		if c.Dir == reflect.SelectDefault {
			def = i
			continue
		}
		order = append(order, i)
	}
	for i := len(order) - 1; i > 0; i-- { // Fisher-Yates from the PRNG
		g.rng += 0x9e3779b97f4a7c15
		j := int(mix(g.rng) % uint64(i+1))
		order[i], order[j] = order[j], order[i]
	}
	try := []reflect.SelectCase{{}, {Dir: reflect.SelectDefault}}
	for _, i := range order {
		if cases[i].Chan.IsNil() {
			continue // a nil channel is never ready
		}
		try[0] = cases[i]
		obj := uint64(cases[i].Chan.Pointer())
		g.ctlNoteWaiters(obj) // a goroutine blocked on it wakes if the case is taken (schedwake.go)
		if chosen, recv, ok := reflect.Select(try); chosen == 0 {
			g.choose(cases, i, recv, ok)
			return
		}
	}
	g.cg.lastObj = 0
	if def >= 0 {
		g.choose(cases, def, reflect.Value{}, false)
		return
	}
	g.ctlRelease() // the others run while it waits, as block would have let them
	objs := make([]uint64, 0, len(cases))
	for _, c := range cases {
		objs = append(objs, uint64(c.Chan.Pointer()))
	}
	g.ctlBlockedInGo(objs...)
	chosen, recv, ok := reflect.Select(cases)
	g.choose(cases, chosen, recv, ok)
}

// choose leaves clause c, which received recv (ok as a receive's), for
// Case.
func (g *G) choose(cases []reflect.SelectCase, c int, recv reflect.Value, ok bool) {
	g.sel.pick = uint8(c + 1)
	g.sel.stand = standIn(cases[c], recv, ok)
}
