package closures

func goroutine() {
	done := false
	finished := make(chan bool)
	go func() { // want `\(spawn\)`
		if !done { // want `\(branch\): done depends on captured variable done`
			println()
		}
		finished <- true
	}()
	done = true
	<-finished
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

var shared int

// A deferred closure runs in this goroutine: what it reads from captured
// variables is what the function stored there.
func deferred() (err error) {
	n := 0
	defer func() {
		if n > 3 {
			println()
		}
	}()
	n = 5
	return nil
}

// A directly called closure that stores shared data into a captured
// variable makes it shared for the parent too.
func writes() {
	v := 0
	set := func() { v = shared }
	set()
	if v > 0 { // want `\(branch\): v depends on package variable shared`
		println()
	}
}

// And the closure sees shared data the parent stored.
func reads() {
	v := shared
	check := func() {
		if v > 0 { // want `\(branch\): v depends on package variable shared`
			println()
		}
	}
	check()
}

func setShared() { shared++ }
