// Command leakmutex leaks ten goroutines, each blocked for ever on a small
// mutex of its own that nothing else can reach, and prints the total of
// Go's goroutine leak profile (GOEXPERIMENT=goroutineleakprofile). The
// end-to-end test builds it plain and instrumented and requires the same
// total from both: a recorder that kept the mutexes reachable, or put
// something it keeps beside them, would hide the leaks.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

const leaks = 10

// sink makes pads escape to the heap without keeping them.
var sink atomic.Pointer[uint64]

// pad allocates an 8-byte object that nothing keeps.
func pad() {
	p := new(uint64)
	sink.Store(p)
	sink.CompareAndSwap(p, nil)
}

// stuck locks a mutex of its own twice: the second Lock never returns.
//
// An 8-byte mutex comes from Go's tiny allocator, which packs small
// pointer-free objects two to a 16-byte block that lives as long as either
// does, and the block each P is filling is always kept. So that the plain
// program's total is always ten, the mutex is taken at the start of a new
// block, a dead pad fills the rest and a second one starts the next block;
// an 8-byte counter the recorder allocated while locking would take the
// first pad's place.
func stuck(started *sync.WaitGroup) {
	mu := new(sync.Mutex)
	for uintptr(unsafe.Pointer(mu))%16 != 0 {
		mu = new(sync.Mutex)
	}
	mu.Lock()
	pad()
	pad()
	started.Done()
	mu.Lock()
}

func main() {
	var started sync.WaitGroup
	for i := 0; i < leaks; i++ {
		started.Add(1)
		go stuck(&started)
	}
	started.Wait()
	time.Sleep(50 * time.Millisecond) // let the last ones block in their second Lock
	p := pprof.Lookup("goroutineleak")
	if p == nil {
		fmt.Println("no goroutineleak profile: build with GOEXPERIMENT=goroutineleakprofile")
		os.Exit(3)
	}
	var b strings.Builder
	if err := p.WriteTo(&b, 1); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println(strings.SplitN(b.String(), "\n", 2)[0])
}
