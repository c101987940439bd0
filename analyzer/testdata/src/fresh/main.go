// Command fresh checks trees its goroutines allocate: a tree that only its
// maker reads is its own, and branches on it are no change points; the same
// tree published (to a package variable, a channel, another goroutine, an
// interface, a method value, a function that keeps it, or written by its
// reader) is memory another goroutine may write, and branches on it are.
package main

import "fmt"

type tree struct {
	l, r *tree
	v    int
}

// build returns only memory it allocates.
func build(d int) *tree {
	if d <= 0 {
		return &tree{v: 1}
	}
	t := &tree{v: d}
	t.l = build(d - 1)
	t.r = build(d - 1)
	return t
}

// sum is called only with trees no one else holds.
func (t *tree) sum() int {
	if t.l == nil {
		return t.v
	}
	return t.v + t.l.sum() + t.r.sum()
}

// leftmost walks a tree it is given: a phi of fresh memory is fresh.
func leftmost(t *tree) int {
	n := t
	for n.l != nil {
		n = n.l
	}
	return n.v
}

// chain builds a list in a loop: a phi of its own allocations and nil is
// fresh memory too.
func chain(n int) *tree {
	var head *tree
	for i := 0; i < n; i++ {
		head = &tree{l: head, v: i}
	}
	return head
}

// evens walks a list it is given, branching on what it holds.
func evens(t *tree) int {
	s := 0
	for c := t; c != nil; c = c.l {
		if c.v%2 == 0 {
			s += c.v
		}
	}
	return s
}

var keep, kept *tree

func sumGlobal(t *tree) int {
	if t.l == nil { // want `\(branch\): t\.l depends on memory through a pointer`
		return 0
	}
	return 1
}

func sumSent(t *tree) int {
	if t.l == nil { // want `\(branch\): t\.l depends on memory through a pointer`
		return 0
	}
	return 1
}

func sumSpawned(t *tree, done chan int) {
	if t.l == nil { // want `\(branch\): t\.l depends on memory through a pointer`
		done <- 0
		return
	}
	done <- 1
}

func sumCaptured(t *tree) int {
	if t.l == nil { // want `\(branch\): t\.l depends on memory through a pointer`
		return 0
	}
	return 1
}

// list is boxed into an interface below, which makes its methods callable
// from anywhere; tree's stay static.
type list struct{ next *list }

func grow(n int) *list {
	if n == 0 {
		return nil
	}
	return &list{grow(n - 1)}
}

func sumBoxed(t *list) int {
	if t.next == nil { // want `\(branch\): t\.next depends on memory through a pointer`
		return 0
	}
	return 1
}

// sumMethodValue is taken as a value: anything may call it.
func (t *tree) sumMethodValue() int {
	if t.l == nil { // want `\(branch\): t\.l depends on memory through parameter t, which unknown callers pass`
		return 0
	}
	return 1
}

// stash keeps its parameter: a caller that passes a tree to it publishes
// the tree.
func stash(t *tree) { kept = t }

func sumStashed(t *tree) int {
	if t.l == nil { // want `\(branch\): t\.l depends on memory through a pointer`
		return 0
	}
	return 1
}

func sumWritten(t *tree) int {
	if t.l == nil { // want `\(branch\): t\.l depends on memory through a pointer`
		return 0
	}
	return 1
}

// holder is local memory of main's, and the pointer it holds is the same in
// every run, but the tree it points to is published: reading through a
// pointer loaded from a parameter is fresh only when every caller passes
// fresh memory, not merely local memory.
type holder struct{ t *tree }

func deep(h *holder) int {
	if h.t.l == nil { // want `\(branch\): h\.t\.l depends on memory through a pointer`
		return 0
	}
	return 1
}

func main() { // want `\(begin\)`
	done := make(chan int, 1)
	go func() { // want `\(spawn\)`
		t := build(4)
		done <- t.sum() + leftmost(t) + evens(chain(10))
	}()
	fmt.Println(<-done)

	g := build(2)
	keep = g
	fmt.Println(sumGlobal(g))

	c := build(2)
	ch := make(chan *tree, 1)
	ch <- c
	fmt.Println(sumSent(c))

	s := build(2)
	go sumSpawned(s, done) // want `\(spawn\)`
	fmt.Println(<-done)

	p := build(2)
	go func() { // want `\(spawn\)`
		done <- p.v
	}()
	fmt.Println(sumCaptured(p), <-done)

	b := grow(2)
	fmt.Println(b)
	fmt.Println(sumBoxed(b))

	m := build(2)
	f := m.sumMethodValue
	fmt.Println(f())

	k := build(2)
	stash(k)
	fmt.Println(sumStashed(k))

	w := build(2)
	w.l = nil
	fmt.Println(sumWritten(w))

	h := holder{t: g}
	fmt.Println(deep(&h))
}
