// Command spectralnorm is in the shape of the benchmarks game's Go
// spectral-norm: a tiny a(i, j) called n² times per product, each product
// split into NumCPU chunks, one goroutine per chunk, joined by a WaitGroup.
// scripts/bench-overhead.sh measures what recording it costs.
package main

//go:generate divergo instrument ./...

import (
	"flag"
	"fmt"
	"math"
	"runtime"
	"sync"
)

func a(i, j int) float64 {
	return 1 / float64((i+j)*(i+j+1)/2+i+1)
}

// times sets v to A·u, or to Aᵀ·u when trans.
func times(v, u []float64, trans bool) {
	// NumCPU is the machine's, the same in both runs; lo, hi, u and trans
	// are written before each goroutine starts and never after: none of the
	// loops and branches below is a change point.
	ncpu := runtime.NumCPU()
	chunk := (len(v) + ncpu - 1) / ncpu
	var wg sync.WaitGroup
	for lo := 0; lo < len(v); lo += chunk {
		hi := min(lo+chunk, len(v))
		wg.Add(1)
		go func() { // want `\(spawn\)`
			defer wg.Done()
			for i := lo; i < hi; i++ {
				s := 0.0
				for j := range u {
					if trans {
						s += a(j, i) * u[j]
					} else {
						s += a(i, j) * u[j]
					}
				}
				v[i] = s
			}
		}()
	}
	wg.Wait()
}

func timesTransp(v, u []float64) {
	x := make([]float64, len(u))
	times(x, u, false)
	times(v, x, true)
}

func main() { // want `\(begin\)`
	n := flag.Int("n", 100, "size")
	flag.Parse()
	u := make([]float64, *n)
	for i := range u {
		u[i] = 1
	}
	v := make([]float64, *n)
	for i := 0; i < 10; i++ {
		timesTransp(v, u)
		timesTransp(u, v)
	}
	var vBv, vv float64
	for i, vi := range v {
		vBv += u[i] * vi
		vv += vi * vi
	}
	fmt.Printf("%0.9f\n", math.Sqrt(vBv/vv))
}
