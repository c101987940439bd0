// Command rangelast ranges over channels into variables declared before
// the loop: plain Go leaves such a variable holding the last value
// received once the channel is closed, and so must the recorded program.
package main

import "fmt"

type item struct{ name string }

func filled(vs ...*item) chan *item {
	ch := make(chan *item, len(vs))
	for _, v := range vs {
		ch <- v
	}
	close(ch)
	return ch
}

func main() {
	nums := make(chan int, 3)
	nums <- 5
	nums <- 7
	close(nums)
	var last int
	for last = range nums {
	}
	fmt.Println("last", last)

	// A pointer kept from the loop: zeroed, it would panic on use.
	var it *item
	for it = range filled(&item{"a"}, &item{"b"}) {
		fmt.Println("got", it.name)
	}
	fmt.Println("kept", it.name)

	// Into an interface, over several lines, with break and continue.
	var v any
	for v = range filled(
		&item{"c"}, &item{"d"}, &item{"e"},
	) {
		if v.(*item).name == "c" {
			continue
		}
		break
	}
	fmt.Println("stopped at", v.(*item).name)

	// An empty closed channel leaves the variable as it was.
	empty := make(chan int)
	close(empty)
	last = 42
	for last = range empty {
	}
	fmt.Println("unchanged", last)
}
