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
	index map[stepKey]int32
	keys  []stepKey
	vals  []int64
}

func newPath() *cpath { return &cpath{index: make(map[stepKey]int32)} }

func (p *cpath) add(k stepKey, ns int64) {
	if ns == 0 {
		return
	}
	i, ok := p.index[k]
	if !ok {
		i = int32(len(p.keys))
		p.index[k] = i
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
