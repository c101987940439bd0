package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/divergo/divergo/compare"
)

// A test binary's report of a test that panicked, in GoKer's kubernetes
// 13058 shape: a WaitGroup's counter made negative under OnDelete.
const panicReport = `--- FAIL: TestKubernetes13058 (0.03s)
panic: sync: negative WaitGroup counter [recovered, repanicked]

goroutine 7 [running]:
testing.tRunner.func1.2({0x5b2e60, 0x63c2a0})
	/usr/local/go/src/testing/testing.go:1872 +0x237
sync.(*WaitGroup).Add(0x0?, 0x0?)
	/usr/local/go/src/sync/waitgroup.go:64 +0x25a
example.com/kubernetes_13058.TestKubernetes13058.func1({0x0, 0x0})
	/tmp/k/kubernetes13058_test.go:78 +0x1d
example.com/kubernetes_13058.ResourceEventHandlerFuncs.OnDelete(...)
	/tmp/k/kubernetes13058_test.go:26
example.com/kubernetes_13058.(*Controller).processLoop(0xc000012345)
	/tmp/k/kubernetes13058_test.go:36 +0x45
created by example.com/kubernetes_13058.(*Controller).Run in goroutine 6
	/tmp/k/kubernetes13058_test.go:42 +0x55

goroutine 1 [chan receive]:
example.com/kubernetes_13058.Until(0x1, 0x2, 0x3)
	/tmp/k/kubernetes13058_test.go:61 +0x10
`

// TestPanicOf: the first line of the report without testing's
// re-panic note, and the panicking goroutine's frames only.
func TestPanicOf(t *testing.T) {
	p := panicOf([]byte(panicReport))
	if p == nil {
		t.Fatal("no panic found")
	}
	if p.msg != "panic: sync: negative WaitGroup counter" {
		t.Errorf("message %q", p.msg)
	}
	places := strings.Join(p.places, " ")
	if !strings.Contains(places, "kubernetes13058_test.go:26") || strings.Contains(places, ":61") || strings.Contains(places, ":42") {
		t.Errorf("places %s: want line 26 of the panicking goroutine, not line 61 of another nor its creator's 42", places)
	}
	if !slices.Contains(p.funcs, "Controller.processLoop") || slices.Contains(p.funcs, "Until") {
		t.Errorf("functions %v", p.funcs)
	}
	if panicOf([]byte("ok\nPASS\n")) != nil {
		t.Error("a panic found in a clean run's output")
	}
	if got := shortFunc("(*example.com/kubernetes_13058.Controller).processLoop"); got != "Controller.processLoop" {
		t.Errorf("shortFunc of the graph's name = %q", got)
	}
}

// TestAttachPanics: a hole is put down to a panic only for a run of its
// own that exited non-zero with a frame at its line or in its function.
func TestAttachPanics(t *testing.T) {
	at26 := &compare.Hole{Pos: "kubernetes13058_test.go:26", Func: "(example.com/kubernetes_13058.ResourceEventHandlerFuncs).OnDelete", Runs: []int{1}}
	inLoop := &compare.Hole{Pos: "kubernetes13058_test.go:35", Func: "(*example.com/kubernetes_13058.Controller).processLoop", Runs: []int{1}}
	elsewhere := &compare.Hole{Pos: "other.go:9", Func: "example.com/kubernetes_13058.other", Runs: []int{1}}
	cleanRun := &compare.Hole{Pos: "kubernetes13058_test.go:26", Func: "x", Runs: []int{2}}
	c := &compare.Check{Holes: []*compare.Hole{at26, inLoop, elsewhere, cleanRun}, Codes: []int{0, 2, 0}}
	outs := []*tailWriter{{max: 1 << 10}, {max: 1 << 20}, {max: 1 << 10}}
	outs[1].Write([]byte(panicReport))
	outs[2].Write([]byte(panicReport)) // exit status 0: not a panic that ended it
	attachPanics(c, outs)
	for _, h := range []*compare.Hole{at26, inLoop} {
		if h.Cause == nil || h.Cause.PanicRun != 2 || h.Cause.Panic != "panic: sync: negative WaitGroup counter" {
			t.Errorf("hole at %s: cause %+v, want run 2's panic", h.Pos, h.Cause)
		}
	}
	for _, h := range []*compare.Hole{elsewhere, cleanRun} {
		if h.Cause != nil {
			t.Errorf("hole at %s put down to a panic: %+v", h.Pos, h.Cause)
		}
	}
	var b bytes.Buffer
	w := &tailWriter{max: 4}
	w.Write([]byte("abcdef"))
	b.Write(w.buf)
	if b.String() != "cdef" {
		t.Errorf("tail %q, want the last 4 bytes", b.String())
	}
}
