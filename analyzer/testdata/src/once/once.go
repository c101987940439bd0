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

// A Once's other methods and the functions sync.OnceFunc returns are not
// change points (docs/SOUNDNESS.md).
func notDo() {
	f := sync.OnceFunc(build)
	f()
	v := sync.OnceValue(func() int { return 1 })
	_ = v()
}
