// Command fig1a is Figure 1a of Eckert and Nutt, "Sequence comparison for
// parallel executions", ported to Go: two tasks compete for the shared
// variable x under the lock lk, then task 0 branches (B4) and task 1 loops
// (C4) on the value they read.
package main

import (
	"fmt"
	"sync"
)

// A0: begin
var (
	x  int        // shared int x = 0
	lk sync.Mutex // shared int lk = 0
)

var outJ, outK, outSum int // the tasks' results, printed at the end

func task0(wg *sync.WaitGroup) {
	defer wg.Done()
	j := 0
	k := 0
	lk.Lock()   // B0
	x = x + 1   // B1
	j = x       // B2
	lk.Unlock() // B3
	if j == 2 { // B4
		j = j - 1 // B5
	} else { // B6
		k = k + 1 // B7
	}
	outJ, outK = j, k // CP of B4
}

func task1(wg *sync.WaitGroup) {
	defer wg.Done()
	s := 0
	lk.Lock()                     // C0
	x = x + 1                     // C1
	index := x                    // C2
	lk.Unlock()                   // C3
	for i := 1; i <= index; i++ { // C4
		s = s + i // C5
	}
	outSum = s // CP of C4
}

func main() {
	var wg sync.WaitGroup
	wg.Add(2)
	go task0(&wg) // A1: task_create(n)
	go task1(&wg) // A1
	wg.Wait()     // A2: task_terminate(n)
	fmt.Println("j", outJ, "k", outK, "sum", outSum)
} // A3: end
