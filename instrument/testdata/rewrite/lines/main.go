// Command lines blocks goroutines in channel operations whose operands
// take more than one line and prints the line each one's stack names, so
// that the rewrite test, which requires the instrumented program to print
// what the plain one printed, catches a wrapper call that lands on another
// line than the statement it replaces: stack traces, profiles and Go's
// execution tracer would name that line.
package main

import (
	"cmp"
	"fmt"
	"regexp"
	"runtime"
	"sync"
	"time"
)

// pick returns c: a range over a call.
func pick(c chan int, _ int) chan int { return c }

// blockedAt returns the line the stack of a goroutine blocked on a
// channel in fn names, once it has blocked. It looks a fixed number of
// times, with library code only, so that the events the rewrite test
// compares are the same in every run.
func blockedAt(fn string) string {
	re := regexp.MustCompile(`(?m)^goroutine [0-9]+ \[chan [a-z]+\]:\n(?:.+\n)*?main\.` + fn + `\(.*\n\t.*:([0-9]+)\b`)
	buf := make([]byte, 1<<16)
	line := ""
	for range 200 {
		m := re.FindStringSubmatch(string(buf[:runtime.Stack(buf, true)]))
		line = cmp.Or(line, append(m, "", "")[1])
		time.Sleep(time.Millisecond)
	}
	return line
}

func ranges(ch chan int) {
	for v := range pick(
		ch, 1) {
		fmt.Println(v)
	}
}

func sends(ch chan int, n int) {
	ch <- n +
		1
}

func receives(ch chan int) {
	fmt.Println("received",
		<-ch)
}

func main() {
	a, b, c := make(chan int), make(chan int), make(chan int)
	var wg sync.WaitGroup
	wg.Go(func() { ranges(a) })
	fmt.Println("range blocked at line", blockedAt("ranges"))
	a <- 1
	close(a)
	wg.Wait()
	wg.Go(func() { sends(b, 1) })
	fmt.Println("send blocked at line", blockedAt("sends"))
	fmt.Println("sent", <-b)
	wg.Wait()
	wg.Go(func() { receives(c) })
	fmt.Println("receive blocked at line", blockedAt("receives"))
	c <- 3
	wg.Wait()
}
