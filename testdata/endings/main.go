// Command endings ends the way its argument says, while goroutines start
// and run: "return" (main returns), "exit" (os.Exit(3) from a goroutine),
// "panic" (a goroutine panics), "mainpanic" (main panics), "wait" (it
// says "ready" and waits to be killed); and panics in other shapes:
// "gofunc" (go f() of a function), "method" (go w.run() of a method
// value), "literal" (a function literal main calls), "goargs" (go f(x));
// and Go's fatal errors: "deadlock" (main waits for ever, alone) and
// "mapwrites" (two goroutines write one map).
// Each goroutine says "started N" first. End-to-end tests check that every goroutine that said so is in
// the trace, that a panic prints as the plain build's does, and that show
// and diff name how the run ended.
package main

import (
	"fmt"
	"os"
	"sync"
	"time"
)

func work(n int, mode string, mu *sync.Mutex, total *int) {
	fmt.Printf("started %d\n", n)
	for i := 0; i < 2000; i++ {
		mu.Lock()
		*total += i
		mu.Unlock()
	}
	if n == 12 {
		switch mode {
		case "exit":
			os.Exit(3)
		case "panic":
			panic(fmt.Sprintf("boom in worker %d", n))
		}
	}
}

// crash panics in a goroutine of its own, started by go crash().
func crash() { panic("boom in crash") }

type worker struct{ name string }

// run panics in a goroutine started by go w.run().
func (w *worker) run() { panic("boom in " + w.name) }

// crashWith panics in a goroutine started by go crashWith(x).
func crashWith(x int) { panic(fmt.Sprint("boom with ", x)) }

// literal panics in a function literal it calls, after another literal.
func literal() {
	one := func() int { return 1 }
	func() { panic(fmt.Sprint("boom in literal ", one())) }()
}

// shapes panics the way mode says, or returns false.
func shapes(mode string) bool {
	switch mode {
	case "gofunc":
		go crash()
	case "method":
		w := &worker{name: "worker"}
		go w.run()
	case "goargs":
		go crashWith(7)
	case "literal":
		literal()
	case "deadlock":
		<-make(chan int)
	case "mapwrites":
		m := map[int]int{}
		for range 2 {
			go func() {
				for i := 0; ; i++ {
					m[i%64] = i
				}
			}()
		}
	default:
		return false
	}
	select {}
}

func main() {
	mode := os.Args[1]
	if shapes(mode) {
		return
	}
	var mu sync.Mutex
	total := 0
	switch mode {
	case "return", "mainpanic", "wait":
		var wg sync.WaitGroup
		for n := 1; n <= 4; n++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				work(n, mode, &mu, &total)
			}()
		}
		wg.Wait()
		switch mode {
		case "mainpanic":
			panic("boom in main")
		case "wait":
			fmt.Println("ready")
			select {}
		}
		return
	}
	for n := 1; ; n++ {
		go func(n int) {
			work(n, mode, &mu, &total)
		}(n)
		time.Sleep(50 * time.Microsecond)
	}
}
