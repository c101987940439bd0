package runtime

import (
	"unsafe"

	"github.com/divergo/divergo/internal/trace"
)

// chanAddr is a channel's identity: a channel value is one pointer.
func chanAddr[C any](ch C) uint64 {
	return uint64(*(*uintptr)(unsafe.Pointer(&ch)))
}

// Send sends v on ch: first without blocking, and only if that fails with
// the wait recorded.
func Send[T any](g *G, site uint32, ch chan<- T, v T) {
	if g.off {
		ch <- v
		return
	}
	g.perturb()
	if ctl.on {
		g.ctlNoteWaiters(chanAddr(ch)) // schedwake.go
	}
	t := now()
	select {
	case ch <- v:
		g.syncEv(trace.OpSend, site, chanAddr(ch), false, 0, t)
	default:
		prev := g.block(trace.OpSend, site, chanAddr(ch), t)
		if ctl.on {
			g.ctlBlockedInGo(chanAddr(ch)) // schedwake.go
		}
		ch <- v
		g.unblock(prev)
		g.syncEv(trace.OpSend, site, chanAddr(ch), true, t, now())
	}
}

// Recv receives from ch.
func Recv[T any](g *G, site uint32, ch <-chan T) T {
	v, _ := Recv2(g, site, ch)
	return v
}

// Recv2 receives from ch, reporting whether the value came from a send.
func Recv2[T any](g *G, site uint32, ch <-chan T) (T, bool) {
	if g.off {
		v, ok := <-ch
		return v, ok
	}
	g.perturb()
	if ctl.on {
		g.ctlNoteWaiters(chanAddr(ch))
	}
	t := now()
	select {
	case v, ok := <-ch:
		g.syncEv(trace.OpRecv, site, chanAddr(ch), false, 0, t)
		return v, ok
	default:
	}
	prev := g.block(trace.OpRecv, site, chanAddr(ch), t)
	if ctl.on {
		g.ctlBlockedInGo(chanAddr(ch))
	}
	v, ok := <-ch
	g.unblock(prev)
	g.syncEv(trace.OpRecv, site, chanAddr(ch), true, t, now())
	return v, ok
}

// Close closes ch: a release of every receiver waiting on it.
func Close[T any](g *G, site uint32, ch chan<- T) {
	if !g.off {
		g.perturb()
		if ctl.on {
			g.ctlNoteWaiters(chanAddr(ch))
		}
		g.syncEv(trace.OpClose, site, chanAddr(ch), false, 0, now())
	}
	close(ch)
}
