package runtime

import (
	"reflect"
	"time"
)

// Forcing a select's clause under replay. Go's select picks among its
// ready cases at random, and the outcome of a test can be that pick (a
// ticker's tick against a context's cancel, testdata/flaky's
// TestPollCancel): replaying the order of the turns alone then fails again
// only as often as the pick goes the same way. So a select's event records
// the clause it chose (trace.Event.Case), the schedule carries it on the
// select's turn, and the instrumenter writes each select it can as
//
//	_dvg_t = _dvg_r.SelectBegin(site)
//	if _dvg_r.Forcing() { _dvg_r.SelectForce(_dvg.SelRecv(a), _dvg.SelSend(b, v), _dvg.SelDefault()) }
//	select {
//	case x := <-_dvg.Case(_dvg_r, 0, a): ...
//	case _dvg.Case(_dvg_r, 1, b) <- v: ...
//	default: ...
//	}
//
// SelectForce makes the communication itself: it waits for the recorded
// clause's channel alone, as long as the replay's patience allows, then
// (never ready) for the whole select as written, default included. The
// select then finds only the chosen case ready: its channel is a stand-in
// holding what was received (or closed, for a receive from a closed
// channel; with room, for a send), every other case's channel is nil, and
// a chosen default leaves them all nil. The bodies stay where they are:
// break, continue, labels and goto keep their meaning, and nothing is
// duplicated.
//
// A recorded default is taken at once, without looking at the cases: the
// recorded run found none ready. A recorded case is waited for without the
// default, which would otherwise be taken before the case is ready.
//
// Off replay, or on a select whose turn recorded no clause, Forcing is
// false and Case returns its channel: one predictable branch each.

// selForce is the state of a goroutine's select under replay.
type selForce struct {
	force uint8         // the clause the replayed turn recorded, from 1; 0 for none
	pick  uint8         // the clause SelectForce chose, from 1; 0 when not forcing
	stand reflect.Value // the chosen case's stand-in channel, both ways
}

// Forcing reports whether the replay recorded the clause of the select
// whose SelectBegin just passed the schedule hook.
func (g *G) Forcing() bool { return g.sel.force != 0 }

// SelRecv is a receive case for SelectForce.
func SelRecv[E any](ch <-chan E) reflect.SelectCase {
	return reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ch)}
}

// SelSend is a send case of v for SelectForce.
func SelSend[E any](ch chan<- E, v E) reflect.SelectCase {
	return reflect.SelectCase{Dir: reflect.SelectSend, Chan: reflect.ValueOf(ch), Send: reflect.ValueOf(&v).Elem()}
}

// SelDefault is the default clause for SelectForce.
func SelDefault() reflect.SelectCase { return reflect.SelectCase{Dir: reflect.SelectDefault} }

// SelectForce carries out the select whose clauses are cases (in source
// order, the default counted), choosing the recorded clause if it becomes
// ready within the replay's patience, and leaves the choice for Case.
// A recorded clause the select does not have (a schedule of another
// build) forces nothing.
func (g *G) SelectForce(cases ...reflect.SelectCase) {
	if g.sel.force == selCtl {
		g.ctlSelect(cases)
		return
	}
	c := int(g.sel.force) - 1
	g.sel.force = 0
	if c < 0 || c >= len(cases) {
		return
	}
	chosen, recv, ok := c, reflect.Value{}, false
	if cases[c].Dir != reflect.SelectDefault {
		var took bool
		if recv, ok, took = awaitCase(cases[c], replayPatience); !took {
			chosen, recv, ok = reflect.Select(cases)
		}
	}
	g.sel.pick = uint8(chosen + 1)
	g.sel.stand = standIn(cases[chosen], recv, ok)
}

// awaitCase waits for the one case sc while the replay's counter moves: a
// turn taken means the run goes on and may yet make the case ready. It
// gives up once the counter has stood still for the patience, or the
// schedule has ended and the patience passed, as a turn does (replay.go).
// It reports what a receive got and whether the case was taken.
func awaitCase(sc reflect.SelectCase, patience time.Duration) (recv reflect.Value, ok, took bool) {
	t := time.NewTimer(patience)
	defer t.Stop()
	cases := []reflect.SelectCase{sc, {Dir: reflect.SelectRecv, Chan: reflect.ValueOf(t.C)}}
	last := replay.next.Load()
	for {
		i, v, recvOK := reflect.Select(cases)
		if i == 0 {
			return v, recvOK, true
		}
		cur := replay.next.Load()
		if cur == last || cur >= int64(len(replay.owner)) {
			return reflect.Value{}, false, false
		}
		last = cur
		t.Reset(patience) // fired and received: no stale tick
	}
}

// standIn is the channel the chosen case sc finds ready in the select
// that follows SelectForce: of sc's element type, holding recv (closed
// when the receive found sc's channel closed), or with room for a send;
// none for the default. It goes both ways: Case converts it to the type
// the select's operand has, which SelRecv and SelSend did not keep (a
// chan int received from is a <-chan int there).
func standIn(sc reflect.SelectCase, recv reflect.Value, ok bool) reflect.Value {
	if sc.Dir == reflect.SelectDefault {
		return reflect.Value{}
	}
	ch := reflect.MakeChan(reflect.ChanOf(reflect.BothDir, sc.Chan.Type().Elem()), 1)
	if sc.Dir == reflect.SelectRecv {
		if ok {
			ch.Send(recv)
		} else {
			ch.Close()
		}
	}
	return ch
}

// forced ends the forcing of a select, once it has chosen.
func (s *selForce) forced() { s.pick, s.stand = 0, reflect.Value{} }

// Case is the channel of clause c (from 0) in the select SelectForce
// prepared: the stand-in for the chosen clause, nil for every other. Not
// forcing, it is ch.
func Case[C any](g *G, c int, ch C) C {
	if g.sel.pick == 0 {
		return ch
	}
	if int(g.sel.pick) != c+1 {
		var none C
		return none
	}
	return g.sel.stand.Convert(reflect.TypeFor[C]()).Interface().(C)
}
