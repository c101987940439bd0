package runtime

import "github.com/divergo/divergo/internal/trace"

// Child carries a spawn from the parent's go statement into the new
// goroutine.
type Child struct {
	id      uint64
	parent  uint64
	site    uint32
	ordinal uint32
	off     bool
	g       *G
	pident  uint64 // the parent's identity, for the child's (perturb.go)
}

var offChild = &Child{off: true}

// Spawn records, in the parent, that the go statement at site (the graph's
// site of that statement) starts a goroutine, and returns what the child
// needs to bind its recorder. Ordinals count per site.
func (g *G) Spawn(site uint32) *Child {
	if g.off {
		return offChild
	}
	if g.spawns == nil {
		g.spawns = map[uint32]uint32{}
	}
	g.spawns[site]++
	ord := g.spawns[site]
	id := sess.nextID.Add(1)
	g.put(opSpawn, 0, site, ord, lo(id), hi(id))
	if ctl.on {
		g.ctlClaim()
		ctl.starting.Add(1) // until its first hook (schedwake.go)
	}
	return &Child{id: id, parent: g.id, site: site, ordinal: ord, pident: g.ident}
}

// Start binds the new goroutine to a recorder of its own. It is the first
// thing the goroutine does.
func (c *Child) Start() *G {
	if c.off || sess.state.Load() != stateRunning {
		return offG
	}
	g := newG(c.id, curGoid())
	g.parent, g.site, g.ordinal = c.parent, c.site, c.ordinal
	g.ident = childIdent(c.pident, c.site, c.ordinal)
	g.rng = g.ident
	g.cg.spawned = ctl.on
	g.start = g.clock()
	register(g)
	c.g = g
	// The start of a goroutine races with its parent's next steps: a
	// place to let either go first, and a turn of a replay.
	g.perturb()
	g.passTurn()
	return g
}

// Done ends the goroutine's stream: its end time and last chunk. Deferred
// directly by the goroutine, it also sees a panic that nothing recovered:
// it then completes the whole trace and lets the panic go on, untouched
// (ending.go).
func (c *Child) Done() {
	g := c.g
	if g == nil || g.off {
		return
	}
	if panicking() {
		finishExit(g, trace.Ending{Kind: trace.EndPanic, Code: 2, G: g.id})
		unregister(g)
		return
	}
	g.flush(true) // closes the stream with a clock: the end time
	unregister(g)
	// Events after Done (a deferred call that runs later) are dropped: the
	// final chunk is written.
}
