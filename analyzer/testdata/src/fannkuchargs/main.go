// Command fannkuchargs is fannkuch-redux written as public Go entries
// write it: the workers are named functions that get n, their range, the
// table of factorials and the result channel as go arguments, and the
// number of workers follows from a flag and the number of CPUs.
package main

import (
	"flag"
	"fmt"
	"runtime"
)

func main() { // want `\(begin\)`
	n := flag.Int("n", 7, "length of the permutations")
	flag.Parse()
	fact := make([]int, *n+1)
	fact[0] = 1
	for i := 1; i <= *n; i++ {
		fact[i] = fact[i-1] * i
	}
	size := runtime.NumCPU() * 4
	chunk := fact[*n] / size
	if chunk == 0 {
		chunk = 1
	}
	out := make(chan [2]int)
	workers := 0
	// The loop runs fact[n]/chunk times: inputs and frozen memory, the
	// same in two runs, so the k-th goroutine gets the same range.
	for lo := 0; lo < fact[*n]; lo += chunk {
		hi := min(lo+chunk, fact[*n])
		go worker(*n, lo, hi, fact, out) // want `\(spawn\)`
		workers++
	}
	sum, most := 0, 0
	for ; workers > 0; workers-- {
		r := <-out
		sum += r[0]
		if r[1] > most { // want `\(branch\): r\[1\] depends on channel receive`
			most = r[1]
		}
	}
	fmt.Printf("%d\nPfannkuchen(%d) = %d\n", sum, *n, most)
}

// worker walks the permutations of index lo up to hi.
func worker(n, lo, hi int, fact []int, out chan<- [2]int) {
	perm := make([]int, n)
	perm1 := make([]int, n)
	count := make([]int, n)
	for i := range perm1 {
		perm1[i] = i
	}
	first(perm1, perm, count, lo, fact)
	sum, most := 0, 0
	for k := lo; k < hi; k++ {
		if perm1[0] != 0 {
			flips := flip(perm, perm1)
			most = max(most, flips)
			if k%2 == 0 {
				sum += flips
			} else {
				sum -= flips
			}
		}
		next(perm1, count)
	}
	out <- [2]int{sum, most}
}

// first sets perm1 to the permutation of index idx.
func first(perm1, perm, count []int, idx int, fact []int) {
	for i := len(perm1) - 1; i > 0; i-- {
		d := idx / fact[i]
		count[i] = d
		idx %= fact[i]
		copy(perm, perm1)
		for j := 0; j <= i; j++ {
			if j+d <= i {
				perm1[j] = perm[j+d]
			} else {
				perm1[j] = perm[j+d-i-1]
			}
		}
	}
}

// flip counts the flips of perm1's pancakes, in perm.
func flip(perm, perm1 []int) int {
	copy(perm, perm1)
	flips := 1
	for k := perm[0]; perm[k] != 0; flips++ {
		for i, j := 0, k; i < j; i, j = i+1, j-1 {
			perm[i], perm[j] = perm[j], perm[i]
		}
		k = perm[0]
	}
	return flips
}

// next steps perm1 to the next permutation.
func next(perm1, count []int) {
	for i := 1; i < len(perm1); i++ {
		f := perm1[0]
		copy(perm1, perm1[1:i+1])
		perm1[i] = f
		count[i]++
		if count[i] <= i {
			break
		}
		count[i] = 0
	}
}
