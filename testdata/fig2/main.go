// Command fig2 is the three-task program of Figure 2 (section 8) of Eckert
// and Nutt, "Sequence comparison for parallel executions", ported to Go:
// three tasks add to the shared variable x under the lock lk; task 0 then
// loops up to the value it read (B4), branching on the parity of each
// iteration (B5).
package main

import (
	"fmt"
	"sync"
)

var (
	x  int
	lk sync.Mutex
)

var evens, odds, k int // what task 0 did, printed at the end

func task0(wg *sync.WaitGroup) {
	defer wg.Done()
	lk.Lock()   // B0
	x = x + 1   // B1
	i := x      // B2
	lk.Unlock() // B3
	e, o := 0, 0
	for j := 0; j < i; j++ { // B4
		if (i-j)%2 == 0 { // B5
			e++ // B6: do_something
		} else {
			o++ // do_something_different
		} // CP of B5
	}
	k = k + 1 // B7
	evens, odds = e, o
}

func task1(wg *sync.WaitGroup) {
	defer wg.Done()
	lk.Lock()   // C0
	x = x + 1   // C1
	lk.Unlock() // C2
}

func task2(wg *sync.WaitGroup) {
	defer wg.Done()
	lk.Lock()   // D0
	x = x + 2   // D1
	lk.Unlock() // D2
}

func main() {
	var wg sync.WaitGroup
	wg.Add(3)
	go task0(&wg) // A1: task_create
	go task1(&wg) // A1
	go task2(&wg) // A1
	wg.Wait()     // A2: task_terminate
	fmt.Println("evens", evens, "odds", odds, "k", k)
}
