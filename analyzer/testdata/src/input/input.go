package input

import (
	"math/rand"
	"time"
)

func clock() {
	t := time.Now()                  // want `trace change point \(input\): time.Now\(\) is a nondeterministic input; converges at .*input.go:10`
	if time.Since(t) > time.Second { // want `\(input\): time.Since` `\(branch\): time.Since\(t\) depends on nondeterministic input time.Since\(\) at .*input.go:10`
		println()
	}
}

func random() {
	if rand.Intn(10) > 5 { // want `\(input\): rand.Intn\(\) is a nondeterministic input` `\(branch\)`
		println()
	}
}
