// Command ownprofile starts Go's CPU profiler itself, as a program with a
// -cpuprofile flag does, around work in four goroutines: recorded with
// divergo's CPU samples, it must get its profile as plain, and divergo its
// samples too.
package main

//go:generate divergo instrument ./...

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"sync"
)

// spin hashes a megabyte n times: CPU time in few block executions.
func spin(n int) int {
	buf := make([]byte, 1<<20)
	s := 0
	for i := 0; i < n; i++ {
		buf[0] = byte(i)
		h := sha256.Sum256(buf)
		s += int(h[0])
	}
	return s
}

func main() {
	out := flag.String("cpuprofile", "cpu.pprof", "write a CPU profile here")
	n := flag.Int("n", 100, "megabytes hashed per goroutine")
	flag.Parse()
	f, err := os.Create(*out)
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Println("profile:", err)
		os.Exit(3)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	total := 0
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := spin(*n)
			mu.Lock()
			total += s
			mu.Unlock()
		}()
	}
	wg.Wait()
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println("total", total)
}
