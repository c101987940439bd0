//go:build linux

package runtime

import (
	"syscall"
	"unsafe"
)

// Full-size buffers live outside the Go heap. A program that allocates
// little keeps a heap near the collector's 4 MB minimum goal, and a
// megabyte or two of trace buffers in it would make the collector run
// about twice as often for the program's own garbage (testdata/wordcount:
// 17 cycles instead of 11, PERFORMANCE.md). They hold no pointers, and
// are kept for reuse (writer.go) or unmapped, never left to the collector.

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
