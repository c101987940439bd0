// Command fannkuch is in the shape of the benchmarks game's Go
// fannkuch-redux: n from a flag, the permutations split into chunks by
// GOMAXPROCS, one goroutine per chunk, results over a channel.
package main

import (
	"flag"
	"fmt"
	"runtime"
)

type result struct{ checksum, maxFlips int }

func fannkuch(n int) (int, int) {
	fact := make([]int, n+1)
	fact[0] = 1
	for i := 1; i <= n; i++ {
		fact[i] = fact[i-1] * i
	}
	// GOMAXPROCS is the machine's, the same in both runs: the chunks too.
	nchunks := runtime.GOMAXPROCS(0) * 4
	chunk := (fact[n] + nchunks - 1) / nchunks
	ch := make(chan result, nchunks)
	for c := 0; c < nchunks; c++ {
		lo := c * chunk
		hi := lo + chunk
		// fact's elements are written before the goroutines start and never
		// after: neither this branch nor the goroutines' loops and branches
		// on them are change points.
		if hi > fact[n] {
			hi = fact[n]
		}
		go func() { // want `\(spawn\)`
			perm := make([]int, n)
			p := make([]int, n)
			count := make([]int, n)
			// The permutation of index lo.
			for i := range p {
				p[i] = i
			}
			idx := lo
			for i := n - 1; i > 0; i-- {
				d := idx / fact[i]
				count[i] = d
				idx %= fact[i]
				copy(perm, p)
				for j := 0; j <= i; j++ {
					if j+d <= i {
						p[j] = perm[j+d]
					} else {
						p[j] = perm[j+d-i-1]
					}
				}
			}
			sum, most := 0, 0
			for k := lo; k < hi; k++ {
				if p[0] != 0 {
					copy(perm, p)
					flips := 1
					for first := perm[0]; perm[first] != 0; flips++ {
						for i, j := 0, first; i < j; i, j = i+1, j-1 {
							perm[i], perm[j] = perm[j], perm[i]
						}
						first = perm[0]
					}
					if flips > most {
						most = flips
					}
					if k%2 == 0 {
						sum += flips
					} else {
						sum -= flips
					}
				}
				// The next permutation.
				for i := 1; i < n; i++ {
					first := p[0]
					copy(p, p[1:i+1])
					p[i] = first
					count[i]++
					if count[i] <= i {
						break
					}
					count[i] = 0
				}
			}
			ch <- result{sum, most}
		}()
	}
	sum, most := 0, 0
	for c := 0; c < nchunks; c++ {
		r := <-ch
		sum += r.checksum
		if r.maxFlips > most { // want `\(branch\): r\.maxFlips depends on channel receive`
			most = r.maxFlips
		}
	}
	return sum, most
}

func main() { // want `\(begin\)`
	n := flag.Int("n", 7, "length of the permutations")
	flag.Parse()
	sum, most := fannkuch(*n)
	fmt.Printf("%d\nPfannkuchen(%d) = %d\n", sum, *n, most)
}
