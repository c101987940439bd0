// Selects in the forms the forced rewrite must keep compiling and meaning
// what they meant: named and directional channel types, a constant sent
// to a named element type, comma-ok receives, break and continue in the
// bodies, a generic channel, and the forms left to Go's choice.
package main

import (
	"fmt"
	"time"
)

type ticks chan int

type level int8

func recvOnly(c <-chan string, d chan<- level) string {
	select {
	case s, ok := <-c:
		return fmt.Sprint(s, ok)
	case d <- 3: // an untyped constant, typed by the channel
		return "sent"
	}
}

type failure struct{}

func (failure) Error() string { return "failure" }

// report sends a value only assignable to the channel's element type: left
// to Go's choice, SelSend could not infer its type.
func report(errs chan error, quit chan struct{}) string {
	select {
	case errs <- failure{}:
		return "reported"
	case <-quit:
		return "quit"
	}
}

func first[T any](a, b chan T) (v T) {
	select {
	case v = <-a:
	case v = <-b:
	}
	return v
}

func main() {
	tk := make(ticks, 1)
	quit := make(chan struct{})
	n := 0
loop:
	for i := 0; ; i++ {
		if i < 3 {
			tk <- i
		} else if i == 3 {
			close(quit)
		}
		select {
		case v := <-tk:
			if v == 1 {
				continue // the loop's, as written
			}
			n += v
			if v == 2 {
				break // the select's
			}
		case <-quit:
			break loop
		}
	}
	fmt.Println("n", n)

	c := make(chan string, 1)
	c <- "hi"
	d := make(chan level)
	fmt.Println(recvOnly(c, d))
	close(c)
	fmt.Println(recvOnly(c, d))

	fmt.Println(report(make(chan error, 1), nil))

	a, b := make(chan float64, 1), make(chan float64)
	a <- 2.5
	fmt.Println(first(a, b))

	var none chan int
	select {
	case <-none:
	default:
		fmt.Println("default")
	}
	one := make(chan string, 1)
	select { // one clause: nothing to choose
	case one <- "x":
	}
	fmt.Println(<-one)

	got := make(chan int, 1)
	select {
	case got <- len(fmt.Sprint(n,
		"over two lines")): // neither named nor copied: left to Go's choice
	case <-time.After(time.Minute):
	}
	fmt.Println("got", <-got)
}
