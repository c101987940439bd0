package perfetto

import (
	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/trace"
)

// run draws every goroutine of the run in the order of replay.Timeline, the
// merge waittime reads too, so that each wait is drawn after every release
// that could have ended it and names the releaser waittime names.
func (rs *runState) run() error {
	// Releasers by causality, paired in a merge of their own that the
	// timeline keeps ahead of its own: a wait is drawn when the timeline
	// reaches its end, and its releaser is final once the pairing has
	// passed that end by the slack.
	rs.pairs = replay.NewReleasers(rs.r, 0)
	rs.metadata()
	tl, err := replay.NewTimeline(rs.r, rs.paths, rs.pairs, 0)
	if err != nil {
		return err
	}
	// A stretch is drawn when its timestamp is due, with what the other
	// goroutines drew before that time.
	tl.Hold = true
	return tl.Run(rs)
}

// Open starts a goroutine's track when the merge reaches its start.
func (rs *runState) Open(l *replay.Lane) error {
	g := rs.gs[l.Info.ID]
	g.lane = l
	l.X = g
	g.begin()
	return nil
}

// Ran has nothing to do: the stretch is drawn when its timestamp is due.
func (rs *runState) Ran(*replay.Lane) error { return nil }

// Apply draws a goroutine's stretch up to its next timestamp and the
// timestamped event.
func (rs *runState) Apply(l *replay.Lane) (bool, error) {
	if err := rs.w.enc.err; err != nil {
		return false, err // the output failed: reading on is pointless
	}
	g := l.X.(*gstate)
	g.stretch()
	if ev := l.Head; ev.Kind == trace.EvSync {
		tok := g.ntok
		g.ntok++
		g.apply(&pend{ev: ev, tok: tok}, l.T0())
	}
	// A clock ends the stretch and draws nothing; a perturb event's delay
	// is divergo's, and no block gets its time.
	return true, nil
}

// Close ends a goroutine's track once its events are exhausted.
func (rs *runState) Close(l *replay.Lane) error {
	g := l.X.(*gstate)
	g.stretch()
	g.finish()
	return rs.w.enc.err
}

// stretch draws the steps and events of the goroutine's last stretch at
// the times the timeline gave them.
func (g *gstate) stretch() {
	l := g.lane
	for _, it := range l.Items() {
		if it.Rest {
			continue // no step of the stream: time spent in the current block
		}
		p := pend{st: it.Step, tok: g.ntok}
		if it.Step.Kind == 0 {
			p.ev = l.Event(it)
		}
		g.ntok++
		g.apply(&p, it.At)
	}
}
