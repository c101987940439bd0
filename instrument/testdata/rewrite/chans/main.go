package main

import (
	"fmt"
	"os"
	"runtime"
	"time"
)

var table = []string{"zero", "one", "two"}

func line() int {
	_, _, l, _ := runtime.Caller(1)
	return l
}

func main() {
	ch := make(chan int)
	done := make(chan struct{})
	go func() {
		for i := 0; i < 3; i++ {
			ch <- i
		}
		close(ch)
	}()
	sum := 0
	for v := range ch {
		sum += v
		fmt.Println(table[v])
	}
	drained := make(chan int, 2)
	drained <- 1
	drained <- 2
	close(drained)
	n := 0
	for range drained {
		n++
	}
	var last int
	for last = range ch {
	}
	fmt.Println("drained", n, last)
	calls := 0
	produce := func() chan int { // range evaluates it once
		calls++
		c := make(chan int, 2)
		c <- 1
		c <- 2
		close(c)
		return c
	}
	got := 0
	for v := range produce() {
		got += v
	}
	fmt.Println("produce called", calls, "got", got)
	go func() { done <- struct{}{} }()
	timeout := time.After(time.Minute)
loop:
	for {
		select {
		case <-done:
			break loop
		case <-timeout:
			fmt.Println("timeout")
		}
	}
	pair := make(chan chan int, 1)
	pair <- make(chan int, 1)
	select {
	case pair := <-pair: // redeclares the name of its channel: the case cannot name it
		pair <- 1
	}
	out := make(chan int, 1)
	select {
	case out <- 5:
	case <-time.After(time.Minute): // a call: evaluated before the select, in a block around it, and named
	}
	select {
	case <-( /* a comment: the case is not copied */ out):
	default:
	}
	<-out
	flags := make(chan bool, 1)
	select {
	case flags <- sum > 0: // a comparison, typed by the channel: nothing is hoisted
	case <-time.After(time.Minute):
	}
	<-flags
	select {
	case out <- len(m0()): // a send value evaluated before the select, in order
	case <-time.After(time.Minute):
	}
	<-out
labeled:
	select {
	case <-time.After(time.Millisecond): // a labeled select: left in place
		break labeled
	}
	m := map[int]string{7: "seven"}
	for k := range m {
		fmt.Println(k)
	}
	for _, v := range map[string]int{"k": 3} {
		sum += v
	}
	i := 0
again:
	time.Sleep(time.Millisecond)
	if i++; i < 2 {
		goto again
	}
	fmt.Println("sum", sum, "line", line())
	if sum > 0 {
		os.Exit(3)
	}
}

// m0 is a call whose result a select sends.
func m0() map[int]bool { return map[int]bool{1: true} }
