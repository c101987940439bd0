//go:build linux

package runtime

import (
	"syscall"
	"unsafe"
)

// Full-size buffers, and the writer's frame they are encoded into, live
// outside the Go heap. A program that allocates little keeps a heap near
// the collector's 4 MB minimum goal, and a megabyte or two of trace
// buffers in it would make the collector run about twice as often for the
// program's own garbage (testdata/wordcount: 17 cycles instead of the
// plain program's 11; 12 with the buffers outside, 11 with the frame too;
// PERFORMANCE.md). They hold no pointers, and are kept for reuse
// (writer.go) or unmapped, never left to the collector.

// bigWords returns a buffer of maxWords words, len maxWords-reserve.
func bigWords() []uint32 {
	b, err := syscall.Mmap(-1, 0, 4*maxWords, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]uint32, maxWords-reserve, maxWords)
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), maxWords)[:maxWords-reserve]
}

// dropWords gives back a buffer of bigWords that is no longer used.
func dropWords(w []uint32) {
	b := unsafe.Slice((*byte)(unsafe.Pointer(&w[:1][0])), 4*cap(w))
	syscall.Munmap(b) // not mapped (a heap fallback): EINVAL, and the collector frees it
}

// bigFrame returns an empty frame with room for the encoding of a full
// buffer, for the writer goroutine's chunk; nil if it cannot be mapped
// (encode then allocates one).
func bigFrame() []byte {
	b, err := syscall.Mmap(-1, 0, frameBytes, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	return b[:0]
}

// dropFrame gives back a frame of bigFrame.
func dropFrame(b []byte) {
	if cap(b) > 0 {
		syscall.Munmap(b[:cap(b)]) // not mapped (encode grew it on the heap): EINVAL
	}
}
