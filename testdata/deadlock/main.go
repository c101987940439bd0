// Command deadlock is a lock-order deadlock: two transfers between the
// same two accounts lock them in opposite orders, each holding one and
// waiting for the other, and main waits for both. End-to-end tests stop it
// with SIGTERM, or let Go kill it ("all goroutines are asleep") as it does
// the plain build, and check that divergo wait and show say it was a
// deadlock and name the lock statements on both sides.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

type account struct {
	mu      sync.Mutex
	balance int
}

func main() {
	a, b := &account{balance: 100}, &account{balance: 100}
	var done, first sync.WaitGroup
	done.Add(2)
	first.Add(2)
	go transfer(a, b, 10, &first, &done)
	go transfer(b, a, 20, &first, &done)
	go announce()
	done.Wait()
	fmt.Println(a.balance, b.balance)
}

// transfer moves amount between two accounts. Both transfers take their
// first lock before either takes its second: the deadlock happens every
// time, not once in a while.
func transfer(from, to *account, amount int, first, done *sync.WaitGroup) {
	defer done.Done()
	from.mu.Lock()
	defer from.mu.Unlock()
	first.Done()
	first.Wait()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.balance -= amount
	to.balance += amount
}
