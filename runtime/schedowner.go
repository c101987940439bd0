package runtime

import "slices"

// Lock owners under controlled scheduling. A goroutine parked on a lock
// (schedlock.go) waits in divergo, not in Go: a lock that can never be
// taken would leave it there, where neither Go's deadlock report nor its
// goroutine leak profile sees it, until ctlGiveUp. So the scheduler keeps
// who holds each lock taken through the wrappers (a writer, or every
// reader of an RWMutex), and a lock all of whose holders can never release
// it (the waiter itself, a goroutine that ended, or one parked on a lock
// that comes back to the waiter) is waited for in Go at once: a bug of
// GoKer's (a missing Unlock before a return, two locks taken in two
// orders) then blocks as it does without divergo.

// ctlOwnedLocked notes that g holds obj. Under ctl.mu.
func ctlOwnedLocked(g *G, obj uint64) {
	if ctl.owners == nil {
		ctl.owners = map[uint64][]*G{}
	}
	ctl.owners[obj] = append(ctl.owners[obj], g)
}

// ctlOwned notes that g took obj.
func ctlOwned(g *G, obj uint64) {
	ctl.mu.Lock()
	ctlOwnedLocked(g, obj)
	ctl.mu.Unlock()
}

// ctlDisownLocked notes that g released obj: its own entry, or another's
// (an RWMutex's reader may be released by another goroutine). Under
// ctl.mu.
func ctlDisownLocked(g *G, obj uint64) {
	os := ctl.owners[obj]
	if len(os) == 0 {
		return
	}
	i := slices.Index(os, g)
	if i < 0 {
		i = 0
	}
	os = slices.Delete(os, i, i+1)
	if len(os) == 0 {
		delete(ctl.owners, obj)
	} else {
		ctl.owners[obj] = os
	}
}

// deadLockLocked says whether obj can never be released for g: it has
// holders, and each is g, a goroutine that ended, or one parked on a lock
// that in turn cannot be released but by g. Under ctl.mu.
func deadLockLocked(g *G, obj uint64) bool {
	return deadFor(g, obj, 0)
}

func deadFor(g *G, obj uint64, depth int) bool {
	os := ctl.owners[obj]
	if len(os) == 0 || depth > 8 {
		return false
	}
	for _, o := range os {
		switch {
		case o == g, o.cg.ended:
		case o.cg.waitObj != 0 && deadFor(g, o.cg.waitObj, depth+1):
		default:
			return false
		}
	}
	return true
}
