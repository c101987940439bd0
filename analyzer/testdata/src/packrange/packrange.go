// Package packrange has range loops that pack (their operand is a slice,
// a pointer to an array or an integer) and range loops that do not, each
// in a function whose doc says which; the lock keeps each function
// recorded (a silent function packs nothing).
package packrange

import "sync"

var mu sync.Mutex

// packed
func slice(xs []int) (t int) {
	mu.Lock() // want `\(lock\)`
	for i, x := range xs {
		if x > i {
			t++
		} else {
			t--
		}
	}
	mu.Unlock()
	return t
}

// packed
func arrayPointer(p *[8]int) (t int) {
	mu.Lock() // want `\(lock\)`
	var k, v int
	for k, v = range p {
		if v > k {
			t++
		}
	}
	mu.Unlock()
	return t + k
}

// packed
func integer(n int64) (t int64) {
	mu.Lock() // want `\(lock\)`
	for i := range n {
		if i%3 == 0 {
			t += i
		}
	}
	mu.Unlock()
	return t
}

// not packed
func str(s string) (t int) {
	mu.Lock() // want `\(lock\)`
	for _, r := range s {
		if r > 'z' {
			t++
		}
	}
	mu.Unlock()
	return t
}

// not packed
func array(a [8]int) (t int) {
	mu.Lock() // want `\(lock\)`
	for _, v := range a {
		if v > 0 {
			t++
		}
	}
	mu.Unlock()
	return t
}

// not packed
func redeclared(xs []int) (t int) {
	mu.Lock() // want `\(lock\)`
	for i := range xs {
		i := i * 2
		if i > 4 {
			t++
		}
	}
	mu.Unlock()
	return t
}

// not packed
func keyExpr(xs []int) (t int) {
	mu.Lock() // want `\(lock\)`
	var a [1]int
	for a[0] = range xs {
		if a[0] > 4 {
			t++
		}
	}
	mu.Unlock()
	return t
}

// not packed
func untypedAssigned() (t int) {
	mu.Lock() // want `\(lock\)`
	var i int64
	for i = range 10 {
		if i > 4 {
			t++
		}
	}
	mu.Unlock()
	return t
}
