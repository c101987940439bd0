// Command offcopy is what the copy of a function's original body, run
// when recording is off, must keep: the lines a panic or runtime.Caller
// names, labels (renamed in the copy), a function that falls off its end,
// a recovered panic, a function ending in an endless loop, and a named result assigned by a top-level := (such a
// function is not copied: in the copy's block the := would declare a new
// variable).
package main

import (
	"fmt"
	"runtime"
	"strconv"
)

func line() int {
	_, _, l, _ := runtime.Caller(0)
	return l
}

func parse(s string) (n int, err error) {
	n, err = strconv.Atoi(s)
	if err != nil {
		return 0, err
	}
	v, err := strconv.Atoi(s + "0")
	return n + v, err
}

func count(to int) {
	total := 0
outer:
	for i := 0; ; i++ {
		for j := 0; j < i; j++ {
			if i*j > to {
				break outer
			}
			total++
		}
	}
	fmt.Println("count", total)
}

func safe() (msg string) {
	defer func() {
		if r := recover(); r != nil {
			_, _, l, _ := runtime.Caller(3)
			msg = fmt.Sprint("recovered ", r, " at line ", l)
		}
	}()
	var m map[string]int
	m["x"] = 1
	return "not reached"
}

// drain ends in a terminating statement: its copy needs no return after
// it (vet would call one unreachable).
func drain(ch chan int) {
	for {
		select {
		case v, ok := <-ch:
			if !ok {
				return
			}
			fmt.Println("got", v)
		}
	}
}

func main() {
	fmt.Println("line", line())
	n, err := parse("4")
	fmt.Println("parse", n, err)
	count(20)
	fmt.Println(safe())
	ch := make(chan int, 1)
	ch <- 5
	close(ch)
	drain(ch)
}
