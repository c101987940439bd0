package waittime

// State is what a goroutine was doing during a step.
type State uint8

// The states of a step. Running is computation; Runnable is the time from a
// go statement to the start of the goroutine it started, or from a release
// to the end of the wait it released (scheduler latency); Perturb is time
// divergo itself delayed the goroutine (DIVERGO_PERTURB), Outside the time
// of a goroutine that cannot be aligned with a goroutine started outside
// instrumented code (analyze.go, unrelated); the others are time blocked
// in a kind of synchronization that no releaser explains (sleep, or a wait
// whose releaser is not in the trace). Perturb and Outside steps name no
// line: their time was spent in no statement of the program.
const (
	Running State = iota
	Mutex
	Chan
	Select
	WG
	Cond
	Once
	Sleep
	Blocked  // a sync operation of no known kind
	Runnable // started but not yet running: scheduler latency
	Perturb  // delayed by divergo's schedule perturbation
	Outside  // not aligned: counted from a goroutine started outside instrumented code
	// Library is time blocked inside code that is not instrumented, at
	// the program's call (libwaits.go), and LibrarySleep asleep there;
	// their steps' place is a call (analysis.libCalls), not a block or a
	// site.
	Library
	LibrarySleep

	numStates = iota
)

var stateNames = [...]string{
	Running: "running", Mutex: "mutex", Chan: "chan", Select: "select", WG: "wg",
	Cond: "cond", Once: "once", Sleep: "sleep", Blocked: "blocked", Runnable: "runnable",
	Perturb: "perturb", Outside: "outside", Library: "library", LibrarySleep: "sleep in library",
}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "state?"
}

// stepKey identifies a step: the same goroutine, place and state. The
// place (at) of a running step is its block; every other state is time
// spent at one statement (a sleep, a wait no releaser explains, the latency
// of a go statement or of a release), and its place is that statement's
// site (tbb.Graph.Sites), so that reports name the statement's own line.
type stepKey struct {
	g     uint64
	at    int32
	state State
}

// kind is the equivalence of steps across goroutines used by redundant step
// removal and by class distances: same place and state.
type kind struct {
	at    int32
	state State
}

func (k stepKey) kind() kind { return kind{k.at, k.state} }

// entry is a step with a signed duration in ns.
type entry struct {
	key stepKey
	ns  int64
}

// cpath is a goroutine's cumulative path since it started. Slots are assigned
// in order of first appearance and never move, so a snapshot is a copy of
// vals and stays aligned with keys[:len(snapshot)].
type cpath struct {
	index map[uint64]int32 // packed step key → slot
	keys  []stepKey
	vals  []int64
	mod   []uint64 // per slot: the epoch of its last change
	clock *uint64  // the analysis's epoch
}

// snap is a snapshot of a cpath: its values and the epoch it was taken at.
type snap struct {
	vals  []int64
	epoch uint64
}

func newPath(clock *uint64) *cpath { return &cpath{index: make(map[uint64]int32), clock: clock} }

// pack folds a step key into one word for a fast map index: recorder ids
// are dense from 1 and graphs have far fewer than 2^24 blocks and sites; a key that
// does not fit falls back to a hash of its parts, which only costs a
// collision check.
func (k stepKey) pack() uint64 {
	if k.g < 1<<36 && k.at >= 0 && k.at < 1<<24 {
		return k.g<<28 | uint64(k.at)<<4 | uint64(k.state)
	}
	return 1<<63 | (k.g*0x9E3779B97F4A7C15 ^ uint64(k.at)<<4 ^ uint64(k.state))
}

func (p *cpath) add(k stepKey, ns int64) {
	if ns == 0 {
		return
	}
	pk := k.pack()
	i, ok := p.index[pk]
	for ok && p.keys[i] != k { // only for keys that did not fit
		pk++
		i, ok = p.index[pk]
	}
	if !ok {
		i = int32(len(p.keys))
		p.index[pk] = i
		p.keys = append(p.keys, k)
		p.vals = append(p.vals, 0)
		p.mod = append(p.mod, 0)
	}
	p.vals[i] += ns
	p.mod[i] = *p.clock
}

// snapshot copies the current values into dst (allocated when nil).
func (p *cpath) snapshot(dst *snap) *snap {
	if dst == nil {
		dst = &snap{}
	}
	dst.vals = append(dst.vals[:0], p.vals...)
	dst.epoch = *p.clock
	return dst
}

// copySnap copies src into dst (allocated when nil).
func copySnap(dst, src *snap) *snap {
	if dst == nil {
		dst = &snap{}
	}
	dst.vals = append(dst.vals[:0], src.vals...)
	dst.epoch = src.epoch
	return dst
}

// diff appends to out the steps of upto - from, both snapshots of p (upto
// nil means now, from nil means the start), skipping zero differences.
func (p *cpath) diff(upto, from *snap, out []entry) []entry {
	vals := p.vals
	if upto != nil {
		vals = upto.vals
	}
	var base []int64
	if from != nil {
		base = from.vals
	}
	for i, v := range vals {
		if i < len(base) {
			v -= base[i]
		}
		if v != 0 {
			out = append(out, entry{p.keys[i], v})
		}
	}
	return out
}

// compact drops the slots keep rejects from p and from snaps, every
// snapshot of p still held. Kept slots keep their order, so snapshots stay
// aligned with a prefix of keys.
func (p *cpath) compact(keep func(i int) bool, snaps []*snap) {
	newIdx := make([]int32, len(p.keys))
	n := int32(0)
	for i := range p.keys {
		if keep(i) {
			newIdx[i] = n
			p.keys[n], p.vals[n], p.mod[n] = p.keys[i], p.vals[i], p.mod[i]
			n++
		} else {
			newIdx[i] = -1
		}
	}
	p.keys, p.vals, p.mod = p.keys[:n], p.vals[:n], p.mod[:n]
	p.index = make(map[uint64]int32, n)
	for i, k := range p.keys {
		pk := k.pack()
		for _, taken := p.index[pk]; taken; _, taken = p.index[pk] {
			pk++
		}
		p.index[pk] = int32(i)
	}
	for _, s := range snaps {
		out := s.vals[:0]
		for i, v := range s.vals {
			if newIdx[i] >= 0 {
				out = append(out, v)
			}
		}
		s.vals = out
	}
}
