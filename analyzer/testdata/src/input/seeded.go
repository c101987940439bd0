package input

import (
	"math/rand"
	randv2 "math/rand/v2"
	"time"
)

// A generator made here with a constant seed draws the same numbers in
// every run: no change points.
func seededV1() int {
	r := rand.New(rand.NewSource(42))
	sum := 0
	for i := 0; i < 10; i++ {
		if r.Intn(10) > 5 {
			sum++
		}
	}
	perm := r.Perm(5)
	return sum + perm[r.Intn(5)]
}

func seededV2() uint64 {
	r := randv2.New(randv2.NewPCG(1, 2))
	if r.IntN(10) > 5 {
		return 1
	}
	p := randv2.NewChaCha8([32]byte{})
	if p.Uint64()%2 == 0 {
		return 2
	}
	return 0
}

// A generator handed to a function that draws from it stays its own.
func draws(r *rand.Rand, n int) int {
	sum := 0
	for i := 0; i < n; i++ {
		sum += r.Intn(6)
	}
	return sum
}

func seededCallee() {
	r := rand.New(rand.NewSource(7))
	if draws(r, 3) > 9 {
		println()
	}
}

// Seeded from the clock, it draws other numbers in every run.
func clockSeeded() {
	r := rand.New(rand.NewSource(time.Now().UnixNano())) // want `\(input\): time.Now\(\) is a nondeterministic input`
	if r.Intn(10) > 5 {                                  // want `\(branch\): r.Intn\(10\) depends on nondeterministic input time.Now\(\)`
		println()
	}
}

// The package's own generator is seeded at random.
func global() {
	if randv2.IntN(10) > 5 { // want `\(input\): rand.IntN\(\) is a nondeterministic input` `\(branch\)`
		println()
	}
}

// A draw that one run makes and the other does not moves every later one.
func drawUnder(ch chan int) {
	r := rand.New(rand.NewSource(1))
	if <-ch > 0 { // want `\(branch\): <-ch depends on channel receive`
		r.Intn(2)
	}
	if r.Intn(10) > 5 { // want `\(branch\): r.Intn\(10\) depends on channel receive`
		println()
	}
}

// So does a draw in a callee that one run calls and the other does not.
func callUnder(ch chan int) {
	r := rand.New(rand.NewSource(1))
	if <-ch > 0 { // want `\(branch\): <-ch depends on channel receive`
		draws(r, 1)
	}
	if r.Intn(10) > 5 { // want `\(branch\): r.Intn\(10\) depends on channel receive`
		println()
	}
}

// A generator that goroutines share draws in the order they come.
func sharedGenerator(done chan bool) {
	r := rand.New(rand.NewSource(1))
	go func() { // want `\(spawn\)`
		if r.Intn(10) > 5 { // want `\(input\): rand.Rand.Intn\(\) is a nondeterministic input` `\(branch\)`
			println()
		}
		done <- true
	}()
	if r.Intn(10) > 5 { // want `\(input\): rand.Rand.Intn\(\) is a nondeterministic input` `\(branch\)`
		println()
	}
}

// A source used by two generators is their shared state.
func sharedSource() {
	src := rand.NewSource(3)
	a, b := rand.New(src), rand.New(src)
	if a.Intn(2) == b.Intn(2) { // want `\(input\): rand.Rand.Intn\(\) is a nondeterministic input` `\(input\): rand.Rand.Intn\(\) is a nondeterministic input` `\(branch\)`
		println()
	}
}
