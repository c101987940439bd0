package runtime

import (
	"bytes"
	goruntime "runtime"
	"strconv"
	"unsafe"
)

// goidOffset is the offset of goid inside the Go runtime's g struct, or -1
// when it is unknown and goids come from parsing runtime.Stack (about 2 µs
// instead of 1 ns; docs/PERFORMANCE.md, "Function entry").
var goidOffset = -1

// maxGoidOffset bounds the search: goid sits about 150 bytes into g in Go
// 1.26, and g is well over 256 bytes long, so reading this far is safe.
const maxGoidOffset = 256

// curGoid returns the goroutine id of the caller.
func curGoid() uint64 {
	if off := goidOffset; off >= 0 {
		return *(*uint64)(unsafe.Add(getg(), off))
	}
	return stackGoid()
}

// stackGoid parses "goroutine N [" from the caller's stack trace.
func stackGoid() uint64 {
	var buf [64]byte
	b := buf[:goruntime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseUint(string(b), 10, 64)
	return id
}

// goidSamples is what detectGoidOffset's goroutines report to, and wait on
// (hidden.go: they take no arguments).
var goidSamples struct {
	ch      chan goidSampled
	release chan struct{}
}

// goidSampled is a goroutine's g and the id runtime.Stack gives it.
type goidSampled struct {
	g  unsafe.Pointer
	id uint64
}

// goidSample reports the calling goroutine's g and id, then stays alive
// (and keeps g in use) until every word is read.
func goidSample() {
	ch, release := goidSamples.ch, goidSamples.release // read before the next detection sets them
	ch <- goidSampled{getg(), stackGoid()}
	<-release
}

// detectGoidOffset finds the goid field by comparing the ids runtime.Stack
// gives for several goroutines with the words of their g structs: the
// offset must hold the right id in every one of them, and be the only such
// offset. Its goroutines are hidden from the program (hidden.go).
func detectGoidOffset() int {
	if !haveGetg {
		return -1
	}
	const n = 4
	goidSamples.ch, goidSamples.release = make(chan goidSampled), make(chan struct{})
	for range n {
		go hiddenGoidSample()
	}
	var ss []goidSampled
	for range n {
		ss = append(ss, <-goidSamples.ch)
	}
	ss = append(ss, goidSampled{getg(), stackGoid()})
	found := -1
	for off := 0; off < maxGoidOffset; off += 8 {
		ok := true
		for _, s := range ss {
			if s.g == nil || s.id == 0 || *(*uint64)(unsafe.Add(s.g, off)) != s.id {
				ok = false
				break
			}
		}
		if ok {
			if found >= 0 {
				found = -1 // ambiguous: do not guess
				break
			}
			found = off
		}
	}
	close(goidSamples.release)
	return found
}
