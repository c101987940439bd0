// Command spectralnormargs is spectral-norm written as public Go entries
// write it: each product's rows are split among GOMAXPROCS workers, named
// functions that get their vectors and range as go arguments and say they
// are done over a channel.
package main

import (
	"flag"
	"fmt"
	"math"
	"runtime"
)

func a(i, j int) float64 {
	return 1 / float64((i+j)*(i+j+1)/2+i+1)
}

// rows sets v[lo:hi] to those rows of A·u, or of Aᵀ·u when trans.
func rows(v, u []float64, lo, hi int, trans bool, done chan<- bool) {
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
	done <- true
}

// product sets v to A·u, or to Aᵀ·u when trans, on GOMAXPROCS goroutines.
func product(v, u []float64, trans bool) {
	procs := runtime.GOMAXPROCS(0)
	chunk := (len(v) + procs - 1) / procs
	done := make(chan bool)
	workers := 0
	for lo := 0; lo < len(v); lo += chunk {
		go rows(v, u, lo, min(lo+chunk, len(v)), trans, done) // want `\(spawn\)`
		workers++
	}
	for ; workers > 0; workers-- {
		<-done
	}
}

func main() { // want `\(begin\)`
	n := flag.Int("n", 100, "size")
	flag.Parse()
	u := make([]float64, *n)
	for i := range u {
		u[i] = 1
	}
	v := make([]float64, *n)
	x := make([]float64, *n)
	for i := 0; i < 10; i++ {
		product(x, u, false)
		product(v, x, true)
		product(x, v, false)
		product(u, x, true)
	}
	var vBv, vv float64
	for i, vi := range v {
		vBv += u[i] * vi
		vv += vi * vi
	}
	fmt.Printf("%0.9f\n", math.Sqrt(vBv/vv))
}
