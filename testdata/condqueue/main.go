// Command condqueue is a queue guarded by a sync.Cond, in the shape of the
// usual examples: Put appends and signals, Get waits while the queue is
// empty and not closed. The producer fills it and closes it before the
// consumer starts, so the consumer never waits and every run does the
// same: two unperturbed runs take the same paths (e2e
// TestSamePathsShapes). (A consumer started first waits once per item or
// not, as the producer's pace falls: a real difference of path.)
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

type queue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []int
	closed bool
}

func newQueue() *queue {
	q := &queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *queue) put(v int) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	q.cond.Signal()
}

func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

func (q *queue) get() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.items) == 0 {
		return 0, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}

func main() {
	q := newQueue()
	produced := make(chan struct{})
	go func() {
		for i := range 10 {
			q.put(i * i)
		}
		q.close()
		close(produced)
	}()
	<-produced
	sums := make(chan int)
	go func() {
		sum := 0
		for {
			v, ok := q.get()
			if !ok {
				break
			}
			if v%2 == 0 {
				sum += v
			}
		}
		sums <- sum
	}()
	fmt.Println("even squares", <-sums)
}
