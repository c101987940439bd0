// Package factstore has a branch that only the facts of strings keep
// clean, for the analyzer's fact store (driver.go).
package factstore

import (
	"strings"
	"sync"
)

var shared int

func run(mu *sync.Mutex) {
	go func() { // want `trace change point \(spawn\)`
		mu.Lock() // want `trace change point \(lock\)`
		shared++
		mu.Unlock()
	}()
	// strings.HasPrefix's fact says its result depends on its arguments
	// alone: no change point.
	if strings.HasPrefix("abc", "a") {
		println("a")
	}
	mu.Lock()       // want `trace change point \(lock\)`
	if shared > 0 { // want `trace change point \(branch\)`
		println("b")
	}
	mu.Unlock()
}
