package waittime

// State is what a goroutine was doing during a step.
type State uint8

// The states of a step. Running is computation; the others are time blocked
// in a kind of synchronization that no releaser explains (sleep, or a wait
// whose releaser is not in the trace).
const (
	Running State = iota
	Mutex
	Chan
	Select
	WG
	Cond
	Once
	Sleep
	Blocked // a sync operation of no known kind

	numStates = iota
)

var stateNames = [...]string{
	Running: "running", Mutex: "mutex", Chan: "chan", Select: "select", WG: "wg",
	Cond: "cond", Once: "once", Sleep: "sleep", Blocked: "blocked",
}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "state?"
}

// stepKey identifies a step: the same goroutine, block and state.
type stepKey struct {
	g     uint64
	block int32
	state State
}

// kind is the equivalence of steps across goroutines used by redundant step
// removal and by class distances: same TBB and state.
type kind struct {
	block int32
	state State
}

func (k stepKey) kind() kind { return kind{k.block, k.state} }

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
}

func newPath() *cpath { return &cpath{index: make(map[uint64]int32)} }

// pack folds a step key into one word for a fast map index: recorder ids
// are dense from 1 and graphs have far fewer than 2^24 blocks; a key that
// does not fit falls back to a hash of its parts, which only costs a
// collision check.
func (k stepKey) pack() uint64 {
	if k.g < 1<<36 && k.block >= 0 && k.block < 1<<24 {
		return k.g<<28 | uint64(k.block)<<4 | uint64(k.state)
	}
	return 1<<63 | (k.g*0x9E3779B97F4A7C15 ^ uint64(k.block)<<4 ^ uint64(k.state))
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
	}
	p.vals[i] += ns
}

// snapshot copies the current values into dst, reusing its storage.
func (p *cpath) snapshot(dst []int64) []int64 { return append(dst[:0], p.vals...) }

// diff appends to out the steps of upto - from, both snapshots of p (upto
// nil means now, from nil means the start), skipping zero differences.
func (p *cpath) diff(upto, from []int64, out []entry) []entry {
	if upto == nil {
		upto = p.vals
	}
	for i, v := range upto {
		if i < len(from) {
			v -= from[i]
		}
		if v != 0 {
			out = append(out, entry{p.keys[i], v})
		}
	}
	return out
}
