package flaky

import "sync"

// Group runs one call per key at a time, the callers that come while it
// runs waiting for its result: in the shape of x/sync's singleflight
// before its Forget was fixed.
type Group struct {
	mu sync.Mutex
	m  map[string]*call
}

type call struct {
	wg  sync.WaitGroup
	val int
}

// Do runs fn for key, or waits for the call of key in flight.
func (g *Group) Do(key string, fn func() int) int {
	g.mu.Lock()
	if g.m == nil {
		g.m = map[string]*call{}
	}
	if c, ok := g.m[key]; ok {
		g.mu.Unlock()
		c.wg.Wait()
		return c.val
	}
	c := &call{}
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()
	g.doCall(c, key, fn)
	return c.val
}

// doCall runs fn and forgets the call. The bug: it deletes whatever call
// is under key by then, which after a Forget is another's.
func (g *Group) doCall(c *call, key string, fn func() int) {
	c.val = fn()
	c.wg.Done()
	g.mu.Lock()
	delete(g.m, key)
	g.mu.Unlock()
}

// Forget makes the next Do of key start a call of its own.
func (g *Group) Forget(key string) {
	g.mu.Lock()
	delete(g.m, key)
	g.mu.Unlock()
}
