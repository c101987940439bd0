// Package memory checks how shared data flows through local memory.
package memory

var x int

func setX(v int) { x = v }

type S struct{ f, g int }

func field() {
	var s S
	s.f = x
	s.g = 1
	if s.f > 0 { // want `\(branch\): s.f depends on package variable x`
		println()
	}
	if s.g > 0 {
		println()
	}
}

func array() {
	a := [3]int{}
	a[1] = x
	if a[1] > 0 { // want `\(branch\)`
		println()
	}
}

func copied() {
	var s S
	s.f = x
	t := s
	if t.f > 0 { // want `\(branch\)`
		println()
	}
}

func localChan() {
	ch := make(chan int, 1)
	ch <- 1
	if v := <-ch; v > 0 { // want `\(branch\): v depends on channel receive`
		println()
	}
}

func closureResult() {
	v := x
	get := func() int { return v }
	if get() > 0 { // want `\(branch\)`
		println()
	}
}

func loopExit() {
	i := 0
	// The k-th test of i < 10 has the same outcome in every run: not a TCP.
	for ; i < 10; i++ {
		if x > i { // want `\(branch\)`
			break
		}
	}
	if i > 5 { // want `\(branch\): i depends on package variable x`
		println()
	}
}

func alias() {
	p := &x
	if *p > 0 { // want `\(branch\)`
		println()
	}
}

type T struct{ n int }

func (t *T) get() int { return t.n }

func methodValue(t *T) {
	f := t.get
	if f() > 0 { // want `\(branch\): f\(\) depends on result of get\$bound`
		println()
	}
}

func sliceOfLocal() {
	s := []int{1, 2, 3}
	s = append(s, x)
	for _, v := range s { // the length does not depend on x
		if v > 2 { // want `\(branch\)`
			println()
		}
	}
}

func cleanAppend() {
	s := []int{1, 2, 3}
	s = append(s, 4)
	for _, v := range s {
		if v > 2 {
			println()
		}
	}
}

// A value computed in a loop and used after it is the one of the iteration
// where a shared break ended the loop.
func lastValue(a []int) {
	v := 0
	for i := 0; i < 10; i++ {
		v = i * 2
		if x > i { // want `\(branch\)`
			break
		}
	}
	if v > 4 { // want `\(branch\): v depends on package variable x`
		println()
	}
}

// Inside a loop with a shared bound, the loop counter is the same in the
// k-th iteration of every run.
func counter(a []int) int {
	s := 0
	for i := 0; i < x; i++ { // want `\(loop\)`
		if i%2 == 0 {
			s += a[i%len(a)]
		}
	}
	return s
}

var sink *S

func fill(s *S)       { s.f = 1 }
func leak(s *S)       { sink = s }
func fillShared(s *S) { s.g = x }
func get(s *S) int    { return s.f }

// Helpers that keep a pointer local let the caller's memory stay local;
// what they store is known from their summary.
func viaHelpers() {
	var a, b, c S
	fill(&a)
	if a.f > 0 {
		println()
	}
	if get(&a) > 0 {
		println()
	}
	leak(&b)
	if b.f > 0 { // want `\(branch\): b.f depends on variable b \(its address escapes\)`
		println()
	}
	fillShared(&c)
	if c.g > 0 { // want `\(branch\): c.g depends on package variable x`
		println()
	}
}

// A recursive helper that only passes the pointer on keeps it local.
func rec(p *int, n int) int {
	if n > 0 {
		return rec(p, n-1)
	}
	return *p
}

func useRec() {
	v := 3
	if rec(&v, 2) > 0 {
		println()
	}
}

var global S

func setGlobal() { global.f = 1 }

// A parameter passed on passes the memory the callers gave: the callee
// reads what its caller's callers pointed to.
func passOn(s *S) { readOn(s) }

func readOn(s *S) {
	if s.f > 0 { // want `\(branch\): s.f depends on package variable global`
		println()
	}
}

func usePassOn() { passOn(&global) }
