package closures

// A captured variable that no one writes once the closure is made is a
// value: the goroutines that read it read what the parent wrote before.

func frozenBefore() {
	limit := 3
	if len(names) > 2 {
		limit = 4
	}
	done := make(chan bool)
	go func() { // want `\(spawn\)`
		for i := 0; i < limit; i++ {
			println(i)
		}
		done <- true
	}()
	if limit > 3 {
		println()
	}
	<-done
}

var names = []string{"a", "b", "c"}

// Go 1.22's loop variables are new in every iteration: the post statement
// writes the next one, not the one a goroutine captured.
func frozenLoopVars(n int) {
	done := make(chan bool)
	chunk := 4
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		go func() { // want `\(spawn\)`
			for i := lo; i < hi; i++ {
				println(i)
			}
			done <- true
		}()
	}
	for _, s := range [...]string{"a", "b"} {
		go func() { // want `\(spawn\)`
			if s == "a" {
				println()
			}
			done <- true
		}()
	}
}

func callsFrozen() { frozenLoopVars(10) }

// Written after the go statement: shared.
func writtenAfter() {
	x := 1
	go func() { // want `\(spawn\)`
		if x > 0 { // want `\(branch\): x depends on captured variable x`
			println()
		}
	}()
	x = 2
}

// Written again in the next iteration, while the goroutine reads it.
func writtenInLoop() {
	x := 0
	for i := 0; i < 3; i++ {
		x = i
		go func() { // want `\(spawn\)`
			if x > 0 { // want `\(branch\): x depends on captured variable x`
				println()
			}
		}()
	}
}

// Handed to a function after the go statement, which may write it.
func set(p *int) { *p = 3 }

func passedAfter() {
	x := 1
	go func() { // want `\(spawn\)`
		if x > 0 { // want `\(branch\): x depends on captured variable x`
			println()
		}
	}()
	set(&x)
}

// Written by another closure, whenever that runs.
func writtenByClosure(done chan bool) {
	x := 1
	go func() { // want `\(spawn\)`
		if x > 0 { // want `\(branch\): x depends on captured variable x`
			println()
		}
		done <- true
	}()
	go func() { // want `\(spawn\)`
		x = 2
		done <- true
	}()
}

// Frozen, but written before from shared data: as shared as that.
func frozenShared(ch chan int) {
	x := <-ch
	go func() { // want `\(spawn\)`
		if x > 0 { // want `\(branch\): x depends on channel receive`
			println()
		}
	}()
}

// A go statement that a shared branch skips now and then starts its k-th
// goroutine in another iteration in another run: the loop variable it
// captures is not the same for the k-th goroutine.
func frozenByCount(ch chan int) {
	for i := 0; i < 3; i++ {
		if <-ch > 0 { // want `\(branch\): <-ch depends on channel receive`
			continue
		}
		go func() { // want `\(spawn\)`
			if i > 1 { // want `\(branch\): i depends on captured variable i, which each goroutine gets from a go statement that runs a varying number of times`
				println()
			}
		}()
	}
}

// What a frozen variable holds is published with it: a slice filled
// before the goroutines start, and never written after, is read as a
// value.
func frozenSlice(n int) {
	fact := make([]int, n+1)
	fact[0] = 1
	for i := 1; i <= n; i++ {
		fact[i] = fact[i-1] * i
	}
	done := make(chan bool)
	for c := 0; c < 2; c++ {
		go func() { // want `\(spawn\)`
			for i := 0; i < fact[n]; i++ {
				println(i)
			}
			done <- true
		}()
	}
}

func callsFrozenSlice() { frozenSlice(5) }

// Its elements written after the go statement: shared.
func sliceWrittenAfter() {
	s := make([]int, 3)
	go func() { // want `\(spawn\)`
		if s[0] > 0 { // want `\(branch\): s\[0\] depends on memory through a pointer`
			println()
		}
	}()
	s[0] = 1
}

// Written by one goroutine while another reads it: shared.
func sliceWrittenByGoroutine(done chan bool) {
	s := make([]int, 3)
	go func() { // want `\(spawn\)`
		s[1] = 2
		done <- true
	}()
	go func() { // want `\(spawn\)`
		if s[1] > 0 { // want `\(branch\): s\[1\] depends on memory through a pointer`
			println()
		}
		done <- true
	}()
}

// Handed to a function after the go statement, which may write it.
func fill(s []int) { s[0] = 4 }

func slicePassedAfter() {
	s := make([]int, 3)
	go func() { // want `\(spawn\)`
		if s[0] > 0 { // want `\(branch\): s\[0\] depends on memory through a pointer`
			println()
		}
	}()
	fill(s)
}

// A closure its parent calls writes the elements: the parent sees what it
// wrote, shared data from a channel.
func sliceWrittenByCall(ch chan int) {
	s := make([]int, 1)
	f := func() { s[0] = <-ch }
	f()
	if s[0] > 0 { // want `\(branch\): s\[0\] depends on`
		println()
	}
}
