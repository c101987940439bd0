// Package runtime is a stand-in for divergo's runtime in the rewriter's
// tests: it has the API generated code calls and prints, when main
// returns or exits, each goroutine's events in order, goroutines sorted by
// spawn path, so that tests of concurrent programs compare stable text.
package runtime

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	goruntime "runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

type G struct {
	name   string
	events []string
	spawns map[uint32]int
}

type Child struct {
	g *G
}

var (
	mu        sync.Mutex
	byID      = map[uint64]*G{}
	all       []*G
	graph     string
	mainEntry uint32
	// children counts spawned goroutines whose Done has not run: a child
	// records "done" after the program's own wg.Done, so main can get to
	// its dump first.
	children sync.WaitGroup
)

func goid() uint64 {
	var buf [64]byte
	n := goruntime.Stack(buf[:], false)
	f := strings.Fields(string(buf[:n]))
	id, _ := strconv.ParseUint(f[1], 10, 64)
	return id
}

func (g *G) add(format string, args ...any) {
	mu.Lock()
	g.events = append(g.events, fmt.Sprintf(format, args...))
	mu.Unlock()
}

func cur() *G {
	mu.Lock()
	defer mu.Unlock()
	g := byID[goid()]
	if g == nil {
		g = &G{name: "unknown"}
		byID[goid()] = g
		all = append(all, g)
	}
	return g
}

// Off is the real runtime's test of DIVERGO_TRACE=off: instrumented
// functions then run the copies of their original bodies.
func Off() bool { return os.Getenv("FAKE_DIVERGO_OFF") != "" }

// Program is called from package main's variables: the fake records from
// Main on, and keeps nothing here.
func Program(graphJSON string) bool { return true }

func Main(graphJSON string, entry uint32) *G {
	graph, mainEntry = graphJSON, entry
	g := &G{name: "main"}
	mu.Lock()
	byID[goid()] = g
	all = append(all, g)
	mu.Unlock()
	g.add("main %d", entry)
	return g
}

func Enter(entry uint32) *G {
	g := cur()
	g.add("enter %d", entry)
	return g
}

// Handoff and EnterFrom stand in for the real ones: the literal's number
// shows as an event of the goroutine that entered it.
type Handoff struct{ n uint32 }

func (g *G) Handoff(entry uint32) *Handoff {
	g.add("handoff=%d", entry)
	return &Handoff{entry}
}

func EnterFrom(h *Handoff, entry uint32) *G {
	g := Enter(entry)
	g.add("from=%d", h.n)
	return g
}

func (g *G) Exit(entry uint32) {
	g.add("exit %d", entry)
	if g.name == "main" && entry == mainEntry {
		dump()
	}
}

func dump() {
	// Wait for the children's Done, but not forever: a program may leave
	// goroutines running.
	ended := make(chan struct{})
	go func() { children.Wait(); close(ended) }()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
	}
	mu.Lock()
	defer mu.Unlock()
	var b bytes.Buffer
	sort.Slice(all, func(i, j int) bool { return all[i].name < all[j].name })
	fmt.Fprintf(&b, "graph %s\n", graph)
	for _, g := range all {
		fmt.Fprintf(&b, "%s: %s\n", g.name, strings.Join(g.events, " "))
	}
	os.Stdout.Write(b.Bytes())
}

func (g *G) B(id uint32)            { g.add("B%d", id) }
func (g *G) Outcome(v uint64)       { g.add("outcome=%d", v) }
func (g *G) OutcomeString(s string) { g.Outcome(HashString(s)) }

// Hash stands in for the real one with the hash of the value's %#v text,
// which is the same in every run for the goldens' keys (no addresses).
func (g *G) Hash(v reflect.Value) uint64 { return HashString(fmt.Sprintf("%#v", v.Interface())) }

// HashString stands in for the real one with FNV-1a folded to 32 bits:
// any hash that is the same in every run keeps the golden events stable.
func HashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return uint64(uint32(h) ^ uint32(h>>32))
}

func (g *G) Spawn(site uint32) *Child {
	mu.Lock()
	if g.spawns == nil {
		g.spawns = map[uint32]int{}
	}
	g.spawns[site]++
	c := &G{name: fmt.Sprintf("%s/%d#%d", g.name, site, g.spawns[site])}
	mu.Unlock()
	g.add("spawn@%d", site)
	children.Add(1)
	return &Child{g: c}
}

func (c *Child) Start() *G {
	mu.Lock()
	byID[goid()] = c.g
	all = append(all, c.g)
	mu.Unlock()
	c.g.add("start")
	return c.g
}

func (c *Child) Done() { c.g.add("done"); children.Done() }

func Go(c *Child, f func()) {
	c.Start()
	defer c.Done()
	f()
}

func OsExit(code int) {
	dump()
	fmt.Printf("exit status %d\n", code)
	os.Exit(0)
}

func (g *G) Lock(site uint32, m *sync.Mutex)   { g.add("lock@%d", site); m.Lock() }
func (g *G) Unlock(site uint32, m *sync.Mutex) { g.add("unlock@%d", site); m.Unlock() }
func (g *G) TryLock(site uint32, m *sync.Mutex) bool {
	ok := m.TryLock()
	g.add("trylock@%d=%v", site, ok)
	return ok
}
func (g *G) RWLock(site uint32, m *sync.RWMutex)   { g.add("rwlock@%d", site); m.Lock() }
func (g *G) RWUnlock(site uint32, m *sync.RWMutex) { g.add("rwunlock@%d", site); m.Unlock() }
func (g *G) RLock(site uint32, m *sync.RWMutex)    { g.add("rlock@%d", site); m.RLock() }
func (g *G) RUnlock(site uint32, m *sync.RWMutex)  { g.add("runlock@%d", site); m.RUnlock() }
func (g *G) LockerLock(site uint32, l sync.Locker) { g.add("locker.lock@%d", site); l.Lock() }
func (g *G) LockerUnlock(site uint32, l sync.Locker) {
	g.add("locker.unlock@%d", site)
	l.Unlock()
}

func Send[T any](g *G, site uint32, ch chan<- T, v T) { g.add("send@%d", site); ch <- v }
func Recv[T any](g *G, site uint32, ch <-chan T) T    { g.add("recv@%d", site); return <-ch }
func Recv2[T any](g *G, site uint32, ch <-chan T) (T, bool) {
	v, ok := <-ch
	g.add("recv2@%d=%v", site, ok)
	return v, ok
}
func Close[T any](g *G, site uint32, ch chan<- T) { g.add("close@%d", site); close(ch) }

func (g *G) SelectBegin(site uint32) int64 { g.add("select@%d", site); return 42 }
func (g *G) SelectEnd(site uint32, begin int64, c int) {
	g.add("selected@%d clause %d", site, c)
	if begin != 42 {
		panic("select begin lost")
	}
}

func SelectEndOn[C any](g *G, site uint32, begin int64, ch C, sends bool, c int) {
	g.add("selected@%d clause %d on a channel, sends=%t", site, c, sends)
	if begin != 42 {
		panic("select begin lost")
	}
}

// SelCase stands for reflect.SelectCase: the fake forces nothing, but
// says each forced select, so that the forced form's arguments are
// evaluated, and their types checked, in the rewriter's tests.
type SelCase struct{ dir string }

func (g *G) Forcing() bool                    { return true }
func (g *G) SelectForce(cases ...SelCase)     { g.add("force %v", cases) }
func SelRecv[E any](ch <-chan E) SelCase      { return SelCase{"recv"} }
func SelSend[E any](ch chan<- E, v E) SelCase { return SelCase{"send"} }
func SelDefault() SelCase                     { return SelCase{"default"} }
func Case[C any](g *G, c int, ch C) C         { return ch }

func (g *G) WGAdd(site uint32, wg *sync.WaitGroup, n int) { g.add("wg.add@%d(%d)", site, n); wg.Add(n) }
func (g *G) WGDone(site uint32, wg *sync.WaitGroup)       { g.add("wg.done@%d", site); wg.Done() }
func (g *G) WGWait(site uint32, wg *sync.WaitGroup)       { g.add("wg.wait@%d", site); wg.Wait() }

func (g *G) CondWait(site uint32, c *sync.Cond)      { g.add("cond.wait@%d", site); c.Wait() }
func (g *G) CondSignal(site uint32, c *sync.Cond)    { g.add("cond.signal@%d", site); c.Signal() }
func (g *G) CondBroadcast(site uint32, c *sync.Cond) { g.add("cond.broadcast@%d", site); c.Broadcast() }

func (g *G) OnceDo(site uint32, o *sync.Once, f func()) { g.add("once@%d", site); o.Do(f) }
func (g *G) Sleep(site uint32, d time.Duration)         { g.add("sleep@%d", site); time.Sleep(d) }
func (g *G) Gosched()                                   { goruntime.Gosched() }
