package counter_test

import (
	"testing"

	"example.com/counter"
)

func TestExternal(t *testing.T) {
	done := make(chan int)
	go func() { done <- counter.Count(2) }()
	if got := <-done; got != 2 {
		t.Fatalf("Count(2) = %d", got)
	}
	// A range over a map with struct keys records each key's hash, which
	// the package's glue defines: in an external test package the glue
	// must be a _test.go file of its own.
	type pair struct{ a, b int }
	sum := 0
	for p := range map[pair]bool{{1, 2}: true, {3, 4}: true} {
		sum += p.a * p.b
	}
	if sum != 14 {
		t.Fatalf("sum = %d", sum)
	}
}
