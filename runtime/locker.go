package runtime

import (
	"reflect"
	"sync"
	"unsafe"
)

// Calls through a sync.Locker (c.L.Lock() on a sync.Cond, a Locker field
// or parameter) are recorded like the direct calls when the Locker holds
// one of sync's own locks, so that a Cond's lock and a mutex passed as a
// Locker keep their acquisitions, releasers and tickets. A Locker of
// another type is called as it is: its own Lock method is instrumented
// when it is in the module, and what it does inside is recorded there.

// rlockerType is the dynamic type of what RWMutex.RLocker returns, an
// unexported type of package sync whose value is the *RWMutex itself.
var rlockerType = reflect.TypeOf(new(sync.RWMutex).RLocker())

// rlockerOf returns the RWMutex behind l when l came from RWMutex.RLocker,
// else nil.
func rlockerOf(l sync.Locker) *sync.RWMutex {
	if reflect.TypeOf(l) != rlockerType {
		return nil
	}
	// A non-empty interface is two words, its method table and its data:
	// here the *RWMutex converted to *sync.rlocker.
	return (*sync.RWMutex)((*[2]unsafe.Pointer)(unsafe.Pointer(&l))[1])
}

// LockerLock calls l.Lock(), recording it as a lock of a *sync.Mutex or
// *sync.RWMutex, or an rlock of the RWMutex behind an RLocker.
func (g *G) LockerLock(site uint32, l sync.Locker) {
	switch m := l.(type) {
	case *sync.Mutex:
		g.Lock(site, m)
	case *sync.RWMutex:
		g.RWLock(site, m)
	default:
		if rw := rlockerOf(l); rw != nil {
			g.RLock(site, rw)
			return
		}
		l.Lock()
	}
}

// LockerUnlock calls l.Unlock(), recording it as LockerLock does.
func (g *G) LockerUnlock(site uint32, l sync.Locker) {
	switch m := l.(type) {
	case *sync.Mutex:
		g.Unlock(site, m)
	case *sync.RWMutex:
		g.RWUnlock(site, m)
	default:
		if rw := rlockerOf(l); rw != nil {
			g.RUnlock(site, rw)
			return
		}
		l.Unlock()
	}
}
