package closures

import "sync"

func goroutine() {
	done := false
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // want `\(spawn\)`
		defer wg.Done()
		if !done { // want `\(branch\): done depends on captured variable done`
			println()
		}
	}()
	wg.Wait()
}

// A closure called only directly gets its parameters from its call sites.
func direct() {
	f := func(n int) {
		if n > 2 {
			println()
		}
	}
	f(3)
}

// A closure passed away may be called with anything.
func escaping(apply func(func(int))) {
	apply(func(n int) {
		if n > 2 { // want `\(branch\)`
			println()
		}
	})
}
