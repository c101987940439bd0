package flaky

import (
	"errors"
	"sync"
)

// ErrPoolFull is Submit's answer when every worker of the pool is busy.
var ErrPoolFull = errors.New("the pool is full")

// Pool runs tasks on at most size worker goroutines, each looping over its
// own task channel, in the shape of the goroutine pools of real projects:
// Submit hands a task to an idle worker, starts a worker while fewer than
// size run, and refuses (it never blocks) when all are busy.
type Pool struct {
	mu      sync.Mutex
	size    int
	running int
	idle    []chan func()
	closed  bool
	exited  sync.WaitGroup // a worker's exit
}

// NewPool returns a pool of at most size workers.
func NewPool(size int) *Pool { return &Pool{size: size} }

// Submit hands task to a worker. A nil task makes the worker that takes it
// exit: its place in the pool is free once it has.
func (p *Pool) Submit(task func()) error {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		w := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		w <- task
		return nil
	}
	if p.running == p.size {
		p.mu.Unlock()
		return ErrPoolFull
	}
	p.running++
	p.exited.Add(1)
	p.mu.Unlock()
	w := make(chan func(), 1)
	go p.work(w)
	w <- task
	return nil
}

// work runs the tasks sent on w until a nil one, going back to the idle
// workers after each.
func (p *Pool) work(w chan func()) {
	defer p.exited.Done()
	defer func() {
		p.mu.Lock()
		p.running--
		p.mu.Unlock()
	}()
	for task := range w {
		if task == nil {
			return
		}
		task()
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return
		}
		p.idle = append(p.idle, w)
		p.mu.Unlock()
	}
}

// Release stops the idle workers, makes the busy ones exit after their
// task, and waits for them all.
func (p *Pool) Release() {
	p.mu.Lock()
	p.closed = true
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, w := range idle {
		w <- nil
	}
	p.exited.Wait()
}
