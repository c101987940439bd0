package flaky

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/divergo/divergo/internal/replay"
	"github.com/divergo/divergo/internal/trace"
	"github.com/divergo/divergo/waittime"
)

// Hang is a sync operation that goroutines of the test were still blocked
// in at the end of failing runs, at least twice as often as at the end of
// passing ones: a test that hangs until -test.timeout, or that returns leaving a
// goroutine stuck. The wait itself is only the symptom; what explains it
// is the operation that ended the same wait in passing runs (Released),
// and whether that operation never came in the failing ones or came too
// early (a wakeup lost before the wait began).
type Hang struct {
	// Goroutine is the blocked goroutine's spawn path with the ordinals of
	// goroutines started alike erased ("#*"): any of a pool's workers.
	Goroutine string `json:"goroutine"`
	Pos       string `json:"pos"`
	Op        string `json:"op"`
	Kind      string `json:"kind"` // chan, mutex, wg, cond, select ... (waittime's states)
	// Library says it is blocked inside code that is not instrumented, at
	// the program's call Pos.
	Library bool `json:"library,omitempty"`
	// Runs of Of failing runs read left it blocked; PassRuns of PassOf
	// passing runs did.
	Runs     int `json:"runs"`
	Of       int `json:"of"`
	PassRuns int `json:"pass_runs"`
	PassOf   int `json:"pass_of"`
	// Released is the operation that ended this wait in passing runs, the
	// most frequent when several did; nil when it did not wait there, or
	// nothing recorded ended it.
	Released *HangRelease `json:"released,omitempty"`
}

// HangRelease is the operation that ended a Hang's wait in passing runs,
// and what became of it in the failing runs that hung.
type HangRelease struct {
	Goroutine string `json:"goroutine"` // ordinals erased, as Hang's
	Pos       string `json:"pos"`
	Op        string `json:"op"`
	// Runs of the passing runs read in which the wait ended (Waited) was
	// ended by it.
	Runs   int `json:"runs"`
	Waited int `json:"waited"`
	// PassMade and FailMade are how many goroutines made it on the wait's
	// object, mean per run, in the passing runs that waited and in the
	// failing runs that hung: a pool whose last worker never signals
	// makes it once less.
	PassMade float64 `json:"pass_made"`
	FailMade float64 `json:"fail_made"`
	// Never counts the failing runs in which no goroutine made it on the
	// object; Before those in which it came, but only before the wait
	// began, so that nothing was left to end it.
	Never  int `json:"never"`
	Before int `json:"before"`
}

// String is the hang as the text report gives it: one line for the wait,
// one for its release.
func (h Hang) String() string {
	var b strings.Builder
	where := "blocked in"
	if h.Library {
		where = "blocked inside a library, called as"
	}
	fmt.Fprintf(&b, "%s %s %s at %s (in %d of %d failing runs, %d of %d passing)", h.Goroutine, where, h.Op, h.Pos, h.Runs, h.Of, h.PassRuns, h.PassOf)
	r := h.Released
	if r == nil {
		return b.String()
	}
	fmt.Fprintf(&b, "\n   in passing runs %s's %s at %s ended that wait (%d of %d waits); made on its object by %.1f goroutines a passing run, %.1f a failing one", r.Goroutine, r.Op, r.Pos, r.Runs, r.Waited, r.PassMade, r.FailMade)
	switch {
	case r.Never == h.Runs:
		fmt.Fprintf(&b, "; it never came in the failing runs")
	case r.Never+r.Before == h.Runs && r.Before > 0:
		fmt.Fprintf(&b, "; in the failing runs it came only before the wait began (%d runs) or never (%d): a wakeup lost", r.Before, r.Never)
	case r.Never > 0 || r.Before > 0:
		fmt.Fprintf(&b, "; in the failing runs it never came in %d, came only before the wait began in %d", r.Never, r.Before)
	}
	return b.String()
}

// hangKey names a blocked operation across runs.
type hangKey struct{ goroutine, pos, op string }

// blockedAt is one failing run's goroutine blocked at a hang's operation.
type blockedAt struct {
	waittime.BlockedGoroutine
	run int // index in the failing views read
}

// hangs finds the operations the test's goroutines were blocked in at the
// end of failing runs (at most max of each kind read) at least twice as
// often as at the end of passing ones, and, for each, what ended the same wait in
// passing runs.
func hangs(fails, passes []*View, max int) ([]Hang, error) {
	fails, passes = fails[:min(len(fails), max)], passes[:min(len(passes), max)]
	byKey := map[hangKey][]blockedAt{}
	runs := map[hangKey]map[int]bool{}
	for i, v := range fails {
		bgs, err := blockedIn(v)
		if err != nil {
			return nil, err
		}
		for _, bg := range bgs {
			k := hangKey{alike(bg.Goroutine), bg.Pos, bg.Op}
			byKey[k] = append(byKey[k], blockedAt{bg, i})
			if runs[k] == nil {
				runs[k] = map[int]bool{}
			}
			runs[k][i] = true
		}
	}
	if len(byKey) == 0 {
		return nil, nil
	}
	passBlocked := map[hangKey]int{}
	for _, v := range passes {
		bgs, err := blockedIn(v)
		if err != nil {
			return nil, err
		}
		seen := map[hangKey]bool{}
		for _, bg := range bgs {
			k := hangKey{alike(bg.Goroutine), bg.Pos, bg.Op}
			if !seen[k] {
				seen[k] = true
				passBlocked[k]++
			}
		}
	}
	var out []Hang
	for k, bs := range byKey {
		n := len(runs[k])
		// One that passing runs leave as often, or nearly, says nothing
		// of the failure: a server's accept loop every run leaks, a
		// pipe's select most runs leave waiting (fasthttp's, blocked in
		// 11 of 12 failing runs and 10 of 12 passing ones). Kept: those
		// that passing runs leave at most half as often.
		if !twiceAsOften(n, len(fails), passBlocked[k], len(passes)) {
			continue
		}
		out = append(out, Hang{Goroutine: k.goroutine, Pos: k.pos, Op: k.op, Kind: bs[0].Kind, Library: bs[0].Library,
			Runs: n, Of: len(fails), PassRuns: passBlocked[k], PassOf: len(passes)})
	}
	if len(out) == 0 {
		return nil, nil
	}
	slices.SortFunc(out, func(a, b Hang) int {
		return cmp.Or(cmp.Compare(b.Runs, a.Runs), strings.Compare(a.Goroutine, b.Goroutine), strings.Compare(a.Pos, b.Pos))
	})
	rel, err := hangReleases(passes, out)
	if err != nil {
		return nil, err
	}
	for i := range out {
		h := &out[i]
		r := rel[hangKey{h.Goroutine, h.Pos, h.Op}]
		if r == nil {
			continue
		}
		// Waits that ended with nothing recorded ending them (a timer's
		// channel) name no release.
		if h.Released = r.best(); h.Released != nil {
			failedSince(h.Released, byKey[hangKey{h.Goroutine, h.Pos, h.Op}])
		}
	}
	return out, nil
}

// twiceAsOften says whether f of nf failing runs is at least twice the
// share of p of np passing runs (any share when no passing run was read).
func twiceAsOften(f, nf, p, np int) bool {
	return f > 0 && (np == 0 || f*np >= 2*p*nf)
}

// blockedIn is the goroutines of the test blocked at the end of run v.
func blockedIn(v *View) ([]waittime.BlockedGoroutine, error) {
	br, err := waittime.FindBlocked(v)
	if err != nil {
		return nil, fmt.Errorf("run %d: %w", v.Run, err)
	}
	if br == nil {
		return nil, nil
	}
	return br.Goroutines, nil
}

// alike is a goroutine's path with the ordinals of goroutines started
// alike erased.
func alike(path string) string { return goroutineOrdinal.ReplaceAllString(path, "#*") }

// releaseTally is what ended one hang's wait across the passing runs.
type releaseTally struct {
	waited int                   // waits that ended, over the runs
	by     map[hangKey]int       // releasing operation → waits it ended
	made   map[hangKey][]float64 // releasing operation → per passing run, goroutines that made it on the wait's object
}

// best is the operation that ended most of the waits; nil when nothing
// recorded ended any.
func (t *releaseTally) best() *HangRelease {
	var keys []hangKey
	for k := range t.by {
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil
	}
	slices.SortFunc(keys, func(a, b hangKey) int {
		return cmp.Or(cmp.Compare(t.by[b], t.by[a]), strings.Compare(a.goroutine, b.goroutine), strings.Compare(a.pos, b.pos), strings.Compare(a.op, b.op))
	})
	k := keys[0]
	return &HangRelease{Goroutine: k.goroutine, Pos: k.pos, Op: k.op, Runs: t.by[k], Waited: t.waited, PassMade: mean(t.made[k])}
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// hangReleases reads the passing runs for the waits of hs that ended there,
// and names each one's releaser as the trace's pairing does
// (trace.Releasers), so that this report and divergo wait agree.
func hangReleases(passes []*View, hs []Hang) (map[hangKey]*releaseTally, error) {
	want := map[hangKey]bool{}
	for _, h := range hs {
		if !h.Library {
			want[hangKey{h.Goroutine, h.Pos, h.Op}] = true
		}
	}
	out := map[hangKey]*releaseTally{}
	for _, v := range passes {
		if err := releasesIn(v, want, out); err != nil {
			return nil, fmt.Errorf("run %d: %w", v.Run, err)
		}
	}
	return out, nil
}

// releasesIn adds to out the releasers of the waits of run v at the
// operations of want, and how many goroutines made each releasing
// operation on the wait's object.
func releasesIn(v *View, want map[hangKey]bool, out map[hangKey]*releaseTally) error {
	g := v.Graph()
	if g == nil {
		return fmt.Errorf("trace has no graph")
	}
	pos := func(e trace.Event) string { return trace.SitePos(g, e.Site, e.Block).FileLine() }
	paths := map[uint64]string{}
	for _, gi := range v.gs {
		paths[gi.ID] = alike(gi.Path)
	}
	type wait struct {
		ref    replay.SyncRef
		key    hangKey
		object uint64
	}
	var waits []wait
	ops := map[uint64]map[hangKey]map[uint64]bool{} // object → operation → goroutines that made it
	for _, gi := range v.gs {
		it, err := v.Events(gi.ID)
		if err != nil {
			return err
		}
		n := uint64(0)
		for it.Next() {
			e := it.Event()
			if e.Kind != trace.EvSync {
				continue
			}
			k := hangKey{paths[gi.ID], pos(e), e.Op.String()}
			if e.Waited && !e.Blocked && want[k] {
				waits = append(waits, wait{replay.SyncRef{G: gi.ID, N: n}, k, e.Object})
			}
			if e.Object != 0 {
				rk := hangKey{paths[gi.ID], pos(e), replay.ReleaseOp(e).String()}
				if ops[e.Object] == nil {
					ops[e.Object] = map[hangKey]map[uint64]bool{}
				}
				if ops[e.Object][rk] == nil {
					ops[e.Object][rk] = map[uint64]bool{}
				}
				ops[e.Object][rk][gi.ID] = true
			}
			n++
		}
		if err := it.Err(); err != nil {
			return fmt.Errorf("reading goroutine %d: %w", gi.ID, err)
		}
	}
	if len(waits) == 0 {
		return nil
	}
	pr, err := replay.Pair(v, 0)
	if err != nil {
		return err
	}
	counted := map[[2]hangKey]bool{} // one count of makers per run
	for _, w := range waits {
		t := out[w.key]
		if t == nil {
			t = &releaseTally{by: map[hangKey]int{}, made: map[hangKey][]float64{}}
			out[w.key] = t
		}
		t.waited++
		r, ok := pr.Of(w.ref)
		if !ok {
			continue
		}
		rk := hangKey{paths[r.G], trace.SitePos(g, r.Site, r.Block).FileLine(), r.Op.String()}
		t.by[rk]++
		if !counted[[2]hangKey{w.key, rk}] {
			counted[[2]hangKey{w.key, rk}] = true
			t.made[rk] = append(t.made[rk], float64(len(ops[w.object][rk])))
		}
	}
	return nil
}

// failedSince fills r's account of the failing runs from the goroutines
// blocked at its hang (bs): whether the releasing operation came on the
// blocked object, and when. A run counts once, by its first goroutine
// blocked there.
func failedSince(r *HangRelease, bs []blockedAt) {
	seen := map[int]bool{}
	var made []float64
	for _, b := range bs {
		if seen[b.run] {
			continue
		}
		seen[b.run] = true
		n, after := 0, false
		for _, op := range b.LastOps {
			if alike(op.Goroutine) != r.Goroutine || op.Pos != r.Pos || releaseOpName(op.Op) != r.Op {
				continue
			}
			n++
			if op.TimeNs >= b.SinceNs {
				after = true
			}
		}
		made = append(made, float64(n))
		switch {
		case n == 0:
			r.Never++
		case !after:
			r.Before++
		}
	}
	r.FailMade = mean(made)
}

// releaseOpName is the operation of waittime's name for it: a select by the
// case it chose, "select (send)", is the send.
func releaseOpName(op string) string {
	if s, ok := strings.CutPrefix(op, "select ("); ok {
		return strings.TrimSuffix(s, ")")
	}
	return op
}
