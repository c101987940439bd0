package once

import "sync"

var (
	once  sync.Once
	table []int
)

func build() { table = []int{1, 2, 3} }

type cache struct {
	sync.Once
	init sync.Once
	n    int
}

// Which goroutine runs the function of a Do is the schedule's choice: each
// call is a change point that converges after it.
func use(c *cache) int {
	once.Do(build) // want `trace change point \(once\): sync.Once.Do on once: whether this goroutine runs the function; converges at .*once.go:22`
	n := len(table)
	c.init.Do(func() { c.n = n }) // want `\(once\): sync.Once.Do on c.init`
	c.Do(build)                   // want `\(once\): sync.Once.Do on c:`
	return c.n
}

// The last statement of a body converges at the function's return.
func last(o *sync.Once) {
	o.Do(build) // want `\(once\): sync.Once.Do on o: whether this goroutine runs the function; converges at return`
}

// The functions sync.OnceFunc, OnceValue and OnceValues make run their
// argument in the first goroutine that calls them: each call is a change
// point too, however the value reaches it.
var (
	setup  = sync.OnceFunc(build)
	config = sync.OnceValue(func() int { return len(table) })
)

type lazy struct {
	get func() (int, error)
}

func onceFuncs(l *lazy, which bool) int {
	setup() // want `\(once\): calls setup, made by sync.OnceFunc: whether this goroutine runs the function; converges at .*once.go:47`
	f := sync.OnceFunc(build)
	f() // want `\(once\): calls f, made by sync.OnceFunc`
	g := build
	if which {
		g = f
	}
	g()         // want `\(once\): calls g, made by sync.OnceFunc`
	go func() { // want `\(spawn\)`
		f() // want `\(once\): calls f, made by sync.OnceFunc`
	}()
	l.get = sync.OnceValues(func() (int, error) { return 1, nil })
	n, _ := l.get()     // want `\(once\): calls l.get, made by sync.OnceValues`
	return n + config() // want `\(once\): calls config, made by sync.OnceValue`
}

// A variable the closure shares with its parent, assigned after it was
// declared, is followed through the parent's stores.
func captured() {
	var f func()
	f = sync.OnceFunc(build)
	func() {
		f() // want `\(once\): calls f, made by sync.OnceFunc`
	}()
}

// Other function values are not change points, nor are a Once's methods
// called through a method value (docs/SOUNDNESS.md).
func notOnce(h func()) {
	h()
	g := build
	g()
	do := once.Do
	do(build)
}
