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
