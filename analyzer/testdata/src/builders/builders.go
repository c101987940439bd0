// Package builders holds strings.Builders and bytes.Buffers that a
// function keeps to itself: what they return follows from what was
// written, and the branches that decided the writes.
package builders

import (
	"bytes"
	"fmt"
	"strings"
)

// Built from a parameter its callers pass clean: clean.
func build(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteByte("ACGT"[i%4])
	}
	return b.String()
}

func useBuilt(done chan bool) {
	s := build(10)
	go func() { // want `\(spawn\)`
		for i := 0; i < len(s); i++ { // no change point: s is a value
			println(s[i])
		}
		done <- true
	}()
	if len(s) > 3 {
		println()
	}
}

// Written with a received value: shared, through the builder.
func builtFromReceive(ch chan byte) {
	var b strings.Builder
	b.WriteByte(<-ch)
	if b.Len() > 0 { // want `\(branch\): b\.Len\(\) depends on channel receive`
		println()
	}
}

// Written under a branch on a received value: which writes happened
// differs, and so does the content.
func builtUnderReceive(ch chan int) {
	var b bytes.Buffer
	if <-ch > 0 { // want `\(branch\): <-ch depends on channel receive`
		b.WriteString("x")
	}
	if b.String() == "x" { // want `\(branch\): .* depends on channel receive`
		println()
	}
}

// A bytes.Buffer read back: the read depends on what was written.
func bufferRead(ch chan string) {
	var b bytes.Buffer
	b.WriteString("abc")
	if c, _ := b.ReadByte(); c == 'a' { // no change point: written with a constant
		println()
	}
	var d bytes.Buffer
	d.WriteString(<-ch)
	if c, _ := d.ReadByte(); c == 'a' { // want `\(branch\): c depends on channel receive`
		println()
	}
}

// Its address handed to fmt: fmt is another package that may keep it,
// and the builder is shared memory as before.
func builtByFprintf(n int) {
	var b strings.Builder
	fmt.Fprintf(&b, "%d", n)
	if b.Len() > 1 { // want `\(branch\): b\.Len\(\) depends on variable b \(its address escapes\)`
		println()
	}
}

// Captured by a goroutine that writes it: shared.
func builtByGoroutine(done chan bool) {
	var b strings.Builder
	go func() { // want `\(spawn\)`
		b.WriteString("x")
		done <- true
	}()
	<-done
	if b.Len() > 0 { // want `\(branch\): b\.Len\(\) depends on`
		println()
	}
}

// Bytes only read: the buffer stays its own, its length a value; what
// is read through the slice is memory a call returned, shared.
func bufferBytesRead() {
	var b bytes.Buffer
	b.WriteString("abc")
	p := b.Bytes()
	if len(p) > 2 { // no change point
		println()
	}
	if p[0] == 'a' { // want `\(branch\): p\[0\] depends on memory through a pointer returned by a call`
		println()
	}
	if b.Len() > 2 { // no change point
		println()
	}
}

// Bytes written through hands out the buffer's own array: shared, as
// before.
func bufferBytes() {
	var b bytes.Buffer
	b.WriteString("abc")
	p := b.Bytes()
	p[0] = 'x'
	if b.String() == "xbc" { // want `\(branch\): .* depends on variable b \(its address escapes\)`
		println()
	}
}

// Passed to a function of the package that writes it: what the callee
// writes, under the branches that decide the call, is the content.
func fill(b *strings.Builder, s string) {
	b.WriteString(s)
}

func builtByCallee(ch chan int) {
	var b strings.Builder
	fill(&b, "a")
	if b.Len() > 0 { // no change point
		println()
	}
	var c strings.Builder
	if <-ch > 0 { // want `\(branch\): <-ch depends on channel receive`
		fill(&c, "a")
	}
	if c.Len() > 0 { // want `\(branch\): c\.Len\(\) depends on channel receive`
		println()
	}
}

// A copy of a bytes.Buffer shares its array: the buffer is published.
func bufferCopied() {
	var b bytes.Buffer
	b.WriteString("abc")
	c := b
	c.Reset()
	c.WriteString("x")
	if b.String() == "x" { // want `\(branch\): .* depends on variable b \(its address escapes\)`
		println()
	}
}

func calls(done chan bool) {
	build(3)
	useBuilt(done)
	builtByFprintf(3)
	builtByGoroutine(done)
	bufferBytes()
	bufferBytesRead()
	bufferCopied()
}
