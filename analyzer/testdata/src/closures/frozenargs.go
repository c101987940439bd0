package closures

// Memory passed as a go statement's argument is frozen as a captured
// variable is: written only before the go statement, and only read by the
// goroutine, it is a value. Each pair below gives the same change points
// captured and passed.

func argSliceCaptured(n int) {
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
	if fact[n] > 2 {
		println()
	}
}

func argSlicePassed(n int) {
	fact := make([]int, n+1)
	fact[0] = 1
	for i := 1; i <= n; i++ {
		fact[i] = fact[i-1] * i
	}
	done := make(chan bool)
	for c := 0; c < 2; c++ {
		go argWorker(n, fact, done) // want `\(spawn\)`
	}
	if fact[n] > 2 {
		println()
	}
}

func argWorker(n int, fact []int, done chan bool) {
	for i := 0; i < fact[n]; i++ {
		println(i)
	}
	done <- true
}

func argLiteralPassed(n int) {
	fact := make([]int, n+1)
	fact[0] = 1
	done := make(chan bool)
	go func(f []int) { // want `\(spawn\)`
		for i := 0; i < f[0]; i++ {
			println(i)
		}
		done <- true
	}(fact)
}

func argPointerCaptured() {
	cfg := &argConfig{}
	cfg.limit = 3
	done := make(chan bool)
	go func() { // want `\(spawn\)`
		if cfg.limit > 2 {
			println()
		}
		done <- true
	}()
}

func argPointerPassed() {
	cfg := &argConfig{}
	cfg.limit = 3
	done := make(chan bool)
	go argConfigWorker(cfg, done) // want `\(spawn\)`
}

type argConfig struct{ limit int }

func argConfigWorker(cfg *argConfig, done chan bool) {
	if cfg.limit > 2 {
		println()
	}
	done <- true
}

func callsArgs() {
	argSliceCaptured(5)
	argSlicePassed(5)
	argLiteralPassed(5)
}

// Its elements written after the go statement: shared, captured or passed.
func argWrittenAfterCaptured() {
	s := make([]int, 3)
	go func() { // want `\(spawn\)`
		if s[0] > 0 { // want `\(branch\): s\[0\] depends on memory through a pointer`
			println()
		}
	}()
	s[0] = 1
}

func argWrittenAfterPassed() {
	s := make([]int, 3)
	go argReader(s) // want `\(spawn\)`
	s[0] = 1
}

func argReader(s []int) {
	if s[0] > 0 { // want `\(branch\): s\[0\] depends on`
		println()
	}
}

// Written by the goroutine it is passed to: shared for the others.
func argWrittenByGoroutine(done chan bool) {
	s := make([]int, 3)
	go argWriter(s, done)  // want `\(spawn\)`
	go argReader2(s, done) // want `\(spawn\)`
}

func argWriter(s []int, done chan bool) {
	s[1] = 2
	done <- true
}

func argReader2(s []int, done chan bool) {
	if s[1] > 0 { // want `\(branch\): s\[1\] depends on`
		println()
	}
	done <- true
}

// Passed again in a loop whose next iteration writes it: shared.
func argWrittenInLoop(done chan bool) {
	s := make([]int, 3)
	for i := 0; i < 3; i++ {
		s[0] = i
		go argReader3(s, done) // want `\(spawn\)`
	}
}

func argReader3(s []int, done chan bool) {
	if s[0] > 0 { // want `\(branch\): s\[0\] depends on`
		println()
	}
	done <- true
}

// The shape of a fannkuch whose workers get their table as an argument:
// fact is frozen, out is written by the workers and stays shared.
func argFannkuch(n, workers int) {
	fact := make([]int, n+1)
	fact[0] = 1
	for i := 1; i <= n; i++ {
		fact[i] = fact[i-1] * i
	}
	out := make([]int, workers)
	done := make(chan bool)
	chunk := fact[n] / workers
	for w := 0; w < workers; w++ {
		go argFannkuchWorker(n, w*chunk, (w+1)*chunk, fact, out[w:w+1], done) // want `\(spawn\)`
	}
	for w := 0; w < workers; w++ {
		<-done
	}
	if out[0] > 0 { // want `\(branch\): out\[0\] depends on`
		println()
	}
}

func argFannkuchWorker(n, lo, hi int, fact []int, out []int, done chan bool) {
	perm := make([]int, n)
	for i := lo; i < hi; i++ {
		idx := i
		for k := n - 1; k > 0; k-- {
			d := idx / fact[k]
			idx -= d * fact[k]
			if d > 0 { // read from fact, frozen: no change point
				perm[k] = d
			}
		}
		if perm[n-1] > out[0] { // want `\(branch\): out\[0\] depends on memory whose address escapes`
			out[0] = perm[n-1]
		}
	}
	done <- true
}

func callsArgFannkuch() { argFannkuch(7, 4) }

// A map and a pointer to a variable, passed and only read: frozen.
func argMapPassed(done chan bool) {
	m := map[string]int{"a": 1}
	limit := 2
	go argMapReader(m, &limit, done) // want `\(spawn\)`
}

func argMapReader(m map[string]int, limit *int, done chan bool) {
	if m["a"] > *limit {
		println()
	}
	done <- true
}

func callsArgMap() { argMapPassed(make(chan bool)) }

// Frozen, but passed by a go statement that a shared branch skips now and
// then: the k-th goroutine may get another slice in another run.
func argByCount(ch chan int) {
	for i := 0; i < 3; i++ {
		if <-ch > 0 { // want `\(branch\): <-ch depends on channel receive`
			continue
		}
		s := make([]int, 1)
		s[0] = i
		go argReader4(s) // want `\(spawn\)`
	}
}

func argReader4(s []int) {
	if s[0] > 1 { // want `\(branch\): s\[0\] depends on .*varying number of times`
		println()
	}
}

// A worker that passes its frozen argument on to a function of its own
// that only reads it: still frozen, passed or captured.
func argPassedOn(n int) {
	fact := make([]int, n+1)
	fact[0] = 1
	for i := 1; i <= n; i++ {
		fact[i] = fact[i-1] * i
	}
	done := make(chan bool)
	for c := 0; c < 2; c++ {
		go argRelay(n, fact, done) // want `\(spawn\)`
	}
	for c := 0; c < 2; c++ {
		go func() { // want `\(spawn\)`
			argCountTo(fact, n)
			done <- true
		}()
	}
}

func argRelay(n int, fact []int, done chan bool) {
	argCountTo(fact, n)
	argCountTo(fact[1:], n-1)
	done <- true
}

func argCountTo(fact []int, n int) {
	for i := 0; i < fact[n]; i++ {
		println(i)
	}
}

func callsArgPassedOn() { argPassedOn(5) }

// Passed on to a function that writes it: shared for every goroutine.
func argPassedOnWritten(done chan bool) {
	s := make([]int, 3)
	go argRelayWrites(s, done) // want `\(spawn\)`
	go argRelayWrites(s, done) // want `\(spawn\)`
}

func argRelayWrites(s []int, done chan bool) {
	argBump(s)
	if s[0] > 0 { // want `\(branch\): s\[0\] depends on`
		println()
	}
	done <- true
}

func argBump(s []int) { s[0]++ }

func callsArgPassedOnWritten() { argPassedOnWritten(make(chan bool)) }
