package main

import (
	"fmt"
	"sync"
)

type T struct{ n int }

func (t *T) add(wg *sync.WaitGroup, k int) { defer wg.Done(); t.n += k }

func sum[E int | float64](wg *sync.WaitGroup, out *E, xs ...E) {
	defer wg.Done()
	for _, x := range xs {
		*out += x
	}
}

// pinger's ping and ping take and return nothing: the runtime's Go runs
// them, with no literal around the call.
type pinger struct{ out chan<- string }

func (p pinger) ping() { p.out <- "pinger" }

var pings = make(chan string)

func ping() { pings <- "ping" }

func work(wg *sync.WaitGroup, out chan<- string, name string, p *int) {
	defer wg.Done()
	out <- fmt.Sprint(name, *p)
}

func main() {
	var wg sync.WaitGroup
	out := make(chan string, 10)
	i := 1
	wg.Add(1)
	go work(&wg, out, "a", &i) // evaluated in the parent
	wg.Wait()
	wg.Add(1)
	go func(k int) {
		defer wg.Done()
		out <- fmt.Sprint("lit", k)
	}(i + 1)
	wg.Wait()
	t := &T{}
	wg.Add(1)
	go t.add(&wg, 5)
	wg.Wait()
	var s int
	wg.Add(1)
	go sum(&wg, &s, 1, 2, 3)
	wg.Wait()
	xs := []float64{1.5, 2}
	var fs float64
	wg.Add(1)
	go sum(&wg, &fs, xs...)
	wg.Wait()
	wg.Go(func() { out <- "wg.Go" })
	wg.Wait()
	f := t.add
	wg.Add(1)
	go f(&wg, 1)
	wg.Wait()
	// A "//" or "/*" in a constant argument is no comment: recorded.
	wg.Add(1)
	go work(&wg, out, "https://golang.org/", &i)
	wg.Wait()
	wg.Add(1)
	go work(&wg, out, "/* a */", &i)
	wg.Wait()
	// A comment inside one is: not recorded, with a warning.
	wg.Add(1)
	go work(&wg, out, "c" /* why */ +"d", &i)
	wg.Wait()
	go ping()
	fmt.Println(<-pings)
	go pinger{pings}.ping()
	fmt.Println(<-pings)
	close(out)
	for v := range out {
		fmt.Println(v)
	}
	fmt.Println(t.n, s, fs)
}
