package branches

import "sync"

var x int
var mu sync.Mutex

func f() int {
	mu.Lock() // want `trace change point \(lock\): sync.Mutex.Lock on mu: the acquisition order; converges at analyzer/testdata/src/branches/branches.go:10`
	x = x + 1
	j := x
	mu.Unlock()
	k := 0
	if j == 2 { // want `trace change point \(branch\): j depends on package variable x read at analyzer/testdata/src/branches/branches.go:11; converges at analyzer/testdata/src/branches/branches.go:19`
		j = j - 1
	} else {
		k = k + 1
	}
	return j + k
}

func local(n int) int {
	y := 3
	if y > 2 {
		y++
	}
	return y
}

func recv(ch chan int) {
	v := <-ch
	if v > 0 { // want `\(branch\): v depends on channel receive at .*branches.go:31; converges at .*branches.go:34`
		println(v)
	}
}

type T struct{ n int }

// Reading through a pointer parameter reads memory another goroutine may
// write.
func (t *T) get() int {
	if t.n > 0 { // want `\(branch\): t.n depends on memory through parameter t, which unknown callers pass at .*branches.go:41; converges at return`
		return 1
	}
	return 0
}

// The right operand of && decides too.
func and(a int) bool {
	ok := false
	if a > 0 && x > 1 { // want `\(branch\): x depends on package variable x read at .*branches.go:51; converges at .*branches.go:54`
		ok = true
	}
	return ok
}

// An indirect dependence: k is assigned under a shared branch.
func indirect() {
	k := 0
	if x > 0 { // want `\(branch\)`
		k = 1
	}
	if k == 1 { // want `\(branch\): k depends on package variable x read at .*branches.go:60`
		println()
	}
}

// Written after initialization: shared.
var limit = 4

func setLimit() { limit = 5 }

func useLimit() {
	if limit > 3 { // want `\(branch\): limit depends on package variable limit`
		println()
	}
}

// An unexported function gets taint from the call sites that pass shared
// data, and only from those parameters.
func helper(a, b int) {
	if a > 0 { // want `\(branch\): a depends on package variable limit read at .*branches.go:91`
		println()
	}
	if b > 0 {
		println()
	}
}

func callsHelper() {
	helper(limit, 1)
	helper(2, 3)
}

// Local memory written under a shared branch is shared-dependent.
func storeUnder() {
	buf := make([]int, 2)
	if x > 1 { // want `\(branch\)`
		buf[0] = 1
	}
	if buf[0] == 1 { // want `\(branch\): buf\[0\] depends on package variable x`
		println()
	}
}

// The choice of return is decided by shared data, so is the result.
func pick() bool {
	if x > 0 { // want `\(branch\)`
		return true
	}
	return false
}

func usePick() {
	if pick() { // want `\(branch\): pick\(\) depends on package variable x`
		println()
	}
}

// Called from a variable initializer with shared data.
func scale(n int) int {
	if n > 2 { // want `\(branch\): n depends on package variable limit`
		return n * 2
	}
	return n
}

var scaled = scale(limit)

// Used as a value in a variable initializer: called from anywhere.
func handler(n int) {
	if n > 2 { // want `\(branch\): n depends on parameter n, which unknown callers pass`
		println()
	}
}

var handlers = []func(int){handler}
