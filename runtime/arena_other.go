//go:build !linux

package runtime

// Elsewhere there is no arena: buffers are the Go heap's, and a run that
// dies keeps its whole chunks only (arena_linux.go says what the arena
// adds).

type arena struct{}

type arenaHeader struct {
	calT, calN, base int64
	k                uint64
	tsc              int64
	ending           uint32
}

type blockHdr struct {
	id, seq uint64
	state   uint32
	end     int64
}

type slotRec struct {
	id, goid, parent uint64
	site, ordinal    uint32
	start, floor     int64
	waitOp, waitSite uint32
	waitObj          uint64
	waitBegin        int64
	nameLen, ended   uint32
	nameIsCreator    uint32
	timedOut         uint32
	name             [160]byte
}

const (
	bufQueued = 2
	bufFinal  = 3
)

func openArena(string) *arena                     { return nil }
func (a *arena) buf(int, uint64, uint64) []uint32 { return nil }
func (a *arena) hdrOf([]uint32) *blockHdr         { return nil }
func (a *arena) release(*blockHdr)                {}
func (a *arena) slot() (*slotRec, *blockHdr)      { return nil, nil }
func (a *arena) header() *arenaHeader             { return nil }
func (a *arena) remove()                          {}
func (a *arena) close()                           {}

// RecoverTrace completes nothing here: see arena_linux.go.
func RecoverTrace(string) error { return nil }
