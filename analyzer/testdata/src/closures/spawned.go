package closures

// The parameters of a literal started by go are evaluated by the go
// statement, in the parent's goroutine: they are what the parent passes.
// Its captured variables are shared with the parent, which runs on.

// A loop counter passed by value is the same in every run, though the
// literal also captures a variable.
func spawnCounter() {
	done := make(chan int)
	for part := 0; part < 2; part++ {
		go func(part int) { // want `\(spawn\)`
			for n := part; n < 10; n += 2 {
				if n%3 == 0 {
					println(n)
				}
			}
			done <- part
		}(part)
	}
	<-done
	<-done
}

// A package variable passed by value is shared when the go statement
// reads it.
func spawnGlobal() {
	go func(n int) { // want `\(spawn\)`
		if n > 2 { // want `\(branch\): n depends on package variable shared`
			println()
		}
	}(shared)
}

// So is a value received from a channel.
func spawnReceived(ch chan int) {
	go func(n int) { // want `\(spawn\)`
		if n > 2 { // want `\(branch\): n depends on channel receive`
			println()
		}
	}(<-ch)
}

// A clean parameter does not make the captured variables clean: the parent
// writes them while the goroutine reads them.
func spawnCaptures() {
	limit := 3
	done := make(chan bool)
	go func(n int) { // want `\(spawn\)`
		if n > 2 {
			println()
		}
		if n > limit { // want `\(branch\): limit depends on captured variable limit`
			println()
		}
		limit = n
		done <- true
	}(5)
	if limit > 4 { // want `\(branch\): limit depends on variable limit \(its address escapes\)`
		println()
	}
	<-done
}

// A pointer passed to go shares what it points to: the parent may write it
// after the go statement.
func spawnPointer() {
	x := 1
	go func(p *int) { // want `\(spawn\)`
		if *p > 0 { // want `\(branch\): \*p depends on variable x \(its address escapes\)`
			println()
		}
	}(&x)
	x = 2
}

// The parent's own parameters carry their context into the goroutine's.
func Spawn(k int) {
	go func(n int) { // want `\(spawn\)`
		if n > 2 { // want `\(branch\): n depends on parameter k, which unknown callers pass`
			println()
		}
	}(k)
}

// A literal both started and called gets its parameters from both
// statements, and shares its captured variables in both runs.
func spawnAndCall() {
	v := 0
	f := func(n int) {
		if n > 2 { // want `\(branch\): n depends on package variable shared`
			println()
		}
		if v > 2 { // want `\(branch\): v depends on captured variable v`
			println()
		}
		v++
	}
	go f(1) // want `\(spawn\)`
	f(shared)
}

// A named function started by go gets its parameters from its go
// statements, as it always did.
func spawnNamed() {
	for i := 0; i < 2; i++ {
		go clean(i) // want `\(spawn\)`
	}
	go dirty(shared) // want `\(spawn\)`
}

func clean(n int) {
	if n > 0 {
		println()
	}
}

func dirty(n int) {
	if n > 0 { // want `\(branch\): n depends on package variable shared`
		println()
	}
}

// A deferred literal's arguments are evaluated by the defer statement.
func deferredArgs() {
	for i := 0; i < 2; i++ {
		defer func(n int) {
			if n > 0 {
				println()
			}
		}(i)
	}
	defer func(n int) {
		if n > 0 { // want `\(branch\): n depends on package variable shared`
			println()
		}
	}(shared)
}

// Goroutines of two runs are matched by count: the k-th goroutine a go
// statement started with the other run's k-th. A go statement that shared
// data lets run a varying number of times gives its k-th goroutine another
// counter in another run, clean as the counter is in its own iteration.
func spawnSelected(a, b chan int) {
	for i := 0; i < 10; i++ {
		select { // want `\(select\)`
		case <-a:
			go func(n int) { // want `\(spawn\)`
				if n%2 == 0 { // want `\(branch\): n depends on parameter n, which each goroutine gets from a go statement that runs a varying number of times at .*spawned.go:148`
					println()
				}
			}(i)
		case <-b:
		}
	}
}

// So does a named function, and a continue on shared data.
func spawnSkipped() {
	for i := 0; i < 10; i++ {
		if shared > i { // want `\(branch\)`
			continue
		}
		go skipped(i) // want `\(spawn\)`
	}
}

func skipped(n int) {
	if n%2 == 0 { // want `\(branch\): n depends on parameter n, which each goroutine gets from a go statement that runs a varying number of times`
		println()
	}
}

// An inner loop that ends on shared data shifts the outer loop's counter
// under the count.
func spawnNested() {
	for j := 0; j < 3; j++ {
		for i := 0; i < shared; i++ { // want `\(loop\)`
			go nested(j) // want `\(spawn\)`
		}
	}
}

func nested(n int) {
	if n%2 == 0 { // want `\(branch\): n depends on parameter n, which each goroutine gets`
		println()
	}
}

// A function that shared data lets run a varying number of times makes
// its go statements do the same, clean as its parameters are.
func spawnThrough() {
	for i := 0; i < 10; i++ {
		if shared > i { // want `\(branch\)`
			start(i)
		}
	}
}

func start(i int) {
	go func(n int) { // want `\(spawn\)`
		if n%2 == 0 { // want `\(branch\): n depends on parameter n, which each goroutine gets`
			println()
		}
	}(i)
}

// A constant is the same for every goroutine.
func spawnConstant() {
	for i := 0; i < 10; i++ {
		if shared > i { // want `\(branch\)`
			go constant(7) // want `\(spawn\)`
		}
	}
}

func constant(n int) {
	if n%2 == 0 {
		println()
	}
}

// Deferred calls run at the return, the last first: which one comes first
// depends on how often a defer statement under shared data ran.
func deferSelected(a, b chan int) (total int) {
	for i := 0; i < 10; i++ {
		select { // want `\(select\)`
		case <-a:
			defer func(n int) {
				if n%2 == 0 { // want `\(branch\): n depends on parameter n, which each deferred call gets from a defer statement that runs a varying number of times`
					total++
				}
			}(i)
		case <-b:
		}
	}
	return 0
}

// Unknown code may call SpawnFixed any number of times, but every call
// starts the same goroutines with the same counters: they line up.
func SpawnFixed() {
	for i := 0; i < 3; i++ {
		go fixed(i) // want `\(spawn\)`
	}
}

func fixed(n int) {
	if n%2 == 0 {
		println()
	}
}

// Not when a parameter decides how many: calls with 2 and 3 start the
// third goroutine with 0, calls with 3 and 2 with 2.
func spawnBounded() {
	for i := 0; i < 10; i++ {
		if shared > i { // want `\(branch\)`
			bounded(i)
		}
	}
}

func bounded(n int) {
	for i := 0; i < n; i++ {
		go boundedWork(i) // want `\(spawn\)`
	}
}

func boundedWork(n int) {
	if n%2 == 0 { // want `\(branch\): n depends on parameter n, which each goroutine gets from a go statement that runs a varying number of times`
		println()
	}
}

// A generic function's literal is one function for every instantiation.
func spawnGeneric[T any](v T) {
	done := make(chan T)
	for i := 0; i < 2; i++ {
		go func(n int) { // want `\(spawn\)`
			if n > 0 {
				println()
			}
			done <- v
		}(i)
	}
	<-done
	<-done
}

func useGeneric() {
	spawnGeneric(1)
	spawnGeneric("a")
}
