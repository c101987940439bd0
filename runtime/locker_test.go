package runtime

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/divergo/divergo/internal/trace"
)

// userLock is a Locker of the program's own: called, not recorded.
type userLock struct{ n int }

func (l *userLock) Lock()   { l.n++ }
func (l *userLock) Unlock() { l.n++ }

// TestLocker: Lock and Unlock through a sync.Locker are recorded as the
// direct calls are, by the dynamic type (Mutex, RWMutex, an RWMutex's
// RLocker, a Cond's L), with the same object and tickets; a Locker of
// another type is only called.
func TestLocker(t *testing.T) {
	path := startSession(t)
	g := Main(testGraphJSON(t), bMain)
	var mu sync.Mutex
	var rw sync.RWMutex
	cond := sync.NewCond(&mu)
	user := &userLock{}
	for _, l := range []sync.Locker{&mu, &rw, rw.RLocker(), cond.L, user} {
		g.LockerLock(bSpawn, l)
		g.LockerUnlock(bDone, l)
	}
	g.Lock(bSpawn, &mu) // a direct call continues the count of the calls through cond.L and &mu
	g.Unlock(bSpawn, &mu)
	g.Exit(bMain)
	if user.n != 2 {
		t.Errorf("the user's Locker was called %d times, want 2", user.n)
	}
	objs := map[uint64]string{addr(&mu): "mu", addr(&rw): "rw"}
	var got []string
	_, gs := readTrace(t, path)
	for _, e := range gs["main"].events {
		switch e.Kind {
		case trace.EvSync:
			got = append(got, fmt.Sprintf("%v@%d:%s", e.Op, e.Block, objs[e.Object]))
		case trace.EvOutcome:
			got = append(got, fmt.Sprint("=", e.Value))
		}
	}
	want := "lock@1:mu =1 unlock@2:mu lock@1:rw =1 unlock@2:rw rlock@1:rw =2 runlock@2:rw " +
		"lock@1:mu =2 unlock@2:mu lock@1:mu =3 unlock@1:mu"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("events\n got %s\nwant %s", s, want)
	}
}
